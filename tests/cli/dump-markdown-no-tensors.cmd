dump
--markdown
--no-tensors
tests/data/mmproj-clip.gguf
