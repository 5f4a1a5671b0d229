get
tests/data/truncated-Q8_0.gguf
general.name
