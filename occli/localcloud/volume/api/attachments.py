"""``/attachments`` (3.27, cinder/api/v3/attachments.py): list, detail,
show, create (a reservation, or connected at once with a ``connector``;
``mode`` from 3.54), update with a connector, delete, and the
``os-complete`` action (3.44)."""

import copy
from typing import Any

from occli.localcloud.app import Response
from occli.localcloud.volume import attachments
from occli.localcloud.volume import rows
from occli.localcloud.volume import schemas
from occli.localcloud.volume import volumes
from occli.localcloud.volume.api import common
from occli.localcloud.volume.api import microversions

ATTACHMENT = "/attachments/{attachment_id}"


def register(service):
    since = microversions.NEW_ATTACH
    service.api("GET", "/attachments", list_attachments, min_version=since)
    service.api("GET", "/attachments/detail", list_attachments_detail, min_version=since)
    service.api("GET", ATTACHMENT, show_attachment, min_version=since)
    service.api("POST", "/attachments", create_attachment, min_version=since)
    service.api("PUT", ATTACHMENT, update_attachment, min_version=since)
    service.api("DELETE", ATTACHMENT, delete_attachment, min_version=since)
    service.api(
        "POST",
        ATTACHMENT + "/action",
        attachment_action,
        min_version=microversions.NEW_ATTACH_COMPLETION,
    )


def _list(req, detail):
    params = common.query_params(req)
    filters = common.filters(req, params, attachments.FILTERS)
    found = attachments.listing(
        req.db, req.context, "all_tenants" in params, filters, params.get("project_id")
    )
    page = rows.page(found, found, params.get("marker"), common.limit(params))
    return Response(200, {"attachments": [attachments.view(r, detail) for r in page]})


def list_attachments(req):
    return _list(req, False)


def list_attachments_detail(req):
    return _list(req, True)


def show_attachment(req):
    row = attachments.get(req.db, req.context, req.params["attachment_id"])
    return Response(200, {"attachment": attachments.view(row, True)})


def create_attachment(req):
    """``POST /attachments``: 200 with the attachment's detail."""
    with_mode = req.microversion >= microversions.ATTACHMENT_CREATE_MODE_ARG
    body = schemas.validate(CREATE_354 if with_mode else CREATE, req.json())["attachment"]
    volume = volumes.get(req.db, req.context, body["volume_uuid"], common.volumes_lazy(req))
    mode = body.get("mode", "null") if with_mode else "null"
    row = attachments.create(
        req.db, volume, body.get("instance_uuid"), body.get("connector"), mode
    )
    return Response(200, {"attachment": attachments.view(row, True)})


def update_attachment(req):
    """``PUT /attachments/{id}``: connect a reserved attachment."""
    connector = schemas.validate(UPDATE, req.json())["attachment"]["connector"]
    row = attachments.get(req.db, req.context, req.params["attachment_id"])
    row = attachments.update(req.db, row, connector)
    return Response(200, {"attachment": attachments.view(row, True)})


def delete_attachment(req):
    """``DELETE /attachments/{id}``: 200 with the volume's attachments left."""
    row = attachments.get(req.db, req.context, req.params["attachment_id"])
    left = attachments.delete(req.db, row)
    return Response(200, {"attachments": [attachments.view(r, False) for r in left]})


def attachment_action(req):
    """``POST /attachments/{id}/action``: only ``os-complete`` (204); any
    other is Cinder's wsgi 400, as for every action controller."""
    action = common.action_name(req.json())
    if action != "os-complete":
        raise common.no_such_action(action)
    row = attachments.get(req.db, req.context, req.params["attachment_id"])
    attachments.complete(req.db, row)
    return Response(204, headers={"Content-Type": common.SERIALIZED_EMPTY_204})


# cinder/api/schemas/attachments.py
_UUID = {"type": "string", "format": "uuid"}
CREATE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "attachment": {
            "type": "object",
            "properties": {
                "instance_uuid": _UUID,
                "connector": {"type": ["object", "null"]},
                "volume_uuid": _UUID,
            },
            "required": ["volume_uuid"],
            "additionalProperties": False,
        },
    },
    "required": ["attachment"],
    "additionalProperties": False,
}
CREATE_354 = copy.deepcopy(CREATE)
CREATE_354["properties"]["attachment"]["properties"]["mode"] = {
    "type": "string",
    "enum": ["rw", "ro"],
}
UPDATE = {
    "type": "object",
    "properties": {
        "attachment": {
            "type": "object",
            "properties": {"connector": {"type": "object", "minProperties": 1}},
            "required": ["connector"],
            "additionalProperties": False,
        },
    },
    "required": ["attachment"],
    "additionalProperties": False,
}
