dump
--no-tensors
tests/data/metadata-only.gguf
