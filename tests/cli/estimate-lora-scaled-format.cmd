estimate
--lora-scaled
adapter.gguf
model.gguf
