verify
--help
