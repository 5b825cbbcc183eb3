"""Heat's Swift resource types, backed by the local object store."""
