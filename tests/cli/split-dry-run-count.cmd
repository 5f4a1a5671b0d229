split
--max-tensors
16
--dry-run
@SHARED@/golden/llama-quantize/pub-dense-Q8_0.gguf
pub-dense-Q8_0-split
