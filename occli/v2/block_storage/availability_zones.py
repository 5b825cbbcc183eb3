"""Cinder's availability zones (``client.volume_availability_zones``,
``/os-availability-zone``): ``zoneName`` and ``zoneState``
(``{"available": …}``); ``availability zone list`` shows them after
Nova's and Neutron's."""

from collections.abc import Mapping
from typing import Any

from occli import base
from occli.v2.block_storage import base as cinder


class VolumeAvailabilityZone(base.Resource):
    """A zone of volumes: ``zoneName``, ``zoneState``."""


class VolumeAvailabilityZoneManager(cinder.CinderManager):
    """List Cinder's availability zones (one page, no filters)."""

    resource_class = VolumeAvailabilityZone
    collection = "os-availability-zone"
    noun = "availability zone"

    def available(self) -> bool:
        """Whether the catalog has a block-storage service."""
        return bool(self.client.service_root(self.service_type, "v3"))

    def _list_request(
        self,
        detailed: bool,
        all_projects: bool,
        marker: str | None,
        filters: Mapping[str, Any],
    ) -> tuple[str, str, dict[str, Any]]:
        """One page, detailed or not: Cinder's zones have no ``/detail``."""
        return self._url(self.collection), "availabilityZoneInfo", {}
