"""Neutron's version documents: ``/network/`` (no token) and ``/v2.0``
(its core collections: ``neutron/api/v2/router.py``'s ``RESOURCES``, the
ones the v2.0 document lists, extensions' collections not among them, as
``tests/fixtures/network/realcloud/neutron-29-discovery.json`` records)."""

from occli.localcloud.app import Response
from occli.localcloud.network.api import common
from occli.localcloud.network.api import networks
from occli.localcloud.network.api import ports
from occli.localcloud.network.api import subnet_pools
from occli.localcloud.network.api import subnets

# the collections the v2.0 document lists, in Neutron's order
COLLECTIONS = (networks.NETWORKS, subnets.SUBNETS, subnet_pools.SUBNET_POOLS, ports.PORTS)


def register(service):
    service.route("GET", "/", versions, auth=False)
    service.route("GET", common.API, version)


def versions(req):
    href = req.base_url + req.cloud.network.prefix + common.API + "/"
    links = [{"rel": "self", "href": href}]
    return Response(200, {"versions": [{"id": "v2.0", "status": "CURRENT", "links": links}]})


def version(req):
    base = req.base_url + req.cloud.network.prefix + common.API + "/"
    return Response(
        200,
        {
            "resources": [
                {
                    "name": kind.member,
                    "collection": kind.collection,
                    "links": [{"rel": "self", "href": base + kind.collection}],
                }
                for kind in COLLECTIONS
            ]
        },
    )
