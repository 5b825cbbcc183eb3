"""Swift account commands: ``object store account …``."""
