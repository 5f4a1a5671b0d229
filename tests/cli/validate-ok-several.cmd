validate
examples/Tiny-Llama-82K-v1.0-Q8_0.gguf
@STANDIN@/pub-dense-Q8_0.gguf
