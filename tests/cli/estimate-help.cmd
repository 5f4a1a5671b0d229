estimate
--help
