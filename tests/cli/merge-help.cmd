merge
--help
