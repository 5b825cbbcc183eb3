"""compute services commands."""
