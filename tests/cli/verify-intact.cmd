verify
examples/Tiny-Llama-82K-v1.0-Q8_0.gguf
--sha256
0d00d05ae84ed7610c054a84fc761f2f0cca5f1850644f8ab67ad9afaac24b0b
