quantize
--tensor-type
attn_q=q9_9
@STANDIN@/pub-dense-f16.gguf
out.gguf
Q4_0
