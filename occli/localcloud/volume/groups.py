"""Cinder's group types and their group specs (3.11, ``cinder/api/v3/
group_types.py``, ``group_specs.py`` and ``cinder/volume/group_types.py``):
admins create, update and delete them; anyone lists the public ones and
shows any; only admins see their specs. A type is deleted while no group
uses it.

Generic volume groups (3.13, ``cinder/api/v3/groups.py`` and
``cinder/group/api.py``): a project's group of volume types, its volumes
added and removed by an update, deleted with its volumes on
``delete-volumes``; the admin's reset of its status (3.20); replication
(3.38) as Cinder answers for a backend without it."""

import json
import re
import sqlite3
from collections.abc import Mapping
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud import progress
from occli.localcloud.volume import quotas
from occli.localcloud.volume import rows
from occli.localcloud.volume import schemas
from occli.localcloud.volume import types

_SPECS = {
    "type": ["object", "null"],
    "patternProperties": {
        "^[a-zA-Z0-9-_:.]{1,255}$": {"type": ["string", "null"], "maxLength": 255}
    },
    "additionalProperties": False,
}
_DESCRIPTION = {"type": ["string", "null"], "minLength": 0, "maxLength": 255}
# cinder/api/schemas/group_types.py and group_specs.py
TYPE_CREATE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "group_type": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 255},
                "description": _DESCRIPTION,
                "is_public": schemas.BOOLEAN,
                "group_specs": _SPECS,
            },
            "required": ["name"],
            "additionalProperties": False,
        }
    },
    "required": ["group_type"],
    "additionalProperties": False,
}
TYPE_UPDATE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "group_type": {
            "type": "object",
            "properties": {
                "name": {"type": ["string", "null"], "minLength": 0, "maxLength": 255},
                "description": _DESCRIPTION,
                "is_public": schemas.BOOLEAN,
            },
            "additionalProperties": False,
        }
    },
    "required": ["group_type"],
    "additionalProperties": False,
}
SPECS_CREATE: dict[str, Any] = {
    "type": "object",
    "properties": {"group_specs": {**_SPECS, "type": "object"}},
    "required": ["group_specs"],
    "additionalProperties": False,
}
SPEC_UPDATE: dict[str, Any] = {
    **_SPECS,
    "type": "object",
    "minProperties": 1,
    "maxProperties": 1,
}


def view(row: dict[str, Any], admin: bool) -> dict[str, Any]:
    """Cinder's group type view: ``group_specs`` for admins only."""
    shown = {
        "id": row["id"],
        "name": row["name"],
        "description": row["description"],
        "is_public": bool(row["is_public"]),
    }
    if admin:
        shown["group_specs"] = json.loads(row["group_specs"])
    return shown


def get(db: sqlite3.Connection, type_id: str) -> dict[str, Any]:
    """The group type; 404 ``GroupTypeNotFound``."""
    row = db.execute("SELECT * FROM volume_group_types WHERE id = ?", (type_id,)).fetchone()
    if row is None:
        raise errors.NotFound("Group type %s could not be found." % type_id)
    return dict(row)


def listing(db: sqlite3.Connection, public_only: bool) -> list[dict[str, Any]]:
    """The group types by name (non-admins: the public ones)."""
    sql = "SELECT * FROM volume_group_types"
    if public_only:
        sql += " WHERE is_public = 1"
    return [dict(r) for r in db.execute(sql + " ORDER BY created_at DESC, rowid DESC")]


def _unique(db: sqlite3.Connection, name: str, type_id: str | None = None) -> None:
    row = db.execute(
        "SELECT id FROM volume_group_types WHERE name = ? AND id IS NOT ?", (name, type_id)
    ).fetchone()
    if row is not None:
        raise errors.Conflict("Group Type %s already exists." % name)


