"""Nova availability zones (``/os-availability-zone``)."""

from collections.abc import Iterator

from occli import base
from occli.v2.compute import base as compute


class AvailabilityZone(base.Resource):
    pass


class AvailabilityZoneManager(compute.ComputeManager):
    resource_class = AvailabilityZone

    def list(self, detailed: bool = False) -> base.ListWithMeta:
        """Every zone: a :class:`~occli.base.ListWithMeta` (with the
        ``request_ids`` of its request); ``detailed`` (admin) adds hosts and
        services. :meth:`iter` yields them lazily."""
        return self._list_all(*self._list_request(detailed))

    def iter(self, detailed: bool = False) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: the zones are asked for when the
        first one is wanted."""
        return self._list(*self._list_request(detailed))

    def _list_request(self, detailed: bool) -> tuple[str, str]:
        """``(url, response key)`` of a zone list."""
        url = "/os-availability-zone/detail" if detailed else "/os-availability-zone"
        return url, "availabilityZoneInfo"
