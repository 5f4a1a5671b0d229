dump
@STANDIN@/mini@e11b908a.gguf
