"""software deployments commands."""
