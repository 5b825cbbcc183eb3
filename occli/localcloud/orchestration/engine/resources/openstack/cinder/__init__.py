"""Heat's Cinder resource types, backed by the local block storage."""
