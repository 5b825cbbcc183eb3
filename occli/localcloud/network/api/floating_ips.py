"""``/v2.0/floatingips``: list, create, show, update (associate,
disassociate), delete; the servers of the ports concerned are told to
compute (:func:`.common.notify`)."""

from occli.localcloud.app import Response
from occli.localcloud.network import floating_ips
from occli.localcloud.network.api import common

FLOATING_IPS = common.Collection(
    "floatingip",
    "floatingips",
    floating_ips.ATTRIBUTES,
    floating_ips.SORT_KEYS,
    floating_ips.not_found,
)


def register(service):
    service.route("GET", "/v2.0/floatingips", list_floating_ips)
    service.route("POST", "/v2.0/floatingips", create_floating_ip)
    service.route("GET", "/v2.0/floatingips/{floatingip_id}", show_floating_ip)
    service.route("PUT", "/v2.0/floatingips/{floatingip_id}", update_floating_ip)
    service.route("DELETE", "/v2.0/floatingips/{floatingip_id}", delete_floating_ip)


def _devices(db, fip_id):
    """The servers of the port the floating IP ``fip_id`` is on."""
    found = floating_ips.row(db, fip_id)
    port_ids = [found["port_id"]] if found is not None and found["port_id"] else []
    return common.port_devices(db, port_ids)


def list_floating_ips(req):
    return common.list_body(req, FLOATING_IPS, floating_ips.listing)


def create_floating_ip(req):
    return common.create_body(
        req,
        FLOATING_IPS,
        floating_ips.create,
        after=lambda created: common.notify(req, _devices(req.db, created["id"])),
    )


def show_floating_ip(req):
    found = floating_ips.show(req.db, req.context, req.params["floatingip_id"])
    return common.show_body(req, FLOATING_IPS, found)


def update_floating_ip(req):
    fip_id = req.params["floatingip_id"]
    before = _devices(req.db, fip_id)
    updated = floating_ips.update(req.db, req.context, fip_id, req.json())
    common.notify(req, before | _devices(req.db, updated.get("id")))
    return Response(200, {"floatingip": common.tagged(req, FLOATING_IPS, updated)})


def delete_floating_ip(req):
    fip_id = req.params["floatingip_id"]
    before = _devices(req.db, fip_id)
    floating_ips.delete(req.db, req.context, fip_id)
    common.notify(req, before)
    return Response(204)
