split
--max-size
1.5G
@STANDIN@/pub-dense-Q8_0.gguf
p
