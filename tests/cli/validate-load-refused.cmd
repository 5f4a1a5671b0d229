validate
--load
tests/data/tiny-llama-bad-load.gguf
