name
@STANDIN@/superpoint@1297967f.gguf
