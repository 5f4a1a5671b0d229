split
--dry-run
@STANDIN@/pub-moe-f32.gguf
out