def create(
    db: sqlite3.Connection,
    name: str,
    description: str | None,
    is_public: bool,
    specs: dict[str, Any] | None,
) -> dict[str, Any]:
    """A new group type; 409 ``GroupTypeExists`` for a name in use."""
    _unique(db, name)
    type_id = common.new_uuid()
    db.execute(
        "INSERT INTO volume_group_types (id, name, description, is_public, group_specs,"
        " created_at) VALUES (?, ?, ?, ?, ?, ?)",
        (
            type_id,
            name,
            description,
            int(is_public),
            json.dumps(specs or {}),
            common.iso_naive_micro(common.utcnow()),
        ),
    )
    return get(db, type_id)


def update(db: sqlite3.Connection, type_id: str, changes: dict[str, Any]) -> dict[str, Any]:
    """Rename, describe or publish a group type (Cinder's texts for an
    empty name or no change: 400)."""
    name = changes.get("name")
    if name is not None and not name.strip():
        raise errors.BadRequest("Group type name can not be empty.")
    if all(changes.get(k) is None for k in ("name", "description", "is_public")):
        raise errors.BadRequest("Specify group type name, description or a combination thereof.")
    get(db, type_id)
    if name is not None:
        _unique(db, name, type_id)
    for column in ("name", "description", "is_public"):
        if changes.get(column) is not None:
            db.execute(
                "UPDATE volume_group_types SET %s = ? WHERE id = ?" % column,
                (changes[column], type_id),
            )
    return get(db, type_id)


def delete(db: sqlite3.Connection, type_id: str) -> None:
    """Forget a group type; 400 ``GroupTypeInUse`` while a group has it."""
    get(db, type_id)
    if db.execute("SELECT 1 FROM volume_groups WHERE group_type_id = ?", (type_id,)).fetchone():
        raise errors.BadRequest(
            # cinder/api/v3/group_types.py delete: its text, then GroupTypeInUse's
            "Target group type is still in use. Group Type %s deletion is not allowed with"
            " groups present with the type." % type_id
        )
    db.execute("DELETE FROM volume_group_types WHERE id = ?", (type_id,))


def specs(db: sqlite3.Connection, type_id: str) -> dict[str, Any]:
    return json.loads(get(db, type_id)["group_specs"])


def set_specs(db: sqlite3.Connection, type_id: str, changes: dict[str, Any]) -> None:
    """Cinder's ``group_type_specs_update_or_create``."""
    merged = dict(specs(db, type_id), **changes)
    db.execute(
        "UPDATE volume_group_types SET group_specs = ? WHERE id = ?",
        (json.dumps(merged), type_id),
    )


def delete_spec(db: sqlite3.Connection, type_id: str, key: str) -> None:
    """Forget a spec; 404 ``GroupTypeSpecsNotFound``."""
    current = specs(db, type_id)
    if key not in current:
        raise errors.NotFound("Group Type %s has no specs with key %s." % (type_id, key))
    del current[key]
    db.execute(
        "UPDATE volume_group_types SET group_specs = ? WHERE id = ?",
        (json.dumps(current), type_id),
    )


# -- generic volume groups (3.13; cinder/api/v3/groups.py, cinder/group/api.py) --

