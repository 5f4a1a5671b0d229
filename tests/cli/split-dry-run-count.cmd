split
--max-tensors
16
--dry-run
@STANDIN@/pub-dense-Q8_0.gguf
pub-dense-Q8_0-split
