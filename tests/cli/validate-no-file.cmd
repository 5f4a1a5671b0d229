validate
--strict
