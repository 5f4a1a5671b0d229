tokenize
@VOCAB@/ggml-vocab-bert-bge@b2cbd5df.gguf
-
