tokenize
@VOCAB@/ggml-vocab-stablelm@310cec63.gguf
x
