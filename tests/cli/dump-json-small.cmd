dump
--json
--no-tensors
@STANDIN@/llama2-32k@4c3fe82b.gguf
