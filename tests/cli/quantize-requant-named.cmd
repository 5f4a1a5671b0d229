quantize
@STANDIN@/pub-dense-Q8_0.gguf
/nonexistent-dir/out.gguf
Q4_0
