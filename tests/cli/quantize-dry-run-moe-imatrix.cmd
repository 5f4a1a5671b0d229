quantize
--dry-run
--imatrix
@SHARED@/golden/llama-quantize/pub-moe-f32.imatrix.dat
@SHARED@/golden/llama-quantize/pub-moe-f32.gguf
/nonexistent/out.gguf
IQ2_M
