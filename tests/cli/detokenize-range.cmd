detokenize
@VOCAB@/ggml-vocab-gpt-2@5ea85cf5.gguf
1
50257
