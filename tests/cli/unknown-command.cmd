frobnicate
x.gguf
