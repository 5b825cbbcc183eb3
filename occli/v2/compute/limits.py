"""Nova limits (``GET /limits``): the project's quotas as absolute limits
with their usage (``absolute``), and rate limits (``rate``, always empty
since nova dropped them)."""

from occli import base
from occli.v2.compute import base as compute

#: the last microversion whose ``/limits`` takes the ``reserved`` parameter
#: (nova ignores it; from 2.75 an unknown parameter is a 400)
RESERVED_MAX_VERSION = "2.74"
#: the microversion openstacksdk reads ``/limits`` at, so the rows OSC's
#: ``limits show`` prints: its compute/v2/limits.py ``Limits`` has no
#: ``_max_microversion`` and sends none (nova's 2.1, with the image meta,
#: personality and nova-network limits later versions drop)
OSC_VERSION = "2.1"


class Limits(base.Resource):
    """``absolute`` (``{name: value}``) and ``rate`` (a list of
    ``{"uri", "regex", "limit": [{"verb", "value", "remaining", "unit",
    "next-available"}]}``)."""


class LimitsManager(compute.ComputeManager):
    resource_class = Limits

    def osc_version(self) -> str | None:
        """The microversion ``limits show`` reads at: :data:`OSC_VERSION`,
        or None (the one in use) when the user pinned one."""
        return None if self.client.pinned_compute_version() else OSC_VERSION

    def check_get(self, reserved: bool = False, microversion: str | None = None) -> None:
        """UnsupportedVersion if ``reserved`` is asked for where nova
        refuses it (2.75 and later) at ``microversion`` (None: the one in
        use)."""
        if reserved:
            self._require(
                microversion or self.api_version,
                "2.1",
                RESERVED_MAX_VERSION,
                what="counting reserved usage ({reserved})",
                params=("reserved",),
            )

    def get(
        self,
        project_id: str | None = None,
        reserved: bool = False,
        microversion: str | None = None,
    ) -> base.Resource:
        """The project's limits and usage, at ``microversion`` (None: the
        one in use); ``project_id`` (another project's, sent as
        ``tenant_id``) needs an admin."""
        self.check_get(reserved, microversion)
        params = {"tenant_id": project_id, "reserved": 1 if reserved else None}
        response = self._request(
            "GET",
            "/limits",
            params={k: v for k, v in params.items() if v},
            microversion=microversion,
        )
        return self._resource(self._member(response, self._body(response), "limits"), response)
