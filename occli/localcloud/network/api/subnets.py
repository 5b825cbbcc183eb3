"""``/v2.0/subnets``: list, create, show, update, delete."""

from occli.localcloud.app import Response
from occli.localcloud.network import subnets
from occli.localcloud.network.api import common

SUBNETS = common.Collection(
    "subnet", "subnets", subnets.ATTRIBUTES, subnets.SORT_KEYS, subnets.not_found
)


def register(service):
    service.route("GET", "/v2.0/subnets", list_subnets)
    service.route("POST", "/v2.0/subnets", create_subnet)
    service.route("GET", "/v2.0/subnets/{subnet_id}", show_subnet)
    service.route("PUT", "/v2.0/subnets/{subnet_id}", update_subnet)
    service.route("DELETE", "/v2.0/subnets/{subnet_id}", delete_subnet)


def list_subnets(req):
    return common.list_body(req, SUBNETS, subnets.listing)


def create_subnet(req):
    return common.create_body(req, SUBNETS, subnets.create)


def show_subnet(req):
    found = subnets.show(req.db, req.context, req.params["subnet_id"])
    return common.show_body(req, SUBNETS, found)


def update_subnet(req):
    updated = subnets.update(req.db, req.context, req.params["subnet_id"], req.json())
    return Response(200, {"subnet": common.tagged(req, SUBNETS, updated)})


def delete_subnet(req):
    subnets.delete(req.db, req.context, req.params["subnet_id"])
    return Response(204)
