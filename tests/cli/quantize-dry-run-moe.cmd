quantize
--dry-run
@STANDIN@/pub-moe-f32.gguf
/nonexistent/out.gguf
Q3_K_L
