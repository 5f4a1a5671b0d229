name
@STANDIN@/pub-dense-Q8_0-split-00001-of-00003.gguf
@STANDIN@/pub-dense-Q8_0-split-00003-of-00003.gguf
