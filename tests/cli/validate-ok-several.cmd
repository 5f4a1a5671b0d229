validate
examples/Tiny-Llama-82K-v1.0-Q8_0.gguf
@SHARED@/golden/llama-quantize/pub-dense-Q8_0.gguf
