"""The block-storage commands: ``volume …`` and ``volume snapshot …``."""
