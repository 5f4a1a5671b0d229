tokenize
@STANDIN@/type-f32.gguf
x
