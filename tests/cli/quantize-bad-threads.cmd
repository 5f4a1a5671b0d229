quantize
@STANDIN@/pub-dense-f16.gguf
out.gguf
Q4_0
zero
