info
--json
tests/data/vocab-padded.gguf
tests/data/lora-adapter.gguf
tests/data/mmproj-clip.gguf
tests/data/imatrix-tiny.gguf
examples/Tiny-Llama-82K-v1.0-Q8_0.gguf
@STANDIN@/bert-base-uncased@edd0518f.gguf
