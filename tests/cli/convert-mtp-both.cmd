convert
--mtp
--no-nextn
/nonexistent
