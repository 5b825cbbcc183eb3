"""``/backups`` (cinder/api/contrib/backups.py, cinder/api/v3/backups.py):
list (summary and detail: filters, sorting, paging, ``with_count`` 3.45),
create, show, update (3.9; ``metadata`` 3.43), delete, restore, the
admin's ``export_record``/``import_record`` and the ``os-reset_status``
and ``os-force_delete`` actions; Cinder's views
(cinder/api/views/backups.py, cinder/api/v3/views/backups.py).

The Swift backup driver's objects are written to (and deleted from) the
backup's project account in the local Swift through
:mod:`occli.localcloud.objectstore.interface`, outside the database lock
(the routes that touch objects open their own transactions): a cloud
without the object store has no backup service (503, as Cinder without
``cinder-backup``).
"""

import json

from occli.localcloud import errors
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.objectstore import interface as swift
from occli.localcloud.volume import backup_objects
from occli.localcloud.volume import backups
from occli.localcloud.volume import schemas
from occli.localcloud.volume import snapshots
from occli.localcloud.volume import volumes
from occli.localcloud.volume.api import common
from occli.localcloud.volume.api import microversions
from occli.localcloud.volume.api import views

NO_SERVICE = "Service cinder-backup could not be found."


def register(service):
    service.api("GET", "/backups", list_backups)
    service.api("GET", "/backups/detail", list_backups_detail)
    service.api("POST", "/backups", create_backup, mode=None)
    service.api("POST", "/backups/import_record", import_record, role=None)
    service.api("GET", "/backups/{backup_id}", show_backup)
    service.api(
        "PUT", "/backups/{backup_id}", update_backup, min_version=microversions.BACKUP_UPDATE
    )
    service.api("DELETE", "/backups/{backup_id}", delete_backup, mode=None)
    service.api("POST", "/backups/{backup_id}/restore", restore_backup)
    service.api("GET", "/backups/{backup_id}/export_record", export_record)
    service.api("POST", "/backups/{backup_id}/action", backup_action, mode=None)


def _lazy(req):
    return backups.lazy_backups(req.cloud.store, req.cloud.config)


def _swift(req):
    """The cloud's object store, where the driver keeps backups (503
    without one)."""
    store = req.cloud.objectstore
    if store is None:
        raise HTTPError(503, NO_SERVICE)
    return store


def _backup(req, db):
    return backups.get(db, req.context, req.params["backup_id"], _lazy(req))


# -- views ----------------------------------------------------------------------


def summary(req, backup):
    return {
        "id": backup["id"],
        "name": backup["name"],
        "links": views.links(req, "backups", backup["id"]),
    }


def detail(req, backup, dependent):
    """``dependent``: whether an incremental backup is based on it."""
    version, admin = req.microversion, req.context.is_admin
    view = {
        "id": backup["id"],
        "status": backup["status"],
        "size": backup["size"],
        "object_count": backup["object_count"],
        "availability_zone": backup["availability_zone"],
        "container": backup["container"],
        "created_at": backup["created_at"],
        "updated_at": backup["updated_at"],
        "name": backup["name"],
        "description": backup["description"],
        "fail_reason": backup["fail_reason"],
        "volume_id": backup["volume_id"],
        "links": views.links(req, "backups", backup["id"]),
        "is_incremental": backup["parent_id"] is not None,
        "has_dependent_backups": dependent,
        "snapshot_id": backup["snapshot_id"],
        "data_timestamp": backup["data_timestamp"],
    }
    if version >= microversions.BACKUP_METADATA:
        view["metadata"] = json.loads(backup["metadata"])
    if admin and version >= microversions.BACKUP_PROJECT:
        view["os-backup-project-attr:project_id"] = backup["project_id"]
    if admin and version >= microversions.BACKUP_PROJECT_USER_ID:
        view["user_id"] = backup["user_id"]
    return view


# -- list and show --------------------------------------------------------------


def _list(req, render, collection):
    params = common.query_params(req)
    filters = common.filters(req, params, backups.FILTERS, counted=True)
    if "display_name" in params and "name" not in filters:
        filters["name"] = params["display_name"]
    keys, dirs = common.sort(params)
    if "name" in keys and req.microversion < microversions.BACKUP_SORT_NAME:
        raise HTTPError(400, "Invalid input received: Invalid sort key")
    order = backups.sort_order(keys, dirs)
    limit = common.limit(params)
    found = backups.listing(
        req.db, _lazy(req), common.scope(req, params), filters, order, params.get("marker")
    )
    total = len(found)
    offset = params.get("offset")
    if offset is not None:
        try:
            start = int(offset)
        except ValueError:
            raise HTTPError(400, "offset param must be an integer") from None
        if start < 0:
            raise HTTPError(400, "offset param must be positive")
        found = found[start:]
    page = found if limit is None else found[:limit]
    body = {"backups": render(page)}
    link = views.next_link(req, collection, page, limit)
    if link:
        body["backups_links"] = link
    if common.counts(req, params):
        body["count"] = total
    return Response(200, body)


def list_backups(req):
    return _list(req, lambda page: [summary(req, b) for b in page], "backups")


def list_backups_detail(req):
    def render(page):
        based_on = backups.dependents(req.db, [b["id"] for b in page])
        return [detail(req, b, b["id"] in based_on) for b in page]

    return _list(req, render, "backups/detail")


def show_backup(req):
    backup = _backup(req, req.db)
    dependent = bool(backups.dependents(req.db, [backup["id"]]))
    return Response(200, {"backup": detail(req, backup, dependent)})


# -- create ---------------------------------------------------------------------


