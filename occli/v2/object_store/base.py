"""Base of the Swift v1 managers (the catalog's ``object-store`` service)."""

from occli import base


class SwiftManager(base.Manager):
    """A manager of the object-store API."""

    service_type = "object-store"
