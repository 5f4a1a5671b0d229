quantize
--tensor-type
(=q4_0
@SHARED@/golden/llama-quantize/pub-dense-f16.gguf
out.gguf
Q4_0
