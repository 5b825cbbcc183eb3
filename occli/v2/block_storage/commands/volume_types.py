"""Volume type commands (Cinder): ``volume type …``."""
