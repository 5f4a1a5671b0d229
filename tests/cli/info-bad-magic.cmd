info
tests/data/bert-base-uncased-vocab.txt
