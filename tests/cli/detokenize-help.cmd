detokenize
--help
