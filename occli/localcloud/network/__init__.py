"""Neutron v2.0 for the local cloud, mounted at ``/network`` (catalog
type ``network``): networks, subnets, ports, security groups and rules,
floating IPs, routers, quotas and the extensions list.

* :mod:`.api` — ``NetworkService`` and one module per resource: routes,
  neutron's errors;
* :mod:`.query` — filters, ``fields=``, sorting, pagination links;
* :mod:`.attributes` — request-body checks with neutron's texts;
* rules over a sqlite3 connection raising :mod:`occli.localcloud.errors`:
  :mod:`.networks`, :mod:`.subnets` (and IP allocation), :mod:`.ports`,
  :mod:`.security_groups`, :mod:`.floating_ips`, :mod:`.routers`, :mod:`.quotas`,
  :mod:`.seed`, and :mod:`.common` what they share (timestamps, ownership,
  neutron's policy error);
* :mod:`.migrations` — the tables (store components ``network.*``).

Compute uses the rules modules directly (``ports.insert``,
``ports.by_device``, …), as nova calls neutron.
"""

# Keystone's catalog: (type, name, path under the root URL)
CATALOG = (("network", "neutron", "/network"),)
__all__ = ["CATALOG", "SERVICE"]


def __getattr__(name: str) -> type:
    # SERVICE on first use: the rules modules import without the API
    if name != "SERVICE":
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
    from occli.localcloud.network.api.service import NetworkService

    return NetworkService
