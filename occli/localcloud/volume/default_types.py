"""Default volume types per project (Cinder 3.62, ``cinder/api/v3/
default_types.py`` and the db api's ``project_default_volume_type_*``):
the type a project's volumes get when they name none, over the
deployment's ``__DEFAULT__``. A type that is some project's default cannot
be deleted (:func:`occli.localcloud.volume.types.destroy`)."""

import sqlite3
from typing import Any

from occli.localcloud import errors
from occli.localcloud.volume import types


def view(row: dict[str, Any]) -> dict[str, str]:
    return {"project_id": row["project_id"], "volume_type_id": row["volume_type_id"]}


def listing(db: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every project's default type."""
    return [dict(r) for r in db.execute("SELECT * FROM volume_default_types ORDER BY rowid")]


def get(db: sqlite3.Connection, project_id: str) -> dict[str, Any]:
    """The project's default type; 404 ``VolumeTypeProjectDefaultNotFound``."""
    row = db.execute(
        "SELECT * FROM volume_default_types WHERE project_id = ?", (project_id,)
    ).fetchone()
    if row is None:
        raise errors.NotFound("Default type for project %s not found." % project_id)
    return dict(row)


def set_default(db: sqlite3.Connection, caller: Any, project_id: str, ref: str) -> dict[str, Any]:
    """Make ``ref`` (a type's name or id, as ``caller`` sees it) the
    project's default; an unknown type is 400 with Cinder's 404 text."""
    try:
        vtype = types.by_name_or_id(db, caller, ref)
    except errors.NotFound as exc:
        raise errors.BadRequest(exc.message) from None
    db.execute(
        "INSERT INTO volume_default_types (project_id, volume_type_id) VALUES (?, ?)"
        " ON CONFLICT (project_id) DO UPDATE SET volume_type_id = excluded.volume_type_id",
        (project_id, vtype["id"]),
    )
    return get(db, project_id)


def unset(db: sqlite3.Connection, project_id: str) -> None:
    """Forget the project's default (none set is no error, as in Cinder)."""
    db.execute("DELETE FROM volume_default_types WHERE project_id = ?", (project_id,))
