hash
--check
tests/hash/tiny-uuid-only.manifest
examples/Tiny-Llama-82K-v1.0-Q8_0.gguf
