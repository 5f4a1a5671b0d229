verify
examples/Tiny-Llama-82K-v1.0-Q8_0.gguf
--sha256
xyz
