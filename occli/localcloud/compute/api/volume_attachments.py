"""``/servers/{id}/os-volume_attachments``: list, show, attach, update
(2.85) or swap, detach — nova's ``VolumeAttachmentController``; the rules
are in :mod:`..volume_attach`."""

from typing import Any

from occli.localcloud.app import Response
from occli.localcloud.compute import values
from occli.localcloud.compute import volume_attach
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import schemas
from occli.localcloud.compute.api.servers import load

_DEVICE = {"type": ["string", "null"], "pattern": "(^/dev/x{0,1}[a-z]{0,1}d{0,1})([a-z]+)[0-9]*$"}


def _create_schema(version):
    props = {"volumeId": schemas.uuid_string, "device": _DEVICE}
    if version >= "2.49":
        props["tag"] = schemas.tag
    if version >= "2.79":
        props["delete_on_termination"] = schemas.boolean
    return _wrap(props)


def _update_schema(version):
    props: dict[str, Any] = {"volumeId": schemas.uuid_string}
    if version >= "2.85":
        props.update(
            device=_DEVICE,
            tag=schemas.tag,
            delete_on_termination=schemas.boolean,
            serverId=schemas.uuid_string,
            id=schemas.uuid_string,
        )
    return _wrap(props)


def _wrap(props):
    return schemas.one_member(
        "volumeAttachment",
        {
            "type": "object",
            "properties": props,
            "required": ["volumeId"],
            "additionalProperties": False,
        },
    )


def register(service):
    path = "/servers/{server_id}/os-volume_attachments"
    service.api("GET", path, list_attachments)
    service.api("POST", path, attach)
    service.api("GET", path + "/{volume_id}", show_attachment)
    service.api("PUT", path + "/{volume_id}", update_attachment)
    service.api("DELETE", path + "/{volume_id}", detach)


def _view(req, server, item):
    version = req.microversion
    view = {}
    if version < "2.89":
        view["id"] = item["id"]
    view["volumeId"] = item["id"]
    view["serverId"] = server["id"]
    if item.get("device"):
        view["device"] = item["device"]
    if version >= "2.70":
        view["tag"] = item.get("tag")
    if version >= "2.79":
        view["delete_on_termination"] = item["delete_on_termination"]
    if version >= "2.89":
        view["attachment_id"] = item.get("attachment_id")
        view["bdm_uuid"] = item.get("bdm_uuid")
    return view


def _non_negative(req, name):
    """nova's ``non_negative_integer`` query parameter (pattern ``^[0-9]*$``)."""
    raw = req.arg(name)
    if raw is None:
        return None
    if not raw.isdigit() or not raw.isascii():
        raise common.bad_request(
            "Invalid input for query parameters %s. Value: %s. '%s' does not match '^[0-9]*$'"
            % (name, raw, raw)
        )
    return common.parse_integer(raw, name)


def list_attachments(req):
    if req.microversion >= "2.75":
        unknown = sorted(set(req.query) - {"limit", "offset"})
        if unknown:
            raise common.bad_request(
                "Additional properties are not allowed (%s %s unexpected)"
                % (", ".join("'%s'" % u for u in unknown), "was" if len(unknown) == 1 else "were")
            )
    limit = _non_negative(req, "limit")
    offset = _non_negative(req, "offset") or 0
    server = load(req)
    found = volume_attach.items(server)
    limit = common.MAX_LIMIT if limit is None else min(limit, common.MAX_LIMIT)
    page = found[offset : offset + limit]
    return Response(200, {"volumeAttachments": [_view(req, server, item) for item in page]})


def show_attachment(req):
    server = load(req)
    item = volume_attach.find(server, req.params["volume_id"])
    if item is None:
        raise volume_attach.not_attached(server["id"], req.params["volume_id"])
    return Response(200, {"volumeAttachment": _view(req, server, item)})


def attach(req):
    body = schemas.validate(_create_schema(req.microversion), req.json())["volumeAttachment"]
    server = load(req)
    item = volume_attach.attach(
        req.db,
        common.caller(req),
        req.cloud.config,
        server,
        body["volumeId"],
        body.get("device"),
        tag=body.get("tag"),
        delete=values.truthy(body.get("delete_on_termination", False)),
    )
    view = {
        "id": item["id"],
        "serverId": server["id"],
        "volumeId": item["id"],
        "device": item["device"],
    }
    if req.microversion >= "2.70":
        view["tag"] = item.get("tag")
    if req.microversion >= "2.79":
        view["delete_on_termination"] = item["delete_on_termination"]
    return Response(200, {"volumeAttachment": view})


def update_attachment(req):
    body = schemas.validate(_update_schema(req.microversion), req.json())["volumeAttachment"]
    server = load(req)
    volume_id = req.params["volume_id"]
    caller = common.caller(req)
    only_swap = req.microversion < "2.85"
    if only_swap or body["volumeId"] != volume_id:
        caller.require_admin("os_compute_api:os-volumes-attachments:swap")
    if not only_swap:
        volume_attach.update(req.db, server, volume_id, body)
    if only_swap or body["volumeId"] != volume_id:
        volume_attach.swap(req.db, caller, req.cloud.config, server, volume_id, body["volumeId"])
    return Response(202)


def detach(req):
    server = load(req)
    volume_attach.detach(
        req.db,
        common.caller(req),
        req.cloud.config,
        server,
        req.params["volume_id"],
    )
    return Response(202)
