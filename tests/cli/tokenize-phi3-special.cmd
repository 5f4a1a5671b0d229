tokenize
@VOCAB@/ggml-vocab-phi-3@745be416.gguf
<|user|>hi <|end|> x
