dump
@STANDIN@/test_model@0f14d3d7.gguf
