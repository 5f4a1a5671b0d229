tokenize
@SHARED@/golden/ggml-types/type-f32.gguf
x
