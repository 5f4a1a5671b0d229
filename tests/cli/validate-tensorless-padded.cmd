validate
-
