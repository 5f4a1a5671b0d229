detokenize
@VOCAB@/ggml-vocab-llama-spm@658295a5.gguf
-
