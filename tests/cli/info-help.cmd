info
--help
