"""``/servers/{id}/os-interface``: nova's attach-interfaces API (list,
show, attach, detach) over the server's Neutron ports; the rules are in
:mod:`occli.localcloud.compute.networks`."""

from typing import Any

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.compute import networks
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import schemas
from occli.localcloud.compute.api.servers import load
from occli.localcloud.network import interface as neutron

_ATTACHMENT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "net_id": schemas.uuid_string,
        "port_id": schemas.uuid_string,
        "fixed_ips": {
            "type": "array",
            "minItems": 1,
            "maxItems": 1,
            "items": schemas.one_member("ip_address", {"type": "string", "format": "ipv4"}),
        },
    },
    "additionalProperties": False,
}


def _create_schema(version):
    attachment = {**_ATTACHMENT, "properties": dict(_ATTACHMENT["properties"])}
    if version >= "2.49":
        attachment["properties"]["tag"] = schemas.tag
    return {
        "type": "object",
        "properties": {"interfaceAttachment": attachment},
        "additionalProperties": False,
    }


def register(service):
    service.api("GET", "/servers/{server_id}/os-interface", list_interfaces)
    service.api("POST", "/servers/{server_id}/os-interface", attach)
    service.api("GET", "/servers/{server_id}/os-interface/{port_id}", show_interface)
    service.api("DELETE", "/servers/{server_id}/os-interface/{port_id}", detach)


def _view(req, db, server, port):
    body = {
        "net_id": port["network_id"],
        "port_id": port["id"],
        "mac_addr": port["mac_address"],
        "port_state": port["status"],
        "fixed_ips": neutron.fixed_ips(db, port["id"]),
    }
    if req.microversion >= "2.70":
        body["tag"] = networks.tag_of(server, port["id"])
    return body


def list_interfaces(req):
    server = load(req)
    return Response(
        200,
        {
            "interfaceAttachments": [
                _view(req, req.db, server, port) for port in networks.ports_of(req.db, server)
            ]
        },
    )


def show_interface(req):
    server = load(req)
    port = networks.interface(req.db, common.caller(req), server, req.params["port_id"])
    return Response(200, {"interfaceAttachment": _view(req, req.db, server, port)})


def attach(req):
    body = schemas.validate(_create_schema(req.microversion), req.json(required=False) or {})
    server = load(req)
    attachment = body.get("interfaceAttachment", {})
    net_id, port_id = attachment.get("net_id"), attachment.get("port_id")
    fixed_ip = (attachment.get("fixed_ips") or [{}])[0].get("ip_address")
    if net_id and port_id:
        raise HTTPError(400, "Must not input both network_id and port_id")
    if fixed_ip and not net_id:
        raise HTTPError(400, "Must input network_id when request IP address")
    new_port = networks.attach(
        req.db, common.caller(req), server, net_id, port_id, fixed_ip, attachment.get("tag")
    )
    return Response(
        200,
        {"interfaceAttachment": _view(req, req.db, server, neutron.ports_row(req.db, new_port))},
    )


def detach(req):
    server = load(req)
    networks.detach(req.db, common.caller(req), server, req.params["port_id"])
    return Response(202)
