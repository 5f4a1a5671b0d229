stats
@REF@/golden/llama-quantize/pub-dense-f16.gguf
blk.0.atn_k.weight
