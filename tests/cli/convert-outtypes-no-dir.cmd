convert
--outtype
f16,q8_0
-o
/nonexistent-dir/
@SHARED@/golden/convert/TinyLlama-2-Test-2x32
