"""Group commands (Keystone): ``group …``."""
