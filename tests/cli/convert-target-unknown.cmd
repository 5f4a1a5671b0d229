convert
--target
b4748
/nonexistent
