"""Network availability zones (neutron's ``availability_zone``,
``network_availability_zone``, ``router_availability_zone`` extensions): the
local cloud's one zone, ``nova``, for networks and routers.

A real Neutron lists the zones its agents report (DHCP agents for
networks, L3 agents for routers); the realcloud rig runs none and lists
nothing. The local cloud stands for a DevStack Neutron with agents in
Nova's one zone, so it lists ``nova`` for both, ``available``
(``neutron/db/agents_db.py``: ``get_availability_zones``).
"""

import json
from typing import Any

from occli.localcloud import errors
from occli.localcloud.common import Asker
from occli.localcloud.network import attributes as attrs

ZONE = "nova"
RESOURCES = ("network", "router")
ATTRIBUTES = ("name", "resource", "state")
# neutron_lib.db.constants.AZ_HINTS_DB_LEN: the hints' JSON text at most
HINTS_MAX_LEN = 255


def not_found(name: str) -> errors.NotFound:
    """neutron_lib's ``AvailabilityZoneNotFound``."""
    return errors.NotFound(
        "AvailabilityZone %s could not be found." % name, type="AvailabilityZoneNotFound"
    )


def listing(db: object, context: Asker) -> list[dict[str, Any]]:
    """Every zone of every resource; each caller sees them all."""
    return [{"name": ZONE, "resource": kind, "state": "available"} for kind in RESOURCES]


def hints(attr: str, value: object) -> list[str]:
    """``type:availability_zone_hint_list``: unique strings whose JSON
    fits neutron's column."""
    checked = attrs.list_of(attrs.string())(attr, value)
    duplicates = sorted({h for h in checked if checked.count(h) > 1})
    if duplicates:
        raise attrs.bad_request(
            "Invalid input for %s. Reason: Duplicate items in the list: '%s'."
            % (attr, ", ".join(duplicates))
        )
    if len(json.dumps(checked)) > HINTS_MAX_LEN:
        raise attrs.invalid_input("Too many availability_zone_hints specified")
    return checked


def check_hints(found: list[str]) -> list[str]:
    """``validate_availability_zones``: each hint a zone of the resource
    (``AvailabilityZoneNotFound``, 404)."""
    for hint in found:
        if hint != ZONE:
            raise not_found(hint)
    return found
