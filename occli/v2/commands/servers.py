"""servers commands."""
