"""Volume transfer commands (Cinder): ``volume transfer request …``."""
