convert
--pre
bogus
/nonexistent
