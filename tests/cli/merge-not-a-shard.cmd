merge
@STANDIN@/pub-dense-Q8_0.gguf
out.gguf
