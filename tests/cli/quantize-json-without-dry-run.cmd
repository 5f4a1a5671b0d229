quantize
--json
@SHARED@/golden/llama-quantize/pub-moe-f32.gguf
out.gguf
Q4_0
