"""software configs commands."""
