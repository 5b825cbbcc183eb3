"""Cinder administration (``client.volume_services``): the services
(``os-services``: list, enable, disable with a reason, freeze and thaw a
backend), the scheduler's pools (``scheduler-stats/get_pools``) and a
backend's capabilities (``capabilities/{host}``), all admin-only."""

from collections.abc import Sequence
from typing import Any

from occli import base
from occli.v2.block_storage import base as cinder


class VolumeService(base.Resource):
    """A Cinder service (``binary``, ``host``, ``zone``, ``status``, ``state``)."""


class VolumeServiceManager(cinder.CinderManager):
    """Cinder's services, pools and backend capabilities."""

    resource_class = VolumeService
    collection = "os-services"
    member = "service"
    noun = "volume service"

    def list(  # type: ignore[override]
        self, host: str | None = None, binary: str | None = None
    ) -> base.ListWithMeta:
        """The services, filtered by ``host`` and ``binary``; a list with
        ``request_ids``."""
        params = {k: v for k, v in (("host", host), ("binary", binary)) if v is not None}
        response = self._request("GET", self._url(self.collection), params=params)
        return base.ListWithMeta(
            [self._resource(item, response) for item in self._body(response)["services"]],
            base._request_ids(response),
        )

    def _put(self, action: str, body: dict[str, Any]) -> dict[str, Any]:
        return self._update(self._url(self.collection, action), body)

    def enable(self, host: str, binary: str) -> dict[str, Any]:
        return self._put("enable", {"host": host, "binary": binary})

    def disable(self, host: str, binary: str, reason: str | None = None) -> dict[str, Any]:
        """Disable the service, with ``disable-log-reason`` when a reason is given."""
        body = {"host": host, "binary": binary}
        if reason:
            return self._put("disable-log-reason", dict(body, disabled_reason=reason))
        return self._put("disable", body)

    def freeze_host(self, host: str) -> None:
        """Freeze the backend on ``host``: it takes no management operation."""
        self._request("PUT", self._url(self.collection, "freeze"), body={"host": host})

    def thaw_host(self, host: str) -> None:
        self._request("PUT", self._url(self.collection, "thaw"), body={"host": host})

    def pools(self, detailed: bool = False) -> Sequence[base.Resource]:
        """The scheduler's pools (``detailed``: with their capabilities)."""
        params = {"detail": "True"} if detailed else {}
        response = self._request("GET", self._url("scheduler-stats", "get_pools"), params=params)
        return [self._resource(item, response) for item in self._body(response)["pools"]]

    def capabilities(self, host: str) -> base.Resource:
        """What the backend on ``host`` reports it can do."""
        response = self._request("GET", self._url("capabilities", host))
        return self._resource(self._body(response), response)
