cat
tests/data/truncated-Q8_0.gguf
blk.0.ffn_up.weight
