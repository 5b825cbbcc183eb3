"""keypairs commands."""
