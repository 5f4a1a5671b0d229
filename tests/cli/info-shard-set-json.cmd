info
--json
@REF@/golden/llama-quantize/pub-dense-Q8_0-split-00002-of-00003.gguf
