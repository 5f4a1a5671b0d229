info
tests/data/metadata-only.gguf