# cinder/objects/fields.py GroupStatus (the reset_status format)
STATUSES = (
    "error", "available", "creating", "deleting", "deleted", "updating", "in-use",
    "error_deleting",
)  # fmt: skip
# etc/cinder/resource_filters.json "group"
FILTERS = ("name",)
SORT_KEYS = ("id", "name", "status", "availability_zone", "created_at", "updated_at")
_ADDABLE = ("available", "in-use")
_REMOVABLE = ("available", "in-use", "error", "error_deleting")
_NAME = {"type": ["string", "null"], "minLength": 0, "maxLength": 255}
_GROUP_DESCRIPTION = {"type": ["string", "null"], "minLength": 0, "maxLength": 255}
_UUID = {"type": "string", "format": "uuid"}
# oslo_utils.uuidutils.is_uuid_like (with or without dashes)
_UUID_LIKE = re.compile(r"^[0-9a-fA-F]{8}-?([0-9a-fA-F]{4}-?){3}[0-9a-fA-F]{12}$")
# cinder/api/schemas/groups.py
CREATE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "group": {
            "type": "object",
            "properties": {
                "description": _GROUP_DESCRIPTION,
                "group_type": {"type": "string", "minLength": 1, "maxLength": 255},
                "name": _NAME,
                "volume_types": {
                    "type": "array",
                    "minItems": 1,
                    "items": {"type": "string", "maxLength": 255},
                    "uniqueItems": True,
                },
                "availability_zone": {"type": ["string", "null"], "maxLength": 255},
            },
            "required": ["group_type", "volume_types"],
            "additionalProperties": False,
        }
    },
    "required": ["group"],
    "additionalProperties": False,
}
CREATE_FROM_SOURCE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "create-from-src": {
            "type": "object",
            "properties": {
                "description": _GROUP_DESCRIPTION,
                "name": _NAME,
                "source_group_id": _UUID,
                "group_snapshot_id": _UUID,
            },
            "oneOf": [{"required": ["group_snapshot_id"]}, {"required": ["source_group_id"]}],
            "additionalProperties": False,
        }
    },
    "required": ["create-from-src"],
    "additionalProperties": False,
}
DELETE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "delete": {
            "type": "object",
            "properties": {"delete-volumes": schemas.BOOLEAN},
            "additionalProperties": False,
        }
    },
    "required": ["delete"],
    "additionalProperties": False,
}
UPDATE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "group": {
            "type": "object",
            "properties": {
                "description": _GROUP_DESCRIPTION,
                "name": _NAME,
                "add_volumes": _GROUP_DESCRIPTION,
                "remove_volumes": _GROUP_DESCRIPTION,
            },
            "anyOf": [
                {"required": ["name"]},
                {"required": ["description"]},
                {"required": ["add_volumes"]},
                {"required": ["remove_volumes"]},
            ],
            "additionalProperties": False,
        }
    },
    "required": ["group"],
    "additionalProperties": False,
}


# cinder/api/schemas/groups.py and group_snapshots.py reset_status (the
# status formats checked by the rules: check_status)
RESET_STATUS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "reset_status": {
            "type": "object",
            "properties": {"status": {"type": "string"}},
            "required": ["status"],
            "additionalProperties": False,
        }
    },
    "required": ["reset_status"],
    "additionalProperties": False,
}
# cinder/objects/fields.py GroupSnapshotStatus
SNAPSHOT_STATUSES = (
    "error", "available", "creating", "deleting", "deleted", "updating", "error_deleting",
)  # fmt: skip


def check_status(status: str, snapshot: bool = False) -> str:
    """Cinder's ``group_status`` / ``group_snapshot_status`` formats
    (cinder/api/validation/validators.py): a group's status is checked
    against the group snapshot statuses too (so ``in-use`` is refused),
    its text listing the group ones."""
    prefix = "Invalid GroupSnapshot Status: " if snapshot else "Invalid Group Status: "
    if not status.strip():
        raise errors.BadRequest(prefix + "The 'status' can not be empty.")
    if status.lower() not in SNAPSHOT_STATUSES:
        if snapshot:
            reason = "Group snapshot status: %s is invalid, valid statuses are: %s." % (
                status,
                SNAPSHOT_STATUSES,
            )
        else:
            reason = "Group status: %s is invalid, valid status are: %s." % (status, STATUSES)
        raise errors.BadRequest(prefix + reason)
    return status.lower()


def _action(name: str, properties: dict[str, Any] | None = None) -> dict[str, Any]:
    inner: dict[str, Any] = {"type": "object"}
    if properties is not None:
        inner.update(properties=properties, additionalProperties=False)
    return {
        "type": "object",
        "properties": {name: inner},
        "required": [name],
        "additionalProperties": False,
    }


ENABLE_REPLICATION = _action("enable_replication")
DISABLE_REPLICATION = _action("disable_replication")
LIST_REPLICATION = _action("list_replication_targets")
FAILOVER_REPLICATION = _action(
    "failover_replication",
    {
        "allow_attached_volume": schemas.BOOLEAN,
        "secondary_backend_id": {"type": ["string", "null"]},
    },
)


