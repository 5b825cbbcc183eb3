"""Console commands: ``console url show``, ``console log show``."""
