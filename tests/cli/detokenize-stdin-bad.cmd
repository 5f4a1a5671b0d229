detokenize
@SHARED@/corpus/llama.cpp/ggml-vocab-llama-spm@658295a5.gguf
-
