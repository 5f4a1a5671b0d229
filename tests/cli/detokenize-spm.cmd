detokenize
@VOCAB@/ggml-vocab-llama-spm@658295a5.gguf
[1,
15043,
3186,
29991]
