validate
@STANDIN@/example@42a152e7.gguf
@STANDIN@/test_writer@30fef3d6.gguf
@STANDIN@/test_model@0f14d3d7.gguf
@STANDIN@/test@f68a3c4b.gguf
