quantize
--override-kv
general.name=text:x
@SHARED@/golden/llama-quantize/pub-dense-f16.gguf
out.gguf
Q4_0
