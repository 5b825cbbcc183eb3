"""Backups: Cinder's backup API rules (cinder/backup/api.py) over
``volume_backups`` — create (full or incremental, from an in-use volume
with ``force``, from a snapshot), restore to a new or an existing volume,
lookups, listing, update, reset status, delete, export and import of the
record — with Cinder's messages; the objects in the local Swift are
:mod:`.backup_objects`' layout, written through
:mod:`occli.localcloud.objectstore.interface` by the API.

States: ``creating`` → ``available`` (the volume ``backing-up`` meanwhile,
then back to its status), ``restoring`` → ``available`` (the volume
``restoring-backup`` → ``available``, ``error_restoring`` when the backup's
objects are gone), on the shared :mod:`occli.localcloud.progress`.
"""

import base64
import binascii
import json
import sqlite3
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud import progress
from occli.localcloud.common import Asker
from occli.localcloud.volume import backup_objects
from occli.localcloud.volume import messages
from occli.localcloud.volume import quotas
from occli.localcloud.volume import rows
from occli.localcloud.volume import volumes

CONTAINER = "volumebackups"  # backup_swift_container
DRIVER = "cinder.backup.drivers.swift.SwiftBackupDriver"
# the names a record's backup_service may give this driver (_is_our_backup)
DRIVER_NAMES = (DRIVER, "cinder.backup.drivers.swift")
IMPORT_VOLUME_ID = "00000000-0000-0000-0000-000000000000"
# cinder's resource_filters.json "backup"
FILTERS = ("name", "status", "volume_id")
SORT_KEYS = ("id", "name", "status", "size", "created_at", "updated_at", "volume_id",
             "container", "availability_zone", "object_count", "data_timestamp")  # fmt: skip
RESET_STATUSES = ("available", "error")
# what the manager needs of an imported record (BackupManager.import_record)
IMPORT_REQUIRED = ("display_name", "display_description", "container", "size",
                   "service_metadata", "object_count", "id")  # fmt: skip
# the record's fields (cinder/objects/backup.py Backup.fields) -> columns
_RECORD = {
    "display_name": "name",
    "display_description": "description",
    "container": "container",
    "size": "size",
    "service_metadata": "service_metadata",
    "object_count": "object_count",
    "parent_id": "parent_id",
    "snapshot_id": "snapshot_id",
    "volume_id": "volume_id",
    "data_timestamp": "data_timestamp",
    "availability_zone": "availability_zone",
}


def lazy_backups(store: Any, config: Any) -> progress.Progress:
    return progress.Progress(store, config, "volume_backups")


def not_found(backup_id: str) -> errors.NotFound:
    return errors.NotFound("Backup %s could not be found." % backup_id)


def invalid(reason: str) -> errors.BadRequest:
    """Cinder's ``InvalidBackup`` (400)."""
    return errors.BadRequest("Invalid backup: " + reason)


def get(
    db: sqlite3.Connection, caller: Asker, backup_id: str, progress: progress.Progress
) -> dict[str, Any]:
    """The backup ``caller`` may see, advanced to now (another project's
    is not found; admins see every one)."""
    row = db.execute("SELECT * FROM volume_backups WHERE id = ?", (str(backup_id),)).fetchone()
    if row is None or (row["project_id"] != caller.project_id and not caller.is_admin):
        raise not_found(backup_id)
    return progress.advance([dict(row)])[0]


def dependents(db: sqlite3.Connection, backup_ids: Sequence[str]) -> set[str]:
    """Those of ``backup_ids`` an incremental backup is based on."""
    return {
        r["parent_id"]
        for r in db.execute(
            "SELECT DISTINCT parent_id FROM volume_backups"
            " WHERE parent_id IN (SELECT value FROM json_each(?))",
            (json.dumps(list(backup_ids)),),
        )
    }


# -- create ---------------------------------------------------------------------


def _parent(db, caller, volume, snapshot, lazy):
    """The incremental backup's parent (Cinder: the caller's backup of the
    volume with the latest ``data_timestamp``, among the available ones
    older than the snapshot if any)."""
    found = lazy.advance(
        [
            dict(r)
            for r in db.execute(
                "SELECT * FROM volume_backups WHERE volume_id = ? AND project_id = ?",
                (volume["id"], caller.project_id),
            )
        ]
    )
    if not found:
        raise invalid("No backups available to do an incremental backup.")

    def key(b):
        usable = b["status"] == "available" and (
            snapshot is None or (b["data_timestamp"] or "") < snapshot["created_at"]
        )
        return (b["data_timestamp"] or "") if usable else ""

    latest = max(found, key=key)
    if latest["status"] != "available":
        raise invalid("No backups available to do an incremental backup.")
    return latest


