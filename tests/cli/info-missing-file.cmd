info
/nonexistent.gguf
