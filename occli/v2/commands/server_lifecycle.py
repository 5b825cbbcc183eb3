"""Shelve, rescue and admin state commands: ``server shelve/unshelve/rescue/unrescue``, ``server dump create``."""
