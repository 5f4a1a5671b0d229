name
@REF@/corpus/ollama/llama-2-tiny-random@55b2b40c.gguf
