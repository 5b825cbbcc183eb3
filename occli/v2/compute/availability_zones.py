"""Nova availability zones (``/os-availability-zone``)."""

from collections.abc import Iterator

from occli import base
from occli.v2.compute import base as compute


class AvailabilityZone(base.Resource):
    pass


class AvailabilityZoneManager(compute.ComputeManager):
    resource_class = AvailabilityZone

    def list(self, detailed: bool = False) -> Iterator[base.Resource]:
        """Yield the zones; ``detailed`` (admin) adds hosts and services."""
        url = "/os-availability-zone/detail" if detailed else "/os-availability-zone"
        return self._list(url, "availabilityZoneInfo")
