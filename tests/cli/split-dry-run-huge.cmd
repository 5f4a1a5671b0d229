split
--max-size
1G
--dry-run
@SHARED@/golden/llama-quantize/pub-dense-Q8_0.gguf
p
