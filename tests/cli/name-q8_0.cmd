name
@STANDIN@/pub-dense-Q8_0.gguf
