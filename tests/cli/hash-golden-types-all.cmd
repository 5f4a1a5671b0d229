hash
--all
--uuid
--no-layer
@STANDIN@/type-q4_K.gguf
@STANDIN@/type-iq2_xxs.gguf
