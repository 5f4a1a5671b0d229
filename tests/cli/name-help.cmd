name
--help
