quantize
--help
