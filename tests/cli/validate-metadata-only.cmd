validate
tests/data/metadata-only.gguf
