download
hf://o//m.gguf
