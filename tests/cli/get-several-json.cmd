get
--json
examples/Tiny-Llama-82K-v1.0-Q8_0.gguf
general.name
tokenizer.ggml.tokens[5]
llama.attention.layer_norm_rms_epsilon
