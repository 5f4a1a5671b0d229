validate
--load
--json
examples/Tiny-Llama-82K-v1.0-Q8_0.gguf
tests/data/tiny-llama-bad-load.gguf
tests/data/mmproj-clip.gguf
tests/data/truncated-Q8_0.gguf
