tokenize
--help
