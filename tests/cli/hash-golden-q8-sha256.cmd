hash
--sha256
@SHARED@/golden/llama-quantize/pub-dense-Q8_0.gguf
