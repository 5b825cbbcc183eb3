"""Glance tasks: ``image task list`` and ``image task show``."""
