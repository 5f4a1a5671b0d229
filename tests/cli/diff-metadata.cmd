diff
--metadata
@STANDIN@/pub-dense-f16.gguf
@STANDIN@/pub-dense-Q8_0.gguf
