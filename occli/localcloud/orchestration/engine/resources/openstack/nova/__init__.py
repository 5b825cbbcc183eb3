"""Heat's Nova resource types, backed by the local compute service."""
