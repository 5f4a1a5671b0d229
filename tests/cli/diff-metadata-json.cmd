diff
--json
--metadata
@SHARED@/golden/llama-quantize/pub-dense-f16.gguf
@SHARED@/golden/llama-quantize/pub-dense-Q8_0.BE.gguf
