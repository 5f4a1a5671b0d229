quantize
@STANDIN@/pub-dense-Q8_0.gguf
out.gguf
Q4_K_M
