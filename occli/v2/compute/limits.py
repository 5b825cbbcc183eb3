"""Nova limits (``GET /limits``): the project's quotas as absolute limits
with their usage (``absolute``), and rate limits (``rate``, always empty
since nova dropped them)."""

from occli import base
from occli.v2.compute import base as compute

#: the last microversion whose ``/limits`` takes the ``reserved`` parameter
#: (nova ignores it; from 2.75 an unknown parameter is a 400)
RESERVED_MAX_VERSION = "2.74"


class Limits(base.Resource):
    """``absolute`` (``{name: value}``) and ``rate`` (a list of
    ``{"uri", "regex", "limit": [{"verb", "value", "remaining", "unit",
    "next-available"}]}``)."""


class LimitsManager(compute.ComputeManager):
    resource_class = Limits

    def check_get(self, reserved: bool = False) -> None:
        """UnsupportedVersion if ``reserved`` is asked for where nova
        refuses it (2.75 and later)."""
        if reserved:
            self._require(
                self.api_version,
                "2.1",
                RESERVED_MAX_VERSION,
                what="counting reserved usage ({reserved})",
                params=("reserved",),
            )

    def get(self, project_id: str | None = None, reserved: bool = False) -> base.Resource:
        """The project's limits and usage; ``project_id`` (another
        project's, sent as ``tenant_id``) needs an admin."""
        self.check_get(reserved)
        params = {"tenant_id": project_id, "reserved": 1 if reserved else None}
        return self._get("/limits", "limits", params={k: v for k, v in params.items() if v})
