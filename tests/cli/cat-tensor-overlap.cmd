cat
@STANDIN@/test_model@0f14d3d7.gguf
token_embd.weight
