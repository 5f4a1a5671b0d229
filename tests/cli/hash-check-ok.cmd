hash
-c
tests/hash/tiny-all.manifest
examples/Tiny-Llama-82K-v1.0-Q8_0.gguf
