"""``/snapshots``: list (summary and detail, ``with_count`` 3.45), create
(an in-use volume's needs ``force`` before 3.66), show, update, delete, the admin's
``os-force_delete`` action and the metadata (``/snapshots/{id}/metadata``,
as the volumes' in :mod:`.metadata`; cinder/api/v3/snapshot_metadata.py)."""

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.volume import schemas
from occli.localcloud.volume import snapshots
from occli.localcloud.volume import volumes
from occli.localcloud.volume.api import common
from occli.localcloud.volume.api import microversions
from occli.localcloud.volume.api import views


def register(service):
    service.api("GET", "/snapshots", list_snapshots)
    service.api("GET", "/snapshots/detail", list_snapshots_detail)
    service.api("POST", "/snapshots", create_snapshot)
    service.api("GET", "/snapshots/{snapshot_id}", show_snapshot)
    service.api("PUT", "/snapshots/{snapshot_id}", update_snapshot)
    service.api("DELETE", "/snapshots/{snapshot_id}", delete_snapshot)
    service.api("POST", "/snapshots/{snapshot_id}/action", snapshot_action)
    service.api("GET", "/snapshots/{snapshot_id}/metadata", show_metadata)
    service.api("POST", "/snapshots/{snapshot_id}/metadata", create_metadata)
    service.api("PUT", "/snapshots/{snapshot_id}/metadata", replace_metadata)
    service.api("GET", "/snapshots/{snapshot_id}/metadata/{key}", show_metadata_item)
    service.api("PUT", "/snapshots/{snapshot_id}/metadata/{key}", update_metadata_item)
    service.api("DELETE", "/snapshots/{snapshot_id}/metadata/{key}", delete_metadata_item)


def _snapshot(req):
    return snapshots.get(
        req.db, req.context, req.params["snapshot_id"], common.snapshots_lazy(req)
    )


def _list(req, render, collection):
    params = common.query_params(req)
    # of its conversions only the metadata one applies to snapshot filters
    filters = common.filters(req, params, snapshots.FILTERS, counted=True)
    filters = volumes.parse_filters(filters)
    order = snapshots.sort_order(*common.sort(params))
    limit = common.limit(params)
    lazy, scope = common.snapshots_lazy(req), common.scope(req, params)
    found = snapshots.listing(req.db, lazy, scope, filters, order, params.get("marker"), limit)
    body: dict[str, object] = {"snapshots": [render(s) for s in found]}
    link = views.next_link(req, collection, found, limit)
    if link:
        body["snapshots_links"] = link
    if common.counts(req, params):
        # Cinder's count: every snapshot the filters match, whatever the page
        body["count"] = len(snapshots.listing(req.db, lazy, scope, filters, order, None, None))
    return Response(200, body)


def list_snapshots(req):
    return _list(req, lambda s: views.snapshot_summary(req, s), "snapshots")


def list_snapshots_detail(req):
    return _list(req, lambda s: views.snapshot(req, s), "snapshots/detail")


def create_snapshot(req):
    body = schemas.validate(schemas.SNAPSHOT_CREATE, req.json())["snapshot"]
    volume = volumes.get(req.db, req.context, body["volume_id"], common.volumes_lazy(req))
    force = body.get("force")
    force = force is not None and schemas.truthy(force)
    if (
        body.get("force") is not None
        and not force
        and req.microversion >= microversions.SNAPSHOT_IN_USE
    ):
        raise HTTPError(400, snapshots.SNAPSHOT_IN_USE_FLAG)
    name = body.get("name", body.get("display_name"))
    description = body.get("description", body.get("display_description"))
    snap = snapshots.create(
        req.db,
        req.context,
        volume,
        name.strip() if isinstance(name, str) else name,
        description.strip() if isinstance(description, str) else description,
        body.get("metadata"),
        force or req.microversion >= microversions.SNAPSHOT_IN_USE,
    )
    return Response(202, {"snapshot": views.snapshot(req, snap, extended=False)})


def show_snapshot(req):
    return Response(200, {"snapshot": views.snapshot(req, _snapshot(req))})


def update_snapshot(req):
    body = schemas.validate(schemas.SNAPSHOT_UPDATE, req.json())["snapshot"]
    snap = _snapshot(req)
    snapshots.update(req.db, snap, common.name_changes(body))
    return Response(200, {"snapshot": views.snapshot(req, snap, extended=False)})


def delete_snapshot(req):
    snapshots.delete(req.db, _snapshot(req))
    return Response(202, content_type=common.WEBOB_TYPE)


def snapshot_action(req):
    """``os-force_delete`` (Cinder's SnapshotAdminController): the
    snapshot whatever its status; admin only, after the lookup."""
    body = req.json()
    action = common.action_name(body)
    if action != "os-force_delete":
        raise common.no_such_action(action)
    snap = _snapshot(req)
    if not req.context.is_admin:
        raise common.policy_denied("volume_extension:snapshot_admin_actions:force_delete")
    snapshots.delete(req.db, snap, force=True)
    return Response(202)


# -- metadata ---------------------------------------------------------------------


def show_metadata(req):
    return Response(200, {"metadata": snapshots.metadata(_snapshot(req))})


def create_metadata(req):
    items = schemas.validate(schemas.METADATA, req.json())["metadata"]
    snap = _snapshot(req)
    return Response(200, {"metadata": snapshots.set_metadata(req.db, snap, items)})


def replace_metadata(req):
    items = schemas.validate(schemas.METADATA, req.json())["metadata"]
    snap = _snapshot(req)
    return Response(200, {"metadata": snapshots.set_metadata(req.db, snap, items, replace=True)})


def show_metadata_item(req):
    snap, key = _snapshot(req), req.params["key"]
    current = snapshots.metadata(snap)
    if key not in current:
        raise snapshots.metadata_not_found(snap["id"], key)
    return Response(200, {"meta": {key: current[key]}})


def update_metadata_item(req):
    item = schemas.validate(schemas.METADATA_ITEM, req.json())["meta"]
    key = req.params["key"]
    if key not in item:
        raise HTTPError(400, "Request body and URI mismatch")
    if len(item) > 1:
        raise HTTPError(400, "Request body contains too many items")
    snapshots.set_metadata(req.db, _snapshot(req), item)
    return Response(200, {"meta": item})


def delete_metadata_item(req):
    snapshots.delete_metadata(req.db, _snapshot(req), req.params["key"])
    return Response(200, content_type=common.WEBOB_TYPE)
