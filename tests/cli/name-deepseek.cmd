name
@REF@/corpus/llama.cpp/ggml-vocab-deepseek-coder@640ee63d.gguf
