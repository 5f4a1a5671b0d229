quantize
--json
@STANDIN@/pub-moe-f32.gguf
out.gguf
Q4_0
