"""Glance's interoperable import: ``image stage`` and ``image import``."""
