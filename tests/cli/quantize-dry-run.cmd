quantize
--dry-run
@STANDIN@/pub-dense-f16.gguf
/nonexistent/out.gguf
Q4_K_M
