info
tests/data/lora-adapter.gguf
tests/data/mmproj-clip.gguf
