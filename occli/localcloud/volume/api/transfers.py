"""``/os-volume-transfer`` and ``/volume-transfers`` (Cinder routes both
at every version): list (summary and detail), create (``no_snapshots``
from 3.55), show, accept, delete (``cinder/api/v3/volume_transfer.py``,
``cinder/api/contrib/volume_transfer.py``, ``cinder/api/views/transfers.py``).
The auth key is in the create's answer only."""

from typing import Any

from occli.localcloud.app import Response
from occli.localcloud.volume import rows
from occli.localcloud.volume import schemas
from occli.localcloud.volume import transfers
from occli.localcloud.volume import volumes
from occli.localcloud.volume.api import common
from occli.localcloud.volume.api import views

# cinder/api/microversions.py
TRANSFER_WITH_SNAPSHOTS = "3.55"
TRANSFER_WITH_HISTORY = "3.57"
SUPPORT_TRANSFER_PAGINATION = "3.59"
COLLECTIONS = ("/os-volume-transfer", "/volume-transfers")

# cinder/api/schemas/volume_transfer.py
_NAME = {"oneOf": [{"type": "string", "format": "name_or_description"}, {"type": "null"}]}
CREATE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "transfer": {
            "type": "object",
            "properties": {"volume_id": {"type": "string", "format": "uuid"}, "name": _NAME},
            "required": ["volume_id"],
            "additionalProperties": False,
        }
    },
    "required": ["transfer"],
    "additionalProperties": False,
}
CREATE_355: dict[str, Any] = {
    **CREATE,
    "properties": {
        "transfer": {
            **CREATE["properties"]["transfer"],
            "properties": {
                **CREATE["properties"]["transfer"]["properties"],
                "no_snapshots": schemas.BOOLEAN,
            },
        }
    },
}
ACCEPT = {
    "type": "object",
    "properties": {
        "accept": {
            "type": "object",
            "properties": {"auth_key": {"type": ["string", "integer"]}},
            "required": ["auth_key"],
            "additionalProperties": False,
        }
    },
    "required": ["accept"],
    "additionalProperties": False,
}


def register(service):
    for base in COLLECTIONS:
        service.api("GET", base, list_transfers)
        service.api("GET", base + "/detail", list_transfers_detail)
        service.api("POST", base, create_transfer if base == COLLECTIONS[1] else create_old)
        service.api("GET", base + "/{transfer_id}", show_transfer)
        service.api("POST", base + "/{transfer_id}/accept", accept_transfer)
        service.api("DELETE", base + "/{transfer_id}", delete_transfer)


def _links(req, transfer_id):
    return views.links(req, "os-volume-transfer", transfer_id)


def summary(req, transfer):
    return {
        "id": transfer["id"],
        "volume_id": transfer["volume_id"],
        "name": transfer["display_name"],
        "links": _links(req, transfer["id"]),
    }


def detail(req, transfer, auth_key=None):
    """The detail view; a create's has the ``auth_key`` after ``volume_id``."""
    view = {
        "id": transfer["id"],
        "created_at": transfer["created_at"],
        "name": transfer["display_name"],
        "volume_id": transfer["volume_id"],
    }
    if auth_key is not None:
        view["auth_key"] = auth_key
    view["links"] = _links(req, transfer["id"])
    if req.microversion >= TRANSFER_WITH_SNAPSHOTS:
        view["no_snapshots"] = bool(transfer["no_snapshots"])
    if req.microversion >= TRANSFER_WITH_HISTORY:
        view["destination_project_id"] = transfer["destination_project_id"]
        view["source_project_id"] = transfer["source_project_id"]
        view["accepted"] = bool(transfer["accepted"])
    return view


def _list(req, render):
    params = common.query_params(req)
    paged = req.microversion >= SUPPORT_TRANSFER_PAGINATION
    if paged:
        order = transfers.sort_order(*common.sort(params))
    else:
        order = [("created_at", False), ("id", False)]
    filters = {
        k: v
        for k, v in params.items()
        if k not in ("all_tenants", "limit", "marker", "offset", "sort", "sort_key", "sort_dir")
    }
    if "name" in filters:
        filters["display_name"] = filters.pop("name")
    scope = None if req.context.is_admin and "all_tenants" in params else req.context.project_id
    found = transfers.listing(req.db, scope, filters, order)
    limit = common.limit(params)
    if paged:
        found = rows.page(found, found, params.get("marker"), None)
    page = found if limit is None else found[:limit]
    body: dict[str, Any] = {"transfers": [render(t) for t in page]}
    link = views.next_link(req, "os-volume-transfer", page, limit)
    if link:
        body["transfers_links"] = link
    return Response(200, body)


def list_transfers(req):
    return _list(req, lambda t: summary(req, t))


def list_transfers_detail(req):
    return _list(req, lambda t: detail(req, t))


def create_old(req):
    """The ``os-volume-transfer`` extension's create: no ``no_snapshots``."""
    return _create(req, schemas.validate(CREATE, req.json())["transfer"])


def create_transfer(req):
    schema = CREATE_355 if req.microversion >= TRANSFER_WITH_SNAPSHOTS else CREATE
    return _create(req, schemas.validate(schema, req.json())["transfer"])


def _create(req, body):
    volume = volumes.get(req.db, req.context, body["volume_id"], common.volumes_lazy(req))
    name = body.get("name")
    made = transfers.create(
        req.db,
        volume,
        name.strip() if isinstance(name, str) else name,
        schemas.truthy(body.get("no_snapshots", False)),
        common.snapshots_lazy(req),
    )
    return Response(202, {"transfer": detail(req, made, made["auth_key"])})


def show_transfer(req):
    found = transfers.get(req.db, req.context, req.params["transfer_id"])
    return Response(200, {"transfer": detail(req, found)})


def accept_transfer(req):
    """Cinder's accept converts a VolumeSizeExceedsAvailableQuota into its
    bare text (cinder/api/contrib/volume_transfer.py); other quota errors
    keep their class name."""
    body = schemas.validate(ACCEPT, req.json())["accept"]
    with common.bare_quota_errors("VolumeSizeExceedsAvailableQuota"):
        accepted = transfers.accept(
            req.db,
            req.context,
            req.params["transfer_id"],
            body["auth_key"],
            common.snapshots_lazy(req),
        )
    return Response(202, {"transfer": summary(req, accepted)})


def delete_transfer(req):
    transfers.delete(req.db, transfers.get(req.db, req.context, req.params["transfer_id"]))
    return Response(202, content_type=common.WEBOB_TYPE)
