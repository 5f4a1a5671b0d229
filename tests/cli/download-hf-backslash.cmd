download
hf://o/r/a\b.gguf
