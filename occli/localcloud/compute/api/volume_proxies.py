"""Nova's deprecated proxies to Cinder, ``/os-volumes`` and
``/os-snapshots`` (list, detail, show, create, delete), served up to 2.35
and 404 from 2.36 as nova removed them. They call the volume service's
rules in nova's transaction; without a volume service they answer 404."""

from occli.localcloud import errors
from occli.localcloud import progress
from occli.localcloud.app import Response
from occli.localcloud.compute import volume_attach
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import schemas

MAX_PROXY_VERSION = "2.35"

_SIZE = {"type": ["integer", "string"], "pattern": "^[0-9]+$", "minimum": 1}
_TEXT = {"type": ["string", "null"], "maxLength": 255}
VOLUME_CREATE = schemas.one_member(
    "volume",
    {
        "type": "object",
        "properties": {
            "volume_type": {"type": "string"},
            "metadata": {"type": "object"},
            "snapshot_id": {"type": "string"},
            "size": _SIZE,
            "availability_zone": {"type": "string"},
            "display_name": _TEXT,
            "display_description": _TEXT,
        },
        "required": ["size"],
        "additionalProperties": False,
    },
)
SNAPSHOT_CREATE = schemas.one_member(
    "snapshot",
    {
        "type": "object",
        "properties": {
            "volume_id": {"type": "string"},
            "force": schemas.boolean,
            "display_name": _TEXT,
            "display_description": _TEXT,
        },
        "required": ["volume_id"],
        "additionalProperties": False,
    },
)


def register(service):
    high = MAX_PROXY_VERSION
    for path, lister, shower, creator, deleter in (
        ("/os-volumes", list_volumes, show_volume, create_volume, delete_volume),
        ("/os-snapshots", list_snapshots, show_snapshot, create_snapshot, delete_snapshot),
    ):
        service.api("GET", path, lister, max_version=high)
        service.api("GET", path + "/detail", lister, max_version=high)
        # writes check the member role in the handler: after the version
        # gate, as nova's router answers 404 before any policy
        service.api("POST", path, creator, max_version=high, role=None)
        service.api("GET", path + "/{item_id}", shower, max_version=high)
        service.api("DELETE", path + "/{item_id}", deleter, max_version=high, role=None)


def _require_member(req, rule):
    ctx = req.context
    if not (ctx.is_admin or "member" in ctx.roles):
        raise errors.Forbidden("Policy doesn't allow os_compute_api:%s to be performed." % rule)


def _rules(req):
    cinder = volume_attach.cinder(req.db)
    if cinder is None:
        raise common.not_found()
    return cinder


def _lazy(req, table="volumes"):
    return progress.Progress(req.cloud.store, req.cloud.config, table)


def _volume_views(req, found):
    """Nova's views of the volumes ``found`` (the type names read once)."""
    cinder = _rules(req)
    type_names = cinder.names(req.db)
    return [_volume_view(req.db, cinder, type_names, v) for v in found]


def _volume_view(db, cinder, type_names, volume):
    attachments = cinder.attachments(db, volume["id"])
    if volume["attach_status"] == "attached" and attachments:
        first = attachments[0]
        attached = {
            "id": volume["id"],
            "volumeId": volume["id"],
            "serverId": first["instance_uuid"],
        }
        if first["mountpoint"]:
            attached["device"] = first["mountpoint"]
        listed = [attached]
    else:
        listed = [{}]
    return {
        "id": volume["id"],
        "status": volume["status"],
        "size": volume["size"],
        "availabilityZone": volume["availability_zone"],
        "createdAt": volume["created_at"],
        "attachments": listed,
        "displayName": volume["name"],
        "displayDescription": volume["description"],
        "volumeType": type_names.get(volume["volume_type_id"]),
        "snapshotId": volume["snapshot_id"],
        "metadata": cinder.metadata(volume),
    }


def _snapshot_view(snap):
    return {
        "id": snap["id"],
        "volumeId": snap["volume_id"],
        "status": snap["status"],
        "size": snap["size"],
        "createdAt": snap["created_at"],
        "displayName": snap["name"],
        "displayDescription": snap["description"],
    }


