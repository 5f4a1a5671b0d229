info
-
