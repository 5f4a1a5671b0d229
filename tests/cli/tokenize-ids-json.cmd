tokenize
--ids
--json
@VOCAB@/ggml-vocab-gpt-2@5ea85cf5.gguf
x
