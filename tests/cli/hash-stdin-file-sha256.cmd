hash
--sha256
-
