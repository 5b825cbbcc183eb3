"""A server's volumes: ``server add/remove volume``, ``server volume list/update``."""