def invalid_group(reason: str) -> errors.BadRequest:
    """Cinder's ``InvalidGroup`` (400)."""
    return errors.BadRequest("Invalid Group: " + reason)


def find_group(db: sqlite3.Connection, group_id: str) -> dict[str, Any] | None:
    row = db.execute("SELECT * FROM volume_groups WHERE id = ?", (group_id,)).fetchone()
    return dict(row) if row else None


def get_group(db: sqlite3.Connection, caller: Any, group_id: str) -> dict[str, Any]:
    """The group as ``caller`` sees it (admins: any); 404 ``GroupNotFound``."""
    group = find_group(db, group_id)
    if group is None or not (caller.is_admin or group["project_id"] == caller.project_id):
        raise errors.NotFound("Group %s could not be found." % group_id)
    return group


def volume_ids(db: sqlite3.Connection, group_id: str) -> list[str]:
    """The ids of the group's volumes, oldest first."""
    sql = "SELECT id FROM volumes WHERE group_id = ? ORDER BY seq"
    return [r["id"] for r in db.execute(sql, (group_id,))]


def volume_types_of(group: Mapping[str, Any]) -> list[str]:
    return json.loads(group["volume_type_ids"])


def group_listing(
    db: sqlite3.Connection,
    project_id: str | None,
    filters: Mapping[str, Any],
    order: list[tuple[str, bool]],
    marker: str | None,
    limit: int | None,
) -> list[dict[str, Any]]:
    """The groups of ``project_id`` (None: every project), filtered by name,
    sorted and paged as Cinder's ``group_get_all``."""
    sql, args = "SELECT * FROM volume_groups", []
    if project_id is not None:
        sql, args = sql + " WHERE project_id = ?", [project_id]
    every = [dict(r) for r in db.execute(sql, args)]
    found = [g for g in every if all(g.get(k) == v for k, v in filters.items())]
    return rows.page(rows.sort(found, order), every, marker, limit)


def _group_type(db: sqlite3.Connection, ref: str) -> dict[str, Any]:
    """``group_type`` by id (then as a uuid-like name) if it looks like a
    uuid, else by name (Cinder's ``group.api.create``)."""
    by_name = db.execute("SELECT * FROM volume_group_types WHERE name = ?", (ref,)).fetchone()
    if not _UUID_LIKE.match(ref):
        if by_name is None:
            raise errors.NotFound("Group type with name %s could not be found." % ref)
        return dict(by_name)
    found = db.execute("SELECT * FROM volume_group_types WHERE id = ?", (ref,)).fetchone()
    if found is None and by_name is None:
        raise errors.NotFound("Group type %s could not be found." % ref)
    return dict(found or by_name)


def insert_group(db: sqlite3.Connection, caller: Any, row: dict[str, Any]) -> dict[str, Any]:
    limit = quotas.limits(db, caller.project_id)["groups"]
    used = db.execute(
        "SELECT COUNT(*) AS n FROM volume_groups WHERE project_id = ?", (caller.project_id,)
    ).fetchone()["n"]
    if limit >= 0 and used + 1 > limit:
        # cinder/quota_utils.py process_reserve_over_quota: GroupLimitExceeded
        raise quotas.QuotaExceeded("Maximum number of groups allowed (%d) exceeded" % limit)
    row.update(
        id=common.new_uuid(),
        project_id=caller.project_id,
        user_id=caller.user_id,
        status="available",
        replication_status="disabled",
        created_at=rows.now(),
        updated_at=None,
    )
    rows.insert(db, "volume_groups", row)
    return row


