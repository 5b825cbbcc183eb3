"""Network service commands: ``network list/show``, ``subnet list``, ``port list/show``."""
