split
--max-size
1.5G
@SHARED@/golden/llama-quantize/pub-dense-Q8_0.gguf
p
