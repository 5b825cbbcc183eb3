"""Block storage commands: ``volume …`` and ``volume snapshot …``."""
