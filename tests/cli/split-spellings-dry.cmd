split
--split
--split-max-size
3m
--dry-run
@SHARED@/golden/llama-quantize/pub-dense-Q8_0.gguf
out
