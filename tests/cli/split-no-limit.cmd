split
--dry-run
@STANDIN@/pub-dense-Q8_0.gguf
p
