hash
--xxh64
--check
tests/hash/tiny-missing.manifest
examples/Tiny-Llama-82K-v1.0-Q8_0.gguf
