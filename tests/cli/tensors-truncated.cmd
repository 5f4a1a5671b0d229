tensors
tests/data/truncated-Q8_0.gguf
