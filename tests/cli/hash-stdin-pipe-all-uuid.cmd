hash
--all
--uuid
-
