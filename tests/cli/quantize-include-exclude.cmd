quantize
--include-weights
attn
--exclude-weights
ffn
@SHARED@/golden/llama-quantize/pub-dense-f16.gguf
out.gguf
Q4_0
