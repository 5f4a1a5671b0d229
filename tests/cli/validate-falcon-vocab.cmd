validate
@SHARED@/corpus/llama.cpp/ggml-vocab-falcon@334d50da.gguf
