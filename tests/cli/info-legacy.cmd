info
tests/data/legacy-ggjt-v3.bin
