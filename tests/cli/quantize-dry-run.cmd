quantize
--dry-run
@SHARED@/golden/llama-quantize/pub-dense-f16.gguf
/nonexistent/out.gguf
Q4_K_M
