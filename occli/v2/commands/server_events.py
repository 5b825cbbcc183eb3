"""Instance action commands: ``server event list/show``."""
