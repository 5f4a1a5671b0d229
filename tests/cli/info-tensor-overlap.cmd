info
@SHARED@/corpus/threatflux-gguf/test_model@0f14d3d7.gguf
