name
@STANDIN@/pub-dense-f16.gguf
