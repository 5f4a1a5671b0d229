name
@STANDIN@/pub-moe-f32.gguf
