tokenize
@VOCAB@/ggml-vocab-phi-3@745be416.gguf
--no-bos
<|user|>hi <|end|> x
--ids
--no-parse-special
