"""Nova (compute v2.1): servers and everything about them, flavors,
keypairs, host aggregates, hypervisors, quotas, usage and the other
compute resources; :mod:`occli.v2.compute.base` holds their base manager.

``occli.v2.compute`` was the base manager's module before the packages:
its names (``ComputeManager``) stay reachable here."""

from occli import v2

__getattr__ = v2.forward(__name__)
