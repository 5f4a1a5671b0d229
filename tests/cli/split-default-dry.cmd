split
--dry-run
@SHARED@/golden/llama-quantize/pub-moe-f32.gguf
out
