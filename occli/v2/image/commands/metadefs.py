"""Glance metadata definitions: ``image metadef …``."""