def create_group(
    db: sqlite3.Connection,
    caller: Any,
    name: str | None,
    description: str | None,
    group_type: str,
    volume_types: list[str],
    zone: str | None,
) -> dict[str, Any]:
    """A new group of the volume types (by name or id) and the group type;
    made at once (the local backend schedules no group asynchronously)."""
    type_ids = [types.by_name_or_id(db, caller, ref)["id"] for ref in volume_types]
    gtype = _group_type(db, group_type)
    zone = zone or rows.ZONE
    if zone != rows.ZONE:
        raise errors.BadRequest("Availability zone '%s' is invalid." % zone)
    row = {
        "name": name,
        "description": description,
        "availability_zone": zone,
        "group_type_id": gtype["id"],
        "volume_type_ids": json.dumps(type_ids),
        "group_snapshot_id": None,
        "source_group_id": None,
    }
    return insert_group(db, caller, row)


def delete_group(db: sqlite3.Connection, group: Mapping[str, Any], delete_volumes: bool) -> None:
    """Cinder's ``group.api.delete`` refusals, then the group (and with
    ``delete-volumes`` its volumes) goes."""
    if not delete_volumes and group["status"] not in ("available", "error"):
        raise invalid_group(
            "Group status must be available or error, but current status is: %s" % group["status"]
        )
    taken = db.execute(
        "SELECT 1 FROM volume_group_snapshots WHERE group_id = ?", (group["id"],)
    ).fetchone()
    if taken is not None:
        raise invalid_group("Group has existing snapshots.")
    members = [
        dict(r) for r in db.execute("SELECT * FROM volumes WHERE group_id = ?", (group["id"],))
    ]
    if members and not delete_volumes:
        raise invalid_group(
            "Group %s still contains volumes. The delete-volumes flag is required to delete it."
            % group["id"]
        )
    for volume in members:
        if volume["attach_status"] == "attached":
            raise invalid_group(
                "Volume in group %s is attached. Need to detach first." % group["id"]
            )
        snap = db.execute(
            "SELECT 1 FROM volume_snapshots WHERE volume_id = ?", (volume["id"],)
        ).fetchone()
        if snap is not None:
            raise invalid_group("Volume in group still has dependent snapshots.")
    db.execute("DELETE FROM volumes WHERE group_id = ?", (group["id"],))
    db.execute("DELETE FROM volume_groups WHERE id = ?", (group["id"],))


def _split(value: str | None) -> list[str]:
    return value.strip(",").split(",") if value else []


def _volume(db, lazy, volume_id):
    """The volume row, its lazy progress advanced (None: no such volume)."""
    row = db.execute("SELECT * FROM volumes WHERE id = ?", (volume_id,)).fetchone()
    return lazy.advance([dict(row)])[0] if row else None


def _check_add(db, lazy, group, current, add):
    added = []
    for volume_id in add:
        if volume_id in current:
            continue
        volume = _volume(db, lazy, volume_id)
        prefix = "Cannot add volume %s to group %s " % (volume_id, group["id"])
        if volume is None:
            raise rows.invalid(prefix + "because volume cannot be found.")
        if volume["group_id"]:
            raise rows.invalid(prefix + "because it is already in group %s." % volume["group_id"])
        if volume["project_id"] != group["project_id"]:
            raise rows.invalid(prefix + "as they belong to different projects.")
        if volume["volume_type_id"] not in volume_types_of(group):
            raise rows.invalid(
                prefix
                + "because volume type %s is not supported by the group."
                % volume["volume_type_id"]
            )
        if volume["status"] not in _ADDABLE:
            raise rows.invalid(
                prefix
                + "because volume is in an invalid state: %s. Valid states are: %s."
                % (volume["status"], _ADDABLE)
            )
        added.append(volume_id)
    return added


def _check_remove(db, lazy, group, current, remove):
    for volume_id in remove:
        if volume_id not in current:
            raise rows.invalid(
                "Cannot remove volume %s from group %s because it is not in the group."
                % (volume_id, group["id"])
            )
        status = _volume(db, lazy, volume_id)
        if status["status"] not in _REMOVABLE:
            raise rows.invalid(
                "Cannot remove volume %s from group %s because volume is in an invalid"
                " state: %s. Valid states are: %s."
                % (volume_id, group["id"], status["status"], _REMOVABLE)
            )
    return remove


