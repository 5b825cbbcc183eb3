"""Base of the Heat v1 managers (the catalog's ``orchestration`` service)."""

from occli import base


class HeatManager(base.Manager):
    """A manager of the orchestration API."""

    service_type = "orchestration"
