"""The image commands: ``image …``."""
