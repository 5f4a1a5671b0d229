quantize
--tensor-type
(=q4_0
@STANDIN@/pub-dense-f16.gguf
out.gguf
Q4_0
