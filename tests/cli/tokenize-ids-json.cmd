tokenize
--ids
--json
@SHARED@/corpus/llama.cpp/ggml-vocab-gpt-2@5ea85cf5.gguf
x