def update_group(
    db: sqlite3.Connection,
    group: dict[str, Any],
    changes: Mapping[str, Any],
    lazy: progress.Progress,
) -> None:
    """Cinder's ``group.api.update``: rename, describe, add and remove
    volumes (comma-separated ids) with its refusals; the volume changes
    are done at once (the local backend's ``update_group``)."""
    name, description = changes.get("name"), changes.get("description")
    name = None if name == group["name"] else name
    description = None if description == group["description"] else description
    add, remove = _split(changes.get("add_volumes")), _split(changes.get("remove_volumes"))
    both = [u for u in add if u in remove]
    if both:
        raise rows.invalid("UUIDs %s are in both add and remove volume list." % both)
    current = volume_ids(db, group["id"])
    added = _check_add(db, lazy, group, current, add) if add else []
    removed = _check_remove(db, lazy, group, current, remove) if remove else []
    if name is None and description is None and not added and not removed:
        raise invalid_group(
            "Cannot update group %s because no valid name, description, add_volumes, or"
            " remove_volumes were provided." % group["id"]
        )
    if (added or removed) and group["status"] != "available":
        raise invalid_group("Group status must be available.")
    if name is not None:
        group["name"] = name
    if description is not None:
        group["description"] = description
    group["status"] = "available"
    rows.save(db, "volume_groups", group, ("name", "description", "status"))
    for volume_id in added:
        db.execute("UPDATE volumes SET group_id = ? WHERE id = ?", (group["id"], volume_id))
    for volume_id in removed:
        db.execute("UPDATE volumes SET group_id = NULL WHERE id = ?", (volume_id,))


def reset_group_status(db: sqlite3.Connection, group: dict[str, Any], status: str) -> None:
    group["status"] = status
    rows.save(db, "volume_groups", group, ("status",))


def check_volume_type(group: Mapping[str, Any], volume_type: Mapping[str, Any]) -> None:
    """A volume created in ``group`` must be of one of its types (Cinder's
    text names the type object; here its id)."""
    if volume_type["id"] not in volume_types_of(group):
        raise errors.BadRequest(
            "Invalid input received: Invalid volume_type provided: %s (requested type must"
            " be supported by this group)." % volume_type["id"]
        )


def _check_replicated(db: sqlite3.Connection, group: Mapping[str, Any]) -> None:
    """Cinder's ``_check_type``: a replication group type, and volume
    types with ``replication_enabled``."""
    gspecs = specs(db, group["group_type_id"])
    if not any(
        gspecs.get(k) == "<is> True"
        for k in ("group_replication_enabled", "consistent_group_replication_enabled")
    ):
        raise errors.BadRequest(
            "Invalid group type: Group %s is not a replication group type." % group["id"]
        )
    for type_id in volume_types_of(group):
        vtype = types.find(db, type_id) or {"extra_specs": "{}"}
        if json.loads(vtype["extra_specs"]).get("replication_enabled") != "<is> True":
            raise errors.BadRequest(
                "Invalid volume type: Volume type %s does not have 'replication_enabled'"
                " spec key set to '<is> True'." % type_id
            )


def replication(db: sqlite3.Connection, group: dict[str, Any], action: str) -> dict[str, Any]:
    """``enable_replication``, ``disable_replication``,
    ``failover_replication``, ``list_replication_targets`` on a backend
    without replication: Cinder's type checks, then the driver's
    ``NotImplementedError`` turns the group's ``replication_status`` to
    ``error`` (the manager's), and no targets are listed."""
    _check_replicated(db, group)
    if action == "list_replication_targets":
        return {"replication_targets": []}
    group["replication_status"] = "error"
    rows.save(db, "volume_groups", group, ("replication_status",))
    return {}


def sort_order(sort_keys: list[str], sort_dirs: list[str]) -> list[tuple[str, bool]]:
    return rows.sort_order(sort_keys, sort_dirs, SORT_KEYS)