def _page(req, items):
    limit = common.parse_limit(req)
    try:
        offset = int(req.arg("offset", 0))
    except ValueError:
        raise common.bad_request("offset param must be an integer") from None
    if offset < 0:
        raise common.bad_request("offset param must be positive")
    return items[offset : offset + limit]


def _quota_as_403(call, *args):
    """nova turns Cinder's over-quota answer into its 403."""
    try:
        return call(*args)
    except errors.TooLarge as exc:
        raise errors.Forbidden(exc.message) from None


# -- os-volumes -------------------------------------------------------------------


def list_volumes(req):
    cinder = _rules(req)
    found = cinder.volumes_listing(
        req.db,
        req.context,
        _lazy(req),
        req.context.project_id,
        {},
        cinder.volumes_sort_order([], []),
        None,
        None,
    )
    return Response(200, {"volumes": _volume_views(req, _page(req, found))})


def show_volume(req):
    cinder = _rules(req)
    volume = cinder.volumes_get(req.db, req.context, req.params["item_id"], _lazy(req))
    return Response(200, {"volume": _volume_views(req, [volume])[0]})


def create_volume(req):
    _require_member(req, "os-volumes:create")
    body = schemas.validate(VOLUME_CREATE, req.json())["volume"]
    cinder = _rules(req)
    size = body["size"]
    spec = {
        "size": int(size) if isinstance(size, str) else size,
        "name": body.get("display_name"),
        "description": body.get("display_description"),
        "volume_type": body.get("volume_type"),
        "metadata": body.get("metadata"),
        "snapshot_id": body.get("snapshot_id"),
        "availability_zone": body.get("availability_zone"),
    }
    volume = _quota_as_403(
        cinder.volumes_create, req.db, req.context, req.cloud.store, req.cloud.config, spec
    )
    return Response(
        200,
        {"volume": _volume_views(req, [volume])[0]},
        headers={"Location": common.api_url(req, "os-volumes", volume["id"])},
    )


def delete_volume(req):
    _require_member(req, "os-volumes:delete")
    cinder = _rules(req)
    volume = cinder.volumes_get(req.db, req.context, req.params["item_id"], _lazy(req))
    cinder.volumes_delete(req.db, volume)
    return Response(202)


# -- os-snapshots -----------------------------------------------------------------


def list_snapshots(req):
    cinder = _rules(req)
    found = cinder.snapshots_listing(
        req.db,
        _lazy(req, "volume_snapshots"),
        req.context.project_id,
        {},
        cinder.snapshots_sort_order([], []),
        None,
        None,
    )
    return Response(200, {"snapshots": [_snapshot_view(s) for s in _page(req, found)]})


def show_snapshot(req):
    cinder = _rules(req)
    snap = cinder.snapshots_get(
        req.db, req.context, req.params["item_id"], _lazy(req, "volume_snapshots")
    )
    return Response(200, {"snapshot": _snapshot_view(snap)})


def create_snapshot(req):
    from occli.localcloud.compute import values

    _require_member(req, "os-volumes:snapshots:create")
    body = schemas.validate(SNAPSHOT_CREATE, req.json())["snapshot"]
    cinder = _rules(req)
    volume = cinder.volumes_get(req.db, req.context, body["volume_id"], _lazy(req))
    snap = _quota_as_403(
        cinder.snapshots_create,
        req.db,
        req.context,
        volume,
        body.get("display_name"),
        body.get("display_description"),
        None,
        values.truthy(body.get("force", False)),
    )
    return Response(200, {"snapshot": _snapshot_view(snap)})


def delete_snapshot(req):
    _require_member(req, "os-volumes:snapshots:delete")
    cinder = _rules(req)
    snap = cinder.snapshots_get(
        req.db, req.context, req.params["item_id"], _lazy(req, "volume_snapshots")
    )
    cinder.snapshots_delete(req.db, snap)
    return Response(202)
