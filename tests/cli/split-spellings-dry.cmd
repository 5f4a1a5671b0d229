split
--split
--split-max-size
3m
--dry-run
@STANDIN@/pub-dense-Q8_0.gguf
out
