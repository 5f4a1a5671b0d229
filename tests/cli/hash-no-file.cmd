hash
--sha256
