quantize
--dry-run
@SHARED@/golden/llama-quantize/pub-moe-f32.gguf
/nonexistent/out.gguf
Q3_K_L
