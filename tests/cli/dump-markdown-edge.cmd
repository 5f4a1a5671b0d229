dump
tests/data/markdown-edge.gguf
--markdown
