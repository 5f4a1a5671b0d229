tokenize
@SHARED@/corpus/llama.cpp/ggml-vocab-stablelm@310cec63.gguf
x
