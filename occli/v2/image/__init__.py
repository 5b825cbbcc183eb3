"""Glance (image v2): images; :mod:`occli.v2.image.base` holds their base
manager."""
