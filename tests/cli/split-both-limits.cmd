split
--max-size
1G
--max-tensors
3
@SHARED@/golden/llama-quantize/pub-dense-Q8_0.gguf
p
