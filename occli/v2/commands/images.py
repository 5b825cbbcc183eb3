"""images commands."""
