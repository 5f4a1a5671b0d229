quantize
--dry-run
--allow-requantize
--keep-split
@STANDIN@/pub-dense-Q8_0-split-00001-of-00003.gguf
/nonexistent/out.gguf
Q4_0
