quantize
--dry-run
@STANDIN@/pub-dense-Q8_0-split-00002-of-00003.gguf
/nonexistent/out.gguf
Q4_0
