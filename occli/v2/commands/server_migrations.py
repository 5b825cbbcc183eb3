"""Migration commands (admin): ``server migrate``, ``server evacuate``, ``server migration list/show/abort/force complete``."""
