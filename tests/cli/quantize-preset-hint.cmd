quantize
@REF@/golden/llama-quantize/pub-dense-f16.gguf
Q4_KM
