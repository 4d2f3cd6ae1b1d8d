"""The signed, hash-chained game log: entries, the file format, validation, verify."""
