split
--max-tensors
0
@SHARED@/golden/llama-quantize/pub-dense-Q8_0.gguf
p
