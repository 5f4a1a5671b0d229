split
--split-max-tensors=16
@STANDIN@/pub-dense-Q8_0.gguf
--dry-run
out
