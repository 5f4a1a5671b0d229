tokenize
@VOCAB@/ggml-vocab-gpt-2@5ea85cf5.gguf
