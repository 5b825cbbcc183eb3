"""Volume types: the seeded ``__DEFAULT__`` type (Cinder creates it at
install time), list, show and the lookup a volume create does."""

import json
import re
import sqlite3

from occli.localcloud import errors
from occli.localcloud.volume.migrations import DEFAULT_TYPE_ID

DEFAULT_NAME = "__DEFAULT__"
_UUID = re.compile(r"^[0-9a-fA-F]{8}-?([0-9a-fA-F]{4}-?){3}[0-9a-fA-F]{12}$")


def seed(db):
    db.execute(
        "INSERT OR IGNORE INTO volume_types (id, name, description) VALUES (?, ?, ?)",
        (DEFAULT_TYPE_ID, DEFAULT_NAME, "Default Volume Type"),
    )


def view(row):
    return {
        "id": row["id"],
        "name": row["name"],
        "description": row["description"],
        "is_public": bool(row["is_public"]),
        "os-volume-type-access:is_public": bool(row["is_public"]),
        "qos_specs_id": None,
        "extra_specs": json.loads(row["extra_specs"]),
    }


def listing(db, caller):
    """Public types (admins: all), in name order."""
    sql = "SELECT * FROM volume_types"
    if not caller.is_admin:
        sql += " WHERE is_public = 1"
    return [dict(r) for r in db.execute(sql + " ORDER BY name")]


def get(db, caller, type_id):
    """The type ``type_id``; 404 as Cinder's ``VolumeTypeNotFound``."""
    row = db.execute("SELECT * FROM volume_types WHERE id = ?", (type_id,)).fetchone()
    if row is None or not (row["is_public"] or caller.is_admin):
        raise errors.NotFound("Volume type %s could not be found." % type_id)
    return dict(row)


def by_name_or_id(db, caller, ref):
    """Cinder's ``VolumeType.get_by_name_or_id``: an id if it looks like a
    uuid, else a name."""
    if _UUID.match(ref):
        return get(db, caller, ref)
    row = db.execute("SELECT * FROM volume_types WHERE name = ?", (ref,)).fetchone()
    if row is None or not (row["is_public"] or caller.is_admin):
        raise errors.NotFound("Volume type with name %s could not be found." % ref)
    return dict(row)


def find(db: sqlite3.Connection, type_id: str) -> dict | None:
    """The type ``type_id`` (no access check: a volume's own), or None."""
    row = db.execute("SELECT * FROM volume_types WHERE id = ?", (type_id,)).fetchone()
    return dict(row) if row else None


def default(db):
    return dict(
        db.execute("SELECT * FROM volume_types WHERE id = ?", (DEFAULT_TYPE_ID,)).fetchone()
    )


def names(db: sqlite3.Connection) -> dict[str, str]:
    """``{id: name}`` of every type (for volume views)."""
    return {r["id"]: r["name"] for r in db.execute("SELECT id, name FROM volume_types")}
