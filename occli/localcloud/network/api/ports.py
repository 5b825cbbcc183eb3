"""``/v2.0/ports``: list, create, show, update, delete; a change of a
``compute:`` port is told to compute (:func:`.common.notify`)."""

from occli.localcloud.app import Response
from occli.localcloud.network import ports
from occli.localcloud.network.api import common

PORTS = common.Collection("port", "ports", ports.ATTRIBUTES, ports.SORT_KEYS, ports.not_found)


def register(service):
    service.route("GET", "/v2.0/ports", list_ports)
    service.route("POST", "/v2.0/ports", create_port)
    service.route("GET", "/v2.0/ports/{port_id}", show_port)
    service.route("PUT", "/v2.0/ports/{port_id}", update_port)
    service.route("DELETE", "/v2.0/ports/{port_id}", delete_port)


def list_ports(req):
    return common.list_body(req, PORTS, ports.listing)


def create_port(req):
    return common.create_body(
        req,
        PORTS,
        ports.create,
        after=lambda created: common.notify(req, common.port_devices(req.db, [created["id"]])),
    )


def show_port(req):
    return common.show_body(req, PORTS, ports.show(req.db, req.context, req.params["port_id"]))


def update_port(req):
    port_id = req.params["port_id"]
    before = common.port_devices(req.db, [port_id])
    updated = ports.update(req.db, req.context, port_id, req.json())
    common.notify(req, before | common.port_devices(req.db, [updated.get("id")]))
    return Response(200, {"port": common.tagged(req, PORTS, updated)})


def delete_port(req):
    port_id = req.params["port_id"]
    before = common.port_devices(req.db, [port_id])
    ports.delete(req.db, req.context, port_id)
    common.notify(req, before)
    return Response(204)
