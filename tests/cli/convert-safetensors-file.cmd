convert
@SHARED@/golden/convert/TinyLlama-2-Test-2x32/model.safetensors
-o
/dev/null
