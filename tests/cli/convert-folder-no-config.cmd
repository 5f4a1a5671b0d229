convert
tests/data
-o
/dev/null
