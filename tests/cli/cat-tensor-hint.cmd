cat
@REF@/golden/llama-quantize/pub-dense-f16.gguf
blk.0.attn_q.weigth
