"""Application credential and access rule commands (Keystone):
``application credential …``, ``access rule …``."""
