tokenize
--ids
-f
tests/tokenize/stdin.txt
@VOCAB@/ggml-vocab-falcon@334d50da.gguf
