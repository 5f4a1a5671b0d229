quantize
--override-kv
general.name=text:x
@STANDIN@/pub-dense-f16.gguf
out.gguf
Q4_0
