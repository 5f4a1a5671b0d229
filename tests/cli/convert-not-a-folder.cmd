convert
tests/data/metadata-only.gguf
-o
/dev/null
