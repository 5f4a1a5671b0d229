split
--split-max-tensors
16
--no-tensor-first-split
--dry-run
@STANDIN@/pub-dense-Q8_0.gguf
out
