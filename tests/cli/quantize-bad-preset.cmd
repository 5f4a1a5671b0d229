quantize
@STANDIN@/pub-dense-f16.gguf
out.gguf
Q9_9
