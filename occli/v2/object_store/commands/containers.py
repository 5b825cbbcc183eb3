"""Swift container commands: ``container …``."""
