split
--max-size
1M
--dry-run
@SHARED@/golden/llama-quantize/pub-dense-Q8_0.gguf
out/p
