validate
--strict
tests/data/metadata-only.gguf
