dump
--json
@STANDIN@/tinyllamas-stories-260k-f32@e8579850.gguf
