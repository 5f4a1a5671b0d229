dump
--json
--no-tensors
@STANDIN@/pub-dense-f16.BE.gguf
