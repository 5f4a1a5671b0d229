dump
--no-tensors
-
