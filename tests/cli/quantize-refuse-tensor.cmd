quantize
@STANDIN@/pub-dense-f16.gguf
out.gguf
IQ2_M
