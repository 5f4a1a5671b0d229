split
--help
