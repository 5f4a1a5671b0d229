validate
@SHARED@/corpus/llama.cpp/example@42a152e7.gguf
@SHARED@/corpus/llama.cpp/test_writer@30fef3d6.gguf
@SHARED@/corpus/threatflux-gguf/test_model@0f14d3d7.gguf
@SHARED@/corpus/ollama/test@f68a3c4b.gguf
