dump
--json
--no-tensors
@SHARED@/corpus/bitnet-rs/llama2-32k@4c3fe82b.gguf
