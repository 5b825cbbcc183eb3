"""Legacy compute API extension commands: ``extension list``, ``extension show``."""
