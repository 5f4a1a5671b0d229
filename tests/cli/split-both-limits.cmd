split
--max-size
1G
--max-tensors
3
@STANDIN@/pub-dense-Q8_0.gguf
p
