dump
@SHARED@/corpus/bitnet-rs/mini@e11b908a.gguf
