"""Volume backup commands (Cinder): ``volume backup …``."""
