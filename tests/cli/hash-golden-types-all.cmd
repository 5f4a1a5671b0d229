hash
--all
--uuid
--no-layer
@SHARED@/golden/ggml-types/type-q4_K.gguf
@SHARED@/golden/ggml-types/type-iq2_xxs.gguf
