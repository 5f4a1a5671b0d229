dump
--json
--no-tensors
@SHARED@/golden/llama-quantize/pub-dense-f16.BE.gguf
