"""Network availability zones (neutron's ``availability_zone``,
``network_availability_zone`` extensions): the local cloud's one zone,
``nova``, for networks and routers.

A real Neutron lists the zones its agents report (DHCP agents for
networks, L3 agents for routers); the realcloud rig runs none and lists
nothing. The local cloud stands for a DevStack Neutron with agents in
Nova's one zone, so it lists ``nova`` for both, ``available``
(``neutron/db/agents_db.py``: ``get_availability_zones``).
"""

from typing import Any

from occli.localcloud import errors
from occli.localcloud.common import Asker

ZONE = "nova"
RESOURCES = ("network", "router")
ATTRIBUTES = ("name", "resource", "state")


def not_found(name: str) -> errors.NotFound:
    """neutron_lib's ``AvailabilityZoneNotFound``."""
    return errors.NotFound(
        "AvailabilityZone %s could not be found." % name, type="AvailabilityZoneNotFound"
    )


def listing(db: object, context: Asker) -> list[dict[str, Any]]:
    """Every zone of every resource; each caller sees them all."""
    return [{"name": ZONE, "resource": kind, "state": "available"} for kind in RESOURCES]


def check_hints(hints: list[str]) -> list[str]:
    """``validate_availability_zones``: each hint a zone of networks."""
    for hint in hints:
        if hint != ZONE:
            raise not_found(hint)
    return hints
