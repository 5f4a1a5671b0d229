get
examples/Tiny-Llama-82K-v1.0-Q8_0.gguf
general.name
tokenizer.ggml.tokens[5]
tokenizer.ggml.scores[-1]
llama.rope.freq_base
