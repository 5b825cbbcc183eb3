"""Cinder's group types and their group specs (3.11, ``cinder/api/v3/
group_types.py``, ``group_specs.py`` and ``cinder/volume/group_types.py``):
admins create, update and delete them; anyone lists the public ones and
shows any; only admins see their specs. A type is deleted while no group
uses it (no groups are served here yet)."""

import json
import sqlite3
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.volume import schemas

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
    get(db, type_id)
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
