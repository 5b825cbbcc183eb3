"""Neutron's version documents: ``/network/`` (no token) and ``/v2.0``
(its collections)."""

from occli.localcloud.app import Response
from occli.localcloud.network.api import common
from occli.localcloud.network.api import floating_ips
from occli.localcloud.network.api import networks
from occli.localcloud.network.api import ports
from occli.localcloud.network.api import routers
from occli.localcloud.network.api import security_groups
from occli.localcloud.network.api import subnets

# the collections the v2.0 document lists, in route order
COLLECTIONS = (
    networks.NETWORKS,
    subnets.SUBNETS,
    ports.PORTS,
    security_groups.GROUPS,
    security_groups.RULES,
    floating_ips.FLOATING_IPS,
    routers.ROUTERS,
)


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
