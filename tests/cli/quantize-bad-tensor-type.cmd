quantize
--tensor-type
attn_q=q9_9
@SHARED@/golden/llama-quantize/pub-dense-f16.gguf
out.gguf
Q4_0
