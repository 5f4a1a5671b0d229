hash
--json
--sha256
-c
tests/hash/tiny-mismatch.manifest
examples/Tiny-Llama-82K-v1.0-Q8_0.gguf
