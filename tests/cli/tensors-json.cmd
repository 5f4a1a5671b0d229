tensors
--json
@STANDIN@/type-q4_K.gguf
