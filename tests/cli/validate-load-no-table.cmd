validate
--load
tests/data/mmproj-clip.gguf
