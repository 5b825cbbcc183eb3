"""Base of the Glance v2 managers (the catalog's ``image`` service)."""

from occli import base


class GlanceManager(base.Manager):
    """A manager of the image API."""

    service_type = "image"
