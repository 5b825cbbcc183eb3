"""Group snapshots (3.14, ``cinder/api/v3/group_snapshots.py`` and the
group snapshot half of ``cinder/group/api.py``): a snapshot of each volume
of a group, made at once by the local backend, and groups created from a
group snapshot or a source group (``create-from-src``), whose volumes are
made from the snapshots or the source volumes."""

import sqlite3
from collections.abc import Mapping
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud import progress
from occli.localcloud.common import Asker
from occli.localcloud.volume import groups
from occli.localcloud.volume import rows
from occli.localcloud.volume import snapshots
from occli.localcloud.volume import volumes

# etc/cinder/resource_filters.json "group_snapshot"
FILTERS = ("name", "status", "group_id")
SORT_KEYS = ("id", "name", "status", "group_id", "created_at", "updated_at")
_NAME = {"type": ["string", "null"], "minLength": 0, "maxLength": 255}
# cinder/api/schemas/group_snapshots.py
CREATE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "group_snapshot": {
            "type": "object",
            "properties": {
                "group_id": {"type": "string", "format": "uuid"},
                "name": _NAME,
                "description": _NAME,
            },
            "required": ["group_id"],
            "additionalProperties": False,
        }
    },
    "required": ["group_snapshot"],
    "additionalProperties": False,
}


def get(db: sqlite3.Connection, caller: Asker, snapshot_id: str) -> dict[str, Any]:
    """The group snapshot as ``caller`` sees it; 404 ``GroupSnapshotNotFound``."""
    row = db.execute(
        "SELECT * FROM volume_group_snapshots WHERE id = ?", (snapshot_id,)
    ).fetchone()
    if row is None or not (caller.is_admin or row["project_id"] == caller.project_id):
        raise errors.NotFound("GroupSnapshot %s could not be found." % snapshot_id)
    return dict(row)


def listing(
    db: sqlite3.Connection,
    project_id: str | None,
    filters: Mapping[str, Any],
    order: list[tuple[str, bool]],
    marker: str | None,
    limit: int | None,
) -> list[dict[str, Any]]:
    """The group snapshots of ``project_id`` (None: every project)."""
    sql, args = "SELECT * FROM volume_group_snapshots", []
    if project_id is not None:
        sql, args = sql + " WHERE project_id = ?", [project_id]
    every = [dict(r) for r in db.execute(sql, args)]
    found = [s for s in every if all(s.get(k) == v for k, v in filters.items())]
    return rows.page(rows.sort(found, order), every, marker, limit)


def sort_order(sort_keys: list[str], sort_dirs: list[str]) -> list[tuple[str, bool]]:
    return rows.sort_order(sort_keys, sort_dirs, SORT_KEYS)


def _members(db: sqlite3.Connection, snapshot_id: str) -> list[dict[str, Any]]:
    sql = "SELECT * FROM volume_snapshots WHERE group_snapshot_id = ? ORDER BY seq"
    return [dict(r) for r in db.execute(sql, (snapshot_id,))]


def create(
    db: sqlite3.Connection,
    caller: Asker,
    group: Mapping[str, Any],
    name: str | None,
    description: str | None,
    lazy: progress.Progress,
) -> dict[str, Any]:
    """Cinder's ``create_group_snapshot``: a snapshot of each of the group's
    volumes (the snapshot checks and quota of each), all available at once;
    400 for a group without volumes or being created or updated (the
    condition of ``group_snapshot_create``, cinder/db/api.py)."""
    members = groups.volume_ids(db, group["id"])
    if not members or group["status"] in ("creating", "updating"):
        raise groups.invalid_group(
            "Source group cannot be empty or in 'creating' or 'updating' state. No group"
            " snapshot will be created."
        )
    row = {
        "id": common.new_uuid(),
        "project_id": caller.project_id,
        "user_id": caller.user_id,
        "group_id": group["id"],
        "group_type_id": group["group_type_id"],
        "name": name,
        "description": description,
        "status": "available",
        "created_at": rows.now(),
        "updated_at": None,
    }
    rows.insert(db, "volume_group_snapshots", row)
    for volume_id in members:
        volume = volumes.get(db, caller, volume_id, lazy)
        snap = snapshots.create(db, caller, volume, name, description, None, allow_in_use=True)
        progress.start(snap, {"status": "available", "progress": "100%"}, duration=0)
        snap["group_snapshot_id"] = row["id"]
        rows.save(
            db, "volume_snapshots", snap, ("pending", "task_started_at", "group_snapshot_id")
        )
    return row


def delete(db: sqlite3.Connection, snapshot: Mapping[str, Any]) -> None:
    """Cinder's ``delete_group_snapshot``: available or error, and no group
    being created from it; its snapshots go with it."""
    if snapshot["status"] not in ("available", "error"):
        raise errors.BadRequest(
            "Invalid GroupSnapshot: GroupSnapshot status must be available or error, and no"
            " Group can be currently using it as source for its creation."
        )
    db.execute("DELETE FROM volume_snapshots WHERE group_snapshot_id = ?", (snapshot["id"],))
    db.execute("DELETE FROM volume_group_snapshots WHERE id = ?", (snapshot["id"],))


def reset_status(db: sqlite3.Connection, snapshot: dict[str, Any], status: str) -> None:
    snapshot["status"] = groups.check_status(status, snapshot=True)
    rows.save(db, "volume_group_snapshots", snapshot, ("status",))


def create_from_source(
    db: sqlite3.Connection,
    caller: Asker,
    store: Any,
    config: Any,
    name: str | None,
    description: str | None,
    snapshot_id: str | None,
    source_group_id: str | None,
) -> dict[str, Any]:
    """Cinder's ``create_from_src``: a group of the source's types with a
    volume made from each snapshot of the group snapshot, or from each
    volume of the source group; 400 ``InvalidGroup`` when it has none."""
    if snapshot_id is not None:
        snapshot = get(db, caller, snapshot_id)
        source = groups.get_group(db, caller, snapshot["group_id"])
        origins = [{"snapshot_id": s["id"], "volume": volumes.find(db, s["volume_id"])}
                   for s in _members(db, snapshot_id)]  # fmt: skip
        empty = "Group snapshot is empty. No group will be created."
    else:
        assert source_group_id is not None
        source = groups.get_group(db, caller, source_group_id)
        origins = [{"source_volid": v, "volume": volumes.find(db, v)}
                   for v in groups.volume_ids(db, source_group_id)]  # fmt: skip
        empty = "Source Group is empty. No group will be created."
    if not origins:
        raise groups.invalid_group(empty)
    group = groups.insert_group(
        db,
        caller,
        {
            "name": name,
            "description": description,
            "availability_zone": source["availability_zone"],
            "group_type_id": source["group_type_id"],
            "volume_type_ids": source["volume_type_ids"],
            "group_snapshot_id": snapshot_id,
            "source_group_id": source_group_id,
        },
    )
    for origin in origins:
        volume = origin.pop("volume") or {}
        spec = dict(origin, volume_type=volume.get("volume_type_id"), size=volume.get("size"))
        made = volumes.create(db, caller, store, config, spec)
        db.execute("UPDATE volumes SET group_id = ? WHERE id = ?", (group["id"], made["id"]))
    return group
