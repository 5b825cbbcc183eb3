"""Neutron's availability zones (``client.network_availability_zones``,
``/v2.0/availability_zones``): ``name``, ``resource`` (``network`` or
``router``) and ``state`` (``available`` or ``unavailable``), one per
zone and resource; ``availability zone list`` shows them after Nova's."""

from occli import base
from occli.v2.network import base as neutron


class NetworkAvailabilityZone(base.Resource):
    """A zone of networks or routers: ``name``, ``resource``, ``state``."""


class NetworkAvailabilityZoneManager(neutron.NeutronManager):
    """List Neutron's availability zones (Neutron's ``availability_zone``
    extension; filters ``name``, ``resource``, ``state``)."""

    resource_class = NetworkAvailabilityZone
    collection = "availability_zones"
    member = "availability_zone"
