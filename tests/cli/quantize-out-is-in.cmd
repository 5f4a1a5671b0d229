quantize
@STANDIN@/pub-dense-f16.gguf
@STANDIN@/pub-dense-f16.gguf
Q4_0
1