def create(
    db: sqlite3.Connection,
    caller: Asker,
    volume: dict[str, Any],
    snapshot: dict[str, Any] | None,
    spec: Mapping[str, Any],
    lazy: progress.Progress,
) -> tuple[dict[str, Any], int | None]:
    """Cinder's ``backup.API.create``: ``spec`` holds ``name``,
    ``description``, ``container``, ``incremental``, ``force``,
    ``metadata``, ``availability_zone``. Returns the new row (``creating``)
    and its parent's size (None for a full backup); the volume (or the
    snapshot) is ``backing-up`` until the backup is done."""
    if snapshot is not None:
        if volume["id"] != snapshot["volume_id"]:
            raise rows.invalid(
                "Volume %s does not match with snapshot.volume_id %s."
                % (volume["id"], snapshot["volume_id"])
            )
        if snapshot["status"] != "available":
            raise errors.BadRequest(
                "Invalid snapshot: Snapshot to be backed up must be available, but the current"
                ' status is "%s".' % snapshot["status"]
            )
    elif volume["status"] not in ("available", "in-use"):
        raise rows.invalid(
            "Volume to be backed up must be available or in-use, but the current status is"
            ' "%s".' % volume["status"]
        )
    elif volume["status"] == "in-use" and not spec.get("force"):
        raise rows.invalid("Backing up an in-use volume must use the force flag.")
    quotas.check_backup(db, caller.project_id, volume["size"])
    parent = _parent(db, caller, volume, snapshot, lazy) if spec.get("incremental") else None
    now = rows.now()
    row = {
        "id": common.new_uuid(),
        "project_id": caller.project_id,
        "user_id": caller.user_id,
        "volume_id": volume["id"],
        "snapshot_id": snapshot["id"] if snapshot else None,
        "parent_id": parent["id"] if parent else None,
        "name": spec.get("name"),
        "description": spec.get("description"),
        "status": "creating",
        "fail_reason": None,
        "size": volume["size"],
        "object_count": 0,
        "availability_zone": spec.get("availability_zone") or rows.ZONE,
        "container": spec.get("container") or CONTAINER,
        "restore_volume_id": None,
        "metadata": json.dumps(spec.get("metadata") or {}),
        "data_timestamp": snapshot["created_at"] if snapshot else now,
        "created_at": now,
        "updated_at": None,
    }
    stamp = now[:19].replace("-", "").replace("T", "").replace(":", "")
    row["service_metadata"] = backup_objects.prefix(row, rows.ZONE, stamp)
    row["object_count"] = backup_objects.count(row, parent["size"] if parent else None)
    progress.start(row, {"status": "available"})
    rows.insert(db, "volume_backups", row)
    if snapshot is not None:
        snapshot["status"] = "backing-up"
        progress.start(snapshot, {"status": "available"})
        rows.save(db, "volume_snapshots", snapshot, ("status", "pending", "task_started_at"))
    else:
        previous = volume["status"]
        volume["status"] = "backing-up"
        progress.start(volume, {"status": previous})
        volumes.save(db, volume, ("status", "pending", "task_started_at"))
    return row, parent["size"] if parent else None


def failed(
    db: sqlite3.Connection, backup: dict[str, Any], reason: str, request_id: str | None = None
) -> None:
    """The driver failed (its objects could not be stored): the backup is
    ``error`` with ``reason``, its volume (or snapshot) back as it was, and
    the project has Cinder's user message about it (of ``request_id``)."""
    messages.create(
        db,
        backup["project_id"],
        "VOLUME_BACKUP",
        backup["id"],
        messages.BACKUP_CREATE,
        messages.BACKUP_CREATE_DRIVER_ERROR,
        request_id,
    )
    backup.update(status="error", fail_reason=reason, object_count=0, pending=None)
    backup["task_started_at"] = None
    rows.save(
        db,
        "volume_backups",
        backup,
        ("status", "fail_reason", "object_count", "pending", "task_started_at"),
    )
    table, ident = (
        ("volume_snapshots", backup["snapshot_id"])
        if backup["snapshot_id"]
        else ("volumes", backup["volume_id"])
    )
    row = db.execute("SELECT * FROM %s WHERE id = ?" % table, (ident,)).fetchone()
    if row is not None and row["pending"]:
        source = dict(row)
        source.update(json.loads(row["pending"])["end"], pending=None, task_started_at=None)
        rows.save(db, table, source, ("status", "pending", "task_started_at"))


