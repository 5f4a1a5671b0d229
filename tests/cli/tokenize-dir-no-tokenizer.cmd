tokenize
tests/data
hi
