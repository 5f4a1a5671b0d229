split
--max-size
1G
--dry-run
@STANDIN@/pub-dense-Q8_0.gguf
p
