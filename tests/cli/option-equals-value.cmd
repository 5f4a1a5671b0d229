split
--split-max-tensors=16
@SHARED@/golden/llama-quantize/pub-dense-Q8_0.gguf
--dry-run
out
