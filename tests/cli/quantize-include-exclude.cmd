quantize
--include-weights
attn
--exclude-weights
ffn
@STANDIN@/pub-dense-f16.gguf
out.gguf
Q4_0
