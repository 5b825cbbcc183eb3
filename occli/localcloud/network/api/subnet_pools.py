"""``/v2.0/subnetpools``: list, create, show, update, delete."""

from occli.localcloud.app import Response
from occli.localcloud.network import subnet_pools
from occli.localcloud.network.api import common

SUBNET_POOLS = common.Collection(
    "subnetpool",
    "subnetpools",
    subnet_pools.ATTRIBUTES,
    subnet_pools.SORT_KEYS,
    subnet_pools.not_found,
)


def register(service):
    service.route("GET", "/v2.0/subnetpools", list_subnetpools)
    service.route("POST", "/v2.0/subnetpools", create_subnetpool)
    service.route("GET", "/v2.0/subnetpools/{subnetpool_id}", show_subnetpool)
    service.route("PUT", "/v2.0/subnetpools/{subnetpool_id}", update_subnetpool)
    service.route("DELETE", "/v2.0/subnetpools/{subnetpool_id}", delete_subnetpool)


def list_subnetpools(req):
    return common.list_body(req, SUBNET_POOLS, subnet_pools.listing)


def create_subnetpool(req):
    return Response(201, {"subnetpool": subnet_pools.create(req.db, req.context, req.json())})


def show_subnetpool(req):
    found = subnet_pools.show(req.db, req.context, req.params["subnetpool_id"])
    return common.show_body(req, SUBNET_POOLS, found)


def update_subnetpool(req):
    updated = subnet_pools.update(req.db, req.context, req.params["subnetpool_id"], req.json())
    return Response(200, {"subnetpool": updated})


def delete_subnetpool(req):
    subnet_pools.delete(req.db, req.context, req.params["subnetpool_id"])
    return Response(204)