def _spec(req, body):
    spec = {key: body.get(key) for key in ("name", "description", "container")}
    for key in ("name", "description"):
        if isinstance(spec[key], str):
            spec[key] = spec[key].strip()
    spec["incremental"] = schemas.truthy(body.get("incremental", False))
    spec["force"] = schemas.truthy(body.get("force", False))
    if req.microversion >= microversions.BACKUP_METADATA:
        spec["metadata"] = body.get("metadata")
    if req.microversion >= microversions.BACKUP_AZ:
        spec["availability_zone"] = body.get("availability_zone")
    return spec


def create_backup(req):
    """Cinder's create, then the driver's work: the objects stored in the
    caller's account (in their own transaction), the backup ``error``
    with Swift's refusal if they cannot be."""
    if req.microversion >= microversions.BACKUP_AZ:
        schema = schemas.BACKUP_CREATE_351
    elif req.microversion >= microversions.BACKUP_METADATA:
        schema = schemas.BACKUP_CREATE_343
    else:
        schema = schemas.BACKUP_CREATE
    body = schemas.validate(schema, req.json())["backup"]
    swift_service = _swift(req)
    store, config = req.cloud.store, req.cloud.config
    with store.transaction() as db:
        volume = volumes.get(db, req.context, body["volume_id"], common.volumes_lazy(req))
        snapshot = None
        if body.get("snapshot_id"):
            snapshot = snapshots.get(
                db, req.context, body["snapshot_id"], common.snapshots_lazy(req)
            )
        backup, parent_size = backups.create(
            db, req.context, volume, snapshot, _spec(req, body), _lazy(req)
        )
    account = swift.account(backup["project_id"])
    try:
        swift.put_objects(
            store,
            swift_service.files,
            config,
            account,
            backup["container"],
            backup_objects.objects(backup, volume, parent_size),
        )
    except (errors.Error, OSError) as exc:
        with store.transaction() as db:
            backups.failed(
                db,
                backup,
                "Object PUT failed: %s/%s %s" % (account, backup["container"], exc),
                req.request_id,
            )
    return Response(202, {"backup": summary(req, backup)})


# -- update, delete, actions ----------------------------------------------------


def update_backup(req):
    schema = (
        schemas.BACKUP_UPDATE_343
        if req.microversion >= microversions.BACKUP_METADATA
        else schemas.BACKUP_UPDATE
    )
    body = schemas.validate(schema, req.json())["backup"] or {}
    backup = _backup(req, req.db)
    changes = common.name_changes(body)
    if "metadata" in body:
        changes["metadata"] = body["metadata"]
    backups.update(req.db, backup, changes)
    return Response(200, {"backup": summary(req, backup)})


def _delete(req, force):
    """Delete the backup's row, then its objects (files after the commit)."""
    with req.cloud.store.transaction() as db:
        backup = _backup(req, db)
        if force and not req.context.is_admin:
            raise common.policy_denied("volume_extension:backup_admin_actions:force_delete")
        backups.delete(db, backup, force=force)
        account = swift.account(backup["project_id"])
        names = swift.names(db, account, backup["container"], backup["service_metadata"] or "")
        gone = swift.delete_objects(db, account, backup["container"], names)
    if req.cloud.objectstore is not None:
        swift.remove_files(req.cloud.objectstore.files, gone)
    return Response(202)


def delete_backup(req):
    _swift(req)
    return _delete(req, force=False)


def backup_action(req):
    """The admin's ``os-reset_status`` and ``os-force_delete``
    (cinder/api/contrib/admin_actions.py BackupAdminController)."""
    body = req.json()
    action = common.action_name(body)
    if action == "os-force_delete":
        _swift(req)
        return _delete(req, force=True)
    if action != "os-reset_status":
        raise common.no_such_action(action)
    status = schemas.validate(schemas.BACKUP_RESET_STATUS, body)["os-reset_status"]["status"]
    with req.cloud.store.transaction() as db:
        backup = _backup(req, db)
        if not req.context.is_admin:
            raise common.policy_denied("volume_extension:backup_admin_actions:reset_status")
        backups.reset_status(db, backup, status)
    return Response(202)


def restore_backup(req):
    body = schemas.validate(schemas.BACKUP_RESTORE, req.json())["restore"] or {}
    backup = _backup(req, req.db)
    account = swift.account(backup["project_id"])
    intact = req.cloud.objectstore is not None and all(
        b["service_metadata"] + "_metadata"
        in swift.names(req.db, account, b["container"] or "", b["service_metadata"] or "")
        for b in backups.chain(req.db, backup)
        if b["service_metadata"]
    )
    # cinder/api/contrib/backups.py restore converts these two
    with common.bare_quota_errors("VolumeSizeExceedsAvailableQuota", "VolumeLimitExceeded"):
        restore = backups.restore(
            req.db,
            req.context,
            req.cloud.store,
            req.cloud.config,
            backup,
            body.get("volume_id"),
            body.get("name"),
            intact,
        )
    return Response(202, {"restore": restore})


# -- the record -----------------------------------------------------------------


def export_record(req):
    backup = _backup(req, req.db)
    if not req.context.is_admin:
        raise common.policy_denied("backup:export-import")
    return Response(200, {"backup-record": backups.export_record(backup)})


def import_record(req):
    if not req.context.is_admin:
        raise common.policy_denied("backup:backup-import")
    body = schemas.validate(schemas.BACKUP_IMPORT, req.json())["backup-record"]
    _swift(req)
    backup = backups.import_record(req.db, req.context, body["backup_service"], body["backup_url"])
    return Response(201, {"backup": summary(req, backup)})
