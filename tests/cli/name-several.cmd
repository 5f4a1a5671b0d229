name
@SHARED@/golden/llama-quantize/pub-dense-Q8_0-split-00001-of-00003.gguf
@SHARED@/golden/llama-quantize/pub-dense-Q8_0-split-00003-of-00003.gguf
