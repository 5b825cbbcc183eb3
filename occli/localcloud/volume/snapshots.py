"""Snapshots: Cinder's snapshot API rules over ``volume_snapshots``
(create — ``force`` for an in-use volume before 3.66 —, lookups, listing,
update, delete) with Cinder's messages."""

import json
import sqlite3
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud import progress
from occli.localcloud.common import Asker
from occli.localcloud.volume import quotas
from occli.localcloud.volume import rows
from occli.localcloud.volume import types

FILTERS = ("name", "status", "volume_id", "metadata", "availability_zone", "consumes_quota")
SORT_KEYS = ("id", "name", "status", "size", "created_at", "updated_at", "volume_id")
SNAPSHOT_IN_USE_FLAG = (
    "Since microversion 3.66 the 'force' flag is invalid for this request.  For backward"
    " compatability, however, when the 'force' flag is passed with a value evaluating to"
    " True, it is silently ignored."
)


def lazy_snapshots(store, config):
    return progress.Progress(store, config, "volume_snapshots")


def not_found(snapshot_id):
    return errors.NotFound("Snapshot %s could not be found." % snapshot_id)


def get(
    db: sqlite3.Connection, caller: Asker, snapshot_id: str, progress: progress.Progress
) -> dict[str, Any]:
    row = db.execute("SELECT * FROM volume_snapshots WHERE id = ?", (str(snapshot_id),)).fetchone()
    if row is None or (row["project_id"] != caller.project_id and not caller.is_admin):
        raise not_found(snapshot_id)
    return progress.advance([dict(row)])[0]


def create(
    db: sqlite3.Connection,
    caller: Asker,
    volume: Mapping[str, Any],
    name: str | None,
    description: str | None,
    metadata: dict[str, str] | None,
    allow_in_use: bool,
) -> dict[str, Any]:
    """Cinder's ``create_snapshot_in_db``: the volume's state, then quota."""
    status = volume["status"]
    if status == "maintenance":
        raise rows.invalid(
            "The snapshot cannot be created when the volume is in maintenance mode."
        )
    if status == "error":
        raise rows.invalid("The snapshot cannot be created when the volume is in error status.")
    valid = ("available", "in-use") if allow_in_use else ("available",)
    if status not in valid:
        raise rows.invalid(
            "Volume %s status must be %s, but current status is: %s."
            % (volume["id"], ", ".join(valid), status)
        )
    type_name = types.names(db).get(volume["volume_type_id"], "")
    quotas.check_snapshot(db, caller.project_id, type_name, volume["size"])
    row = {
        "id": common.new_uuid(),
        "project_id": caller.project_id,
        "user_id": caller.user_id,
        "volume_id": volume["id"],
        "name": name,
        "description": description,
        "size": volume["size"],
        "status": "creating",
        "progress": "0%",
        "metadata": json.dumps(metadata or {}),
        "created_at": common.iso_naive_micro(common.utcnow()),
        "updated_at": None,
    }
    progress.start(row, {"status": "available", "progress": "100%"})
    rows.insert(db, "volume_snapshots", row)
    return row


def listing(
    db: sqlite3.Connection,
    progress: progress.Progress,
    project_id: str | None,
    filters: Mapping[str, Any],
    order: list[tuple[str, bool]],
    marker: str | None,
    limit: int | None,
) -> list[dict[str, Any]]:
    if project_id is None:
        stored = db.execute("SELECT * FROM volume_snapshots").fetchall()
    else:
        stored = db.execute(
            "SELECT * FROM volume_snapshots WHERE project_id = ?", (project_id,)
        ).fetchall()
    snapshots = progress.advance([dict(r) for r in stored])
    found = rows.sort([s for s in snapshots if _matches(s, filters)], order)
    return rows.page(found, snapshots, marker, limit)


def _matches(snapshot, filters):
    for key, value in filters.items():
        if key == "metadata":
            stored = json.loads(snapshot["metadata"])
            if any(stored.get(k) != str(v) for k, v in value.items()):
                return False
        elif key in ("name", "status", "volume_id"):
            if snapshot[key] != value:
                return False
        elif key == "availability_zone" and value != rows.ZONE:
            return False
    return True


def sort_order(sort_keys: Sequence[str], sort_dirs: Sequence[str]) -> list[tuple[str, bool]]:
    return rows.sort_order(sort_keys, sort_dirs, SORT_KEYS)


def update(db, snapshot, changes):
    snapshot.update(changes)
    rows.save(db, "volume_snapshots", snapshot, changes)
    return snapshot


def metadata(snapshot: Mapping[str, Any]) -> dict[str, str]:
    return json.loads(snapshot["metadata"])


def set_metadata(
    db: sqlite3.Connection, snapshot: dict[str, Any], items: Mapping[str, str], replace=False
) -> dict[str, str]:
    """Merge ``items`` into the snapshot's metadata (``replace``: instead
    of it); the whole metadata."""
    current = {} if replace else metadata(snapshot)
    current.update(items)
    update(db, snapshot, {"metadata": json.dumps(current)})
    return current


def delete_metadata(db: sqlite3.Connection, snapshot: dict[str, Any], key: str) -> None:
    current = metadata(snapshot)
    if key not in current:
        raise metadata_not_found(snapshot["id"], key)
    del current[key]
    update(db, snapshot, {"metadata": json.dumps(current)})


def metadata_not_found(snapshot_id, key):
    return errors.NotFound("Snapshot %s has no metadata with key %s." % (snapshot_id, key))


def delete(db: sqlite3.Connection, snapshot: Mapping[str, Any], force: bool = False) -> None:
    if (not force and snapshot["status"] not in ("available", "error")) or snapshot.get(
        "group_snapshot_id"
    ):
        raise errors.BadRequest(
            "Invalid snapshot: Snapshot status must be available or error and must not be part"
            " of a group."
        )
    db.execute("DELETE FROM volume_snapshots WHERE id = ?", (snapshot["id"],))
