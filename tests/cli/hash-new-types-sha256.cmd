hash
--sha256
@STANDIN@/type-mxfp4.gguf
@STANDIN@/type-nvfp4.gguf
@STANDIN@/type-q1_0.gguf
@STANDIN@/type-q2_0.gguf
