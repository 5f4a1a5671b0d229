validate
@REF@/corpus/llama.cpp/ggml-vocab-dbrx@ae6d2c32.gguf
