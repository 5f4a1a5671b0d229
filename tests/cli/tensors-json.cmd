tensors
--json
@SHARED@/golden/ggml-types/type-q4_K.gguf
