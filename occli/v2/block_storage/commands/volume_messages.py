"""Volume message commands (Cinder): ``volume message …``."""
