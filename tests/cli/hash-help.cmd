hash
--help
