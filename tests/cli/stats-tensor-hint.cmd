stats
@SHARED@/golden/llama-quantize/pub-dense-f16.gguf
blk.0.atn_k.weight
