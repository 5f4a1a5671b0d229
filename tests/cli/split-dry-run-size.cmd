split
--max-size
1M
--dry-run
@STANDIN@/pub-dense-Q8_0.gguf
out/p
