"""Nova hypervisors (``os-hypervisors``, admin-only by default).

The routes follow the microversion as nova moved them: from 2.53 ids are
uuids, and searching by hostname and listing a hypervisor's servers are
query parameters of the list and show (``hypervisor_hostname_pattern``,
``with_servers``) instead of ``/os-hypervisors/{pattern}/search`` and
``/servers``; ``/os-hypervisors/{id}/uptime`` and ``/statistics`` exist
until 2.87, and from 2.88 the detail views carry ``uptime`` instead.
"""

import builtins
import uuid
from collections.abc import Iterator
from typing import Any
from typing import Literal
from typing import overload

from occli import api_versions
from occli import base
from occli import exceptions
from occli.v2.compute import base as compute

QUERY_VERSION = "2.53"
PAGING_VERSION = "2.33"
UPTIME_IN_VIEW_VERSION = "2.88"
LAST_STATISTICS_VERSION = "2.87"


class Hypervisor(base.Resource):
    pass


class HypervisorStatistics(base.Resource):
    """The sums over every hypervisor (``count``, ``vcpus``,
    ``memory_mb_used``, …) of ``GET /os-hypervisors/statistics``."""


class HypervisorManager(compute.ComputeManager):
    resource_class = Hypervisor

    def _version(self) -> api_versions.APIVersion:
        return api_versions.APIVersion(self.api_version)

    def list(
        self,
        detailed: bool = True,
        marker: str | None = None,
        limit: int | None = None,
        hostname_pattern: str | None = None,
        with_servers: bool = False,
    ) -> base.ListWithMeta:
        """Hypervisors: a list with ``request_ids``
        (:class:`occli.base.ListWithMeta`), as novaclient's (its positional
        order, and details unless ``detailed=False``); :meth:`iter` yields
        them lazily.

        ``hostname_pattern``: only those whose hostname contains it (paging
        does not apply; none is NotFound); ``with_servers``: each with its
        ``servers`` (``name``, ``uuid``). Before 2.53 both use nova's older
        routes, which have no details.
        """
        return self._hypervisors(True, detailed, marker, limit, hostname_pattern, with_servers)

    def iter(
        self,
        detailed: bool = True,
        marker: str | None = None,
        limit: int | None = None,
        hostname_pattern: str | None = None,
        with_servers: bool = False,
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily."""
        return self._hypervisors(False, detailed, marker, limit, hostname_pattern, with_servers)

    list_iter = iter

    def search(
        self, hypervisor_match: str, servers: bool = False, detailed: bool = False
    ) -> base.ListWithMeta:
        """novaclient's search: the hypervisors whose hostname contains
        ``hypervisor_match`` (``servers``: with their servers); a list.
        ``detailed`` is accepted for novaclient's sake (the 2.53+ answer
        has the details)."""
        return self.list(
            detailed=detailed, hostname_pattern=hypervisor_match, with_servers=servers
        )

    @overload
    def _hypervisors(
        self,
        at_once: Literal[True],
        detailed: bool,
        marker: str | None,
        limit: int | None,
        hostname_pattern: str | None,
        with_servers: bool,
    ) -> base.ListWithMeta: ...

    @overload
    def _hypervisors(
        self,
        at_once: Literal[False],
        detailed: bool,
        marker: str | None,
        limit: int | None,
        hostname_pattern: str | None,
        with_servers: bool,
    ) -> Iterator[base.Resource]: ...

    def _hypervisors(
        self,
        at_once: bool,
        detailed: bool,
        marker: str | None,
        limit: int | None,
        hostname_pattern: str | None,
        with_servers: bool,
    ) -> base.ListWithMeta | Iterator[base.Resource]:
        self.check_list(limit=limit, marker=marker, hostname_pattern=hostname_pattern)
        if self._version() < QUERY_VERSION and (hostname_pattern is not None or with_servers):
            found = self._old_search(hostname_pattern or "", with_servers)
            return found if at_once else iter(found)
        url = "/os-hypervisors/detail" if detailed else "/os-hypervisors"
        params: dict[str, Any] = {
            "marker": marker,
            "hypervisor_hostname_pattern": hostname_pattern,
        }
        if with_servers:
            params["with_servers"] = "true"
        read = self._list_all if at_once else self._list
        return read(url, "hypervisors", params=params, limit=limit)

    def check_list(
        self,
        limit: int | None = None,
        marker: str | None = None,
        hostname_pattern: str | None = None,
    ) -> None:
        """ValidationError for a pattern with paging (nova refuses it);
        UnsupportedVersion for a marker before 2.33."""
        if hostname_pattern is not None and (
            marker is not None or (limit is not None and limit >= 0)
        ):
            raise exceptions.ValidationError(
                "{hostname_pattern} cannot be combined with {limit} or {marker}.",
                params=("hostname_pattern", "limit", "marker"),
            )
        if marker is not None:
            self._require(self.api_version, PAGING_VERSION, what="{marker}", params=("marker",))

    def _old_search(self, pattern: str, with_servers: bool) -> base.ListWithMeta:
        """Before 2.53: ``/os-hypervisors/{pattern}/search`` or
        ``/servers`` (no details)."""
        route = "servers" if with_servers else "search"
        return self._list_all("/os-hypervisors/%s/%s" % (pattern, route), "hypervisors")

    def get(
        self, hypervisor: base.Resource | int | str, with_servers: bool = False
    ) -> base.Resource:
        """One hypervisor (by id: an integer before 2.53, a uuid from 2.53)
        with its details; ``with_servers`` adds its ``servers`` (before
        2.53 through the servers of its hostname)."""
        hypervisor_id = base.getid(hypervisor)
        if not with_servers:
            return self._get("/os-hypervisors/%s" % hypervisor_id, "hypervisor")
        if self._version() >= QUERY_VERSION:
            return self._get(
                "/os-hypervisors/%s" % hypervisor_id, "hypervisor", params={"with_servers": "true"}
            )
        found = self._get("/os-hypervisors/%s" % hypervisor_id, "hypervisor")
        info = found.to_dict()
        info["servers"] = self.servers(found.hypervisor_hostname)
        return self.resource_class(self, info, found.request_ids)

    def servers(self, hostname: str) -> builtins.list[dict[str, Any]]:
        """``[{"name", "uuid"}]`` of the servers on the hypervisor whose
        hostname is ``hostname`` (exactly)."""
        for found in self.list(detailed=False, hostname_pattern=hostname, with_servers=True):
            if found.hypervisor_hostname == hostname:
                return list(found.to_dict().get("servers") or ())
        raise exceptions.NotFound("No hypervisor named %s." % hostname, code=404)

    def uptime(self, hypervisor: base.Resource | int | str) -> str | None:
        """What the hypervisor's host says of its uptime (``uptime(1)``'s
        line), or None when the cloud cannot tell: 2.88 puts it in the
        hypervisor's view, earlier versions have a route for it (its 501,
        the answer of drivers without uptime, is None too)."""
        if self._version() >= UPTIME_IN_VIEW_VERSION:
            if not (isinstance(hypervisor, base.Resource) and "uptime" in hypervisor):
                hypervisor = self.get(hypervisor)
            return getattr(hypervisor, "uptime", None)
        try:
            found = self._get("/os-hypervisors/%s/uptime" % base.getid(hypervisor), "hypervisor")
        except exceptions.HTTPException as exc:
            if exc.code == 501:
                return None
            raise
        return getattr(found, "uptime", None)

    def statistics(self) -> HypervisorStatistics:
        """The sums over every enabled hypervisor (nova removed the route
        at 2.88: a pinned later version is UnsupportedVersion, otherwise
        the request is sent at 2.87)."""
        microversion = self.check_statistics()
        response = self._request("GET", "/os-hypervisors/statistics", microversion=microversion)
        return HypervisorStatistics(
            self,
            self._value(response, self._body(response), "hypervisor_statistics", dict, {}),
            base._request_ids(response),
        )

    def check_statistics(self) -> api_versions.APIVersion | None:
        """UnsupportedVersion if :meth:`statistics` cannot be asked; the
        microversion to send it with (None: the negotiated one)."""
        return self._capped_at(LAST_STATISTICS_VERSION, what="hypervisor statistics")

    def find_resource(self, name_or_id: base.Resource | int | str) -> base.Resource:
        """A hypervisor by id (integer, or uuid from 2.53) or exact
        hostname."""
        if isinstance(name_or_id, base.Resource):
            return name_or_id
        text = str(name_or_id)
        new_ids = self._version() >= QUERY_VERSION
        if (text.isdigit() and not new_ids) or (new_ids and _is_uuid(text)):
            try:
                return self.get(text)
            except exceptions.NotFound:
                pass
        try:
            matches = [
                h
                for h in self.list(detailed=False, hostname_pattern=text)
                if h.hypervisor_hostname == text
            ]
        except exceptions.NotFound:
            matches = []
        if not matches:
            raise exceptions.NotFound(
                "No hypervisor with a name or ID of '%s' exists." % text, code=404
            )
        if len(matches) > 1:
            raise self._ambiguous("hostname '%s'" % text, matches)
        return matches[0]


def _is_uuid(text: str) -> bool:
    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return True
