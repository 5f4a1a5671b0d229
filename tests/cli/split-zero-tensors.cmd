split
--max-tensors
0
@STANDIN@/pub-dense-Q8_0.gguf
p
