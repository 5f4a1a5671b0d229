name
@SHARED@/corpus/ggml/superpoint@1297967f.gguf
