"""Swift's HTTP edge: :mod:`.service` holds ``ObjectStoreService``."""
