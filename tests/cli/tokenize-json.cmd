tokenize
--json
@VOCAB@/ggml-vocab-deepseek-llm@5d66091c.gguf
x = 12345 + 'ab'  # 注释
