hash
-c
tests/hash/unknown.manifest
examples/Tiny-Llama-82K-v1.0-Q8_0.gguf