# -- restore --------------------------------------------------------------------


def chain(db: sqlite3.Connection, backup: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The backup and the parents it is based on, newest first."""
    found = [dict(backup)]
    while found[-1]["parent_id"]:
        row = db.execute(
            "SELECT * FROM volume_backups WHERE id = ?", (found[-1]["parent_id"],)
        ).fetchone()
        if row is None:
            break
        found.append(dict(row))
    return found


def restore(
    db: sqlite3.Connection,
    caller: Asker,
    store: Any,
    config: Any,
    backup: dict[str, Any],
    volume_id: str | None,
    name: str | None,
    intact: bool,
) -> dict[str, Any]:
    """Cinder's ``backup.API.restore``: into volume ``volume_id`` or a new
    one of the backup's size; ``intact``: whether the backup's objects are
    all in Swift (the restore fails, ``error_restoring``, otherwise).
    Returns Cinder's restore answer."""
    if backup["status"] != "available":
        raise invalid("Backup status must be available")
    size = backup["size"]
    if volume_id is None:
        spec = {
            "size": size,
            "name": name if name is not None else "restore_backup_%s" % backup["id"],
            "description": "auto-created_from_restore_from_backup",
        }
        volume = volumes.create(db, caller, store, config, spec)
        volume.update(status="available", pending=None, task_started_at=None)
    else:
        volume = volumes.get(db, caller, volume_id, volumes.lazy_volumes(store, config))
    if volume["status"] != "available":
        raise rows.invalid("Volume to be restored to must be available")
    if size > volume["size"]:
        raise rows.invalid(
            "volume size %d is too small to restore backup of size %d." % (volume["size"], size)
        )
    backup.update(status="restoring", restore_volume_id=volume["id"])
    progress.start(backup, {"status": "available"})
    rows.save(
        db, "volume_backups", backup, ("status", "restore_volume_id", "pending", "task_started_at")
    )
    volume["status"] = "restoring-backup"
    progress.start(volume, {"status": "available" if intact else "error_restoring"})
    volumes.save(db, volume, ("status", "pending", "task_started_at"))
    return {"backup_id": backup["id"], "volume_id": volume["id"], "volume_name": volume["name"]}


# -- list, update, delete -------------------------------------------------------


def listing(
    db: sqlite3.Connection,
    progress: progress.Progress,
    project_id: str | None,
    filters: Mapping[str, Any],
    order: list[tuple[str, bool]],
    marker: str | None,
) -> list[dict[str, Any]]:
    """Every backup of ``project_id`` (None: of all) that matches
    ``filters``, in ``order``, after ``marker``."""
    if project_id is None:
        stored = db.execute("SELECT * FROM volume_backups").fetchall()
    else:
        stored = db.execute(
            "SELECT * FROM volume_backups WHERE project_id = ?", (project_id,)
        ).fetchall()
    every = progress.advance([dict(r) for r in stored])
    found = [b for b in every if all(b[k] == v for k, v in filters.items())]
    return rows.page(rows.sort(found, order), every, marker, None)


def sort_order(sort_keys: Sequence[str], sort_dirs: Sequence[str]) -> list[tuple[str, bool]]:
    return rows.sort_order(sort_keys, sort_dirs, SORT_KEYS)


def update(db: sqlite3.Connection, backup: dict[str, Any], changes: Mapping[str, Any]) -> None:
    """Set ``name``, ``description`` or ``metadata`` (a dict)."""
    values = dict(changes)
    if "metadata" in values:
        values["metadata"] = json.dumps(values["metadata"] or {})
    backup.update(values)
    rows.save(db, "volume_backups", backup, values)


def reset_status(db: sqlite3.Connection, backup: dict[str, Any], status: str) -> None:
    """The admin's ``os-reset_status`` (``available`` or ``error``)."""
    if status.lower() not in RESET_STATUSES:
        raise errors.BadRequest(
            "Invalid input for field/attribute status. Value: %s. '%s' is not a"
            " 'backup_status'" % (status, status)
        )
    backup.update(status=status.lower(), pending=None, task_started_at=None)
    rows.save(db, "volume_backups", backup, ("status", "pending", "task_started_at"))


def delete(db: sqlite3.Connection, backup: Mapping[str, Any], force: bool = False) -> None:
    """Cinder's ``backup.API.delete`` (``force``: the admin's
    ``os-force_delete``, any status); the caller deletes its objects."""
    if not force and backup["status"] not in ("available", "error"):
        raise invalid("Backup status must be available or error")
    if dependents(db, [backup["id"]]):
        raise invalid("Incremental backups exist for this backup.")
    db.execute("DELETE FROM volume_backups WHERE id = ?", (backup["id"],))


# -- export and import of the record --------------------------------------------


def export_record(backup: Mapping[str, Any]) -> dict[str, str]:
    """Cinder's ``export_record``: the driver and the record, base64 JSON
    of the backup's fields (``Backup.encode_record``)."""
    if backup["status"] != "available":
        raise invalid("Backup status must be available and not %s." % backup["status"])
    record = {field: backup[column] for field, column in _RECORD.items()}
    record.update(
        id=backup["id"],
        user_id=backup["user_id"],
        project_id=backup["project_id"],
        status=backup["status"],
        fail_reason=backup["fail_reason"],
        service=DRIVER,
        host="localcloud",
        metadata=json.loads(backup["metadata"]),
        created_at=backup["created_at"],
        updated_at=backup["updated_at"],
        deleted=False,
        deleted_at=None,
        driver_info={},
    )
    text = base64.b64encode(json.dumps(record).encode()).decode()
    return {"backup_service": DRIVER, "backup_url": text}


def _decode(url):
    try:
        record = json.loads(base64.b64decode(url.encode(), validate=True))
    except (binascii.Error, ValueError):
        raise errors.BadRequest("Invalid input received: Can't parse backup record.") from None
    if not isinstance(record, dict):
        raise errors.BadRequest("Invalid input received: Can't parse backup record.")
    return record


def import_record(db: sqlite3.Connection, caller: Asker, service: str, url: str) -> dict[str, Any]:
    """Cinder's ``import_record``: a new backup with the record's id,
    ``creating``, then ``available`` with the record's fields (``error``
    when the record names another driver or lacks what the driver needs,
    as the backup manager finds)."""
    record = _decode(url)
    if "id" not in record:
        raise errors.BadRequest("Invalid input received: Provided backup record is missing an id")
    if "size" not in record:
        raise errors.BadRequest(
            "Invalid input received: Provided backup record is missing size attribute"
        )
    if db.execute("SELECT 1 FROM volume_backups WHERE id = ?", (str(record["id"]),)).fetchone():
        raise invalid("Backup already exists in database.")
    size = record["size"]
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise errors.BadRequest("Invalid input received: Can't parse backup record.")
    quotas.check_backup(db, caller.project_id, size)
    row = {
        "id": str(record["id"]),
        "project_id": caller.project_id,
        "user_id": caller.user_id,
        "volume_id": IMPORT_VOLUME_ID,
        "name": None,
        "description": None,
        "status": "creating",
        "size": size,
        "metadata": "{}",
        "created_at": rows.now(),
        "updated_at": None,
    }
    missing = sorted(k for k in IMPORT_REQUIRED if k not in record)
    if service not in DRIVER_NAMES:
        end = {
            "status": "error",
            "fail_reason": "Import record failed, cannot find backup service to perform the"
            " import. Request service %s." % service,
        }
    elif missing:
        end = {
            "status": "error",
            "fail_reason": "Driver successfully decoded imported backup data, but there are"
            " missing fields (%s)." % ", ".join(missing),
        }
    else:
        end = {column: record[field] for field, column in _RECORD.items() if field in record}
        if any(not isinstance(v, (str, int, type(None))) for v in end.values()):
            raise errors.BadRequest("Invalid input received: Can't parse backup record.")
        end.update(status="available", availability_zone=rows.ZONE)
        end["metadata"] = json.dumps(record.get("metadata") or {})
    progress.start(row, end)
    rows.insert(db, "volume_backups", row)
    return row
