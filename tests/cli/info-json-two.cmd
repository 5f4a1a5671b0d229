info
--json
examples/Tiny-Llama-82K-v1.0-Q8_0.gguf
@STANDIN@/pub-moe-f32.gguf
