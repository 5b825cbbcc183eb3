"""``/v2.0/routers``: list, create, show, update, delete, and
``add_router_interface``/``remove_router_interface`` (by subnet or
port); the servers of the ports whose floating IPs change are told to
compute (:func:`.common.notify`)."""

from occli.localcloud.app import Response
from occli.localcloud.network import routers
from occli.localcloud.network.api import common

ROUTERS = common.Collection(
    "router", "routers", routers.ATTRIBUTES, routers.SORT_KEYS, routers.not_found
)


def register(service):
    router = "/v2.0/routers/{router_id}"
    service.route("GET", "/v2.0/routers", list_routers)
    service.route("POST", "/v2.0/routers", create_router)
    service.route("GET", router, show_router)
    service.route("PUT", router, update_router)
    service.route("DELETE", router, delete_router)
    service.route("PUT", router + "/add_router_interface", add_interface)
    service.route("PUT", router + "/remove_router_interface", remove_interface)


def list_routers(req):
    return common.list_body(req, ROUTERS, routers.listing)


def create_router(req):
    return common.create_body(req, ROUTERS, routers.create)


def show_router(req):
    found = routers.show(req.db, req.context, req.params["router_id"])
    return common.show_body(req, ROUTERS, found)


def update_router(req):
    updated = routers.update(req.db, req.context, req.params["router_id"], req.json())
    return Response(200, {"router": common.tagged(req, ROUTERS, updated)})


def delete_router(req):
    routers.delete(req.db, req.context, req.params["router_id"])
    return Response(204)


def add_interface(req):
    added = routers.add_interface(req.db, req.context, req.params["router_id"], req.json())
    return Response(200, added)


def remove_interface(req):
    removed = routers.remove_interface(req.db, req.context, req.params["router_id"], req.json())
    return Response(200, removed)
