detokenize
@SHARED@/corpus/llama.cpp/ggml-vocab-gpt-2@5ea85cf5.gguf
1
x2
