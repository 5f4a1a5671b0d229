download
hf://o/r/m.gguf@refs/./x
