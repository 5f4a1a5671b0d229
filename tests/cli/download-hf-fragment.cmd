download
hf://o/r/m.gguf@main#
