tokenize
@SHARED@/corpus/llama.cpp/ggml-vocab-bert-bge@b2cbd5df.gguf
-
