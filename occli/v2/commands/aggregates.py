"""aggregates commands."""
