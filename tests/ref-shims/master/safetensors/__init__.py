"""Stand-in for the `safetensors` package where llama.cpp master's converter imports it itself:
`safetensors.torch.load_file` (EmbeddingGemma's generate_extra_tensors imports it on every run, to read
sentence-transformers' Dense modules). Master reads the checkpoint's own shards without this package."""
