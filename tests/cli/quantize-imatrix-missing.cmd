quantize
--imatrix
/nonexistent.dat
tests/data/metadata-only.gguf
/nonexistent-dir/out.gguf
Q4_K_M
