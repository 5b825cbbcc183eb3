"""Volume types as Cinder keeps them (``cinder/volume/volume_types.py``
and the db api's ``volume_type_*``): the seeded ``__DEFAULT__`` type
(Cinder creates it at install time), the admin's create, update and
delete, extra specs, private types with their project access, and the
lookups a volume create does (a private type is found only by admins and
the projects given access)."""

import json
import re
import sqlite3
from collections.abc import Sequence
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.volume import rows
from occli.localcloud.volume.migrations import DEFAULT_TYPE_ID

DEFAULT_NAME = "__DEFAULT__"
# cinder/policies/type_extra_specs.py: what a non-admin sees of extra specs
USER_VISIBLE_EXTRA_SPECS = ("RESKEY:availability_zones", "multiattach", "replication_enabled")
# cinder/api/contrib/types_extra_specs.py ``_check_cacheable``
_IS_TRUE = "<is> True"
# the per-type quota resources a rename carries over (cinder's QUOTAS)
_PER_TYPE_QUOTAS = ("volumes", "snapshots", "gigabytes")
# the columns a list sorts on (cinder's paginate query takes the model's)
SORT_KEYS = ("id", "name", "description", "is_public", "created_at", "updated_at")
_UUID = re.compile(r"^[0-9a-fA-F]{8}-?([0-9a-fA-F]{4}-?){3}[0-9a-fA-F]{12}$")


def seed(db):
    db.execute(
        "INSERT OR IGNORE INTO volume_types (id, name, description, created_at)"
        " VALUES (?, ?, ?, ?)",
        (DEFAULT_TYPE_ID, DEFAULT_NAME, "Default Volume Type", rows.now()),
    )


def view(row, caller=None, access=True, qos=True):
    """Cinder's v3 type view (``cinder/api/v3/views/types.py``): a
    non-admin ``caller`` sees only the user-visible extra specs and no
    ``qos_specs_id`` (no caller: a volume's own type, shown whole);
    ``access`` adds the os-volume-type-access extension's key, which
    Cinder adds to show, list and create, not to update; ``qos=False``:
    no ``qos_specs_id`` for anyone, as Cinder 29's create and update
    answer (recorded: tests/fixtures/volume/realcloud/cinder-29-types.json)."""
    specs = json.loads(row["extra_specs"])
    admin = caller is None or caller.is_admin
    result = {
        "id": row["id"],
        "name": row["name"],
        "description": row["description"],
        "is_public": bool(row["is_public"]),
        "extra_specs": specs
        if admin
        else {k: v for k, v in specs.items() if k in USER_VISIBLE_EXTRA_SPECS},
    }
    if access:
        result["os-volume-type-access:is_public"] = bool(row["is_public"])
    if admin and qos:
        result["qos_specs_id"] = row["qos_specs_id"]
    return result


def _visible_sql(caller):
    """The WHERE clause (and its arguments) of the types ``caller`` may
    see: every one for admins, else the public ones and those its project
    was given access to (the db api's ``_volume_type_get_query``)."""
    if caller.is_admin:
        return "1 = 1", []
    return (
        "(is_public = 1 OR id IN (SELECT volume_type_id FROM volume_type_projects"
        " WHERE project_id = ?))",
        [caller.project_id],
    )


def sort_order(sort_keys: Sequence[str], sort_dirs: Sequence[str]) -> list[tuple[str, bool]]:
    return rows.sort_order(sort_keys, sort_dirs, SORT_KEYS)


def listing(db, caller, is_public=True, order=None, marker=None, limit=None, extra_specs=None):
    """The types ``caller`` sees, in ``order`` (``rows.sort_order``'s;
    Cinder's default: newest first), after ``marker``, at most ``limit``.
    ``is_public`` (admins' ``is_public`` query; others always True):
    True — public ones and those the project has access to, False —
    private ones only, None — all. ``extra_specs``: only types with these
    (``RESKEY:availability_zones`` matched as a substring, as Cinder's
    LIKE); a non-admin naming a spec it may not read gets none. An unknown
    marker is Cinder's ``VolumeTypeNotFound``."""
    where, args = _visible_sql(caller)
    every = [dict(r) for r in db.execute("SELECT * FROM volume_types WHERE " + where, args)]
    if is_public is True:
        granted = {
            r["volume_type_id"]
            for r in db.execute(
                "SELECT volume_type_id FROM volume_type_projects WHERE project_id = ?",
                (caller.project_id,),
            )
        }
        found = [t for t in every if t["is_public"] or t["id"] in granted]
    elif is_public is False:
        found = [t for t in every if not t["is_public"]]
    else:
        found = list(every)
    if extra_specs:
        if not caller.is_admin and any(k not in USER_VISIBLE_EXTRA_SPECS for k in extra_specs):
            found = []
        found = [t for t in found if _has_specs(json.loads(t["extra_specs"]), extra_specs)]
    rows.sort(found, order or sort_order([], []))
    if marker is not None and not any(t["id"] == marker for t in every):
        raise errors.NotFound("Volume type %s could not be found." % marker)
    return rows.page(found, every, marker, limit)


def _has_specs(specs: dict[str, Any], wanted: dict[str, Any]) -> bool:
    for key, value in wanted.items():
        if key == "RESKEY:availability_zones":
            if str(value) not in str(specs.get(key, "")):
                return False
        elif key not in specs or specs[key] != str(value):
            return False
    return True


def get(db, caller, type_id):
    """The type ``type_id``; 404 as Cinder's ``VolumeTypeNotFound``."""
    where, args = _visible_sql(caller)
    row = db.execute(
        "SELECT * FROM volume_types WHERE id = ? AND " + where, [type_id, *args]
    ).fetchone()
    if row is None:
        raise errors.NotFound("Volume type %s could not be found." % type_id)
    return dict(row)


def _by_name(db, caller, name):
    where, args = _visible_sql(caller)
    row = db.execute(
        "SELECT * FROM volume_types WHERE name = ? AND " + where, [name, *args]
    ).fetchone()
    return dict(row) if row else None


def by_name_or_id(db, caller, ref):
    """Cinder's ``volume_types.get_by_name_or_id``: an id if it looks like
    a uuid (then a name, as a uuid may be a name), else a name."""
    if _UUID.match(ref):
        try:
            return get(db, caller, ref)
        except errors.NotFound:
            found = _by_name(db, caller, ref)
            if found is None:
                raise
            return found
    found = _by_name(db, caller, ref)
    if found is None:
        raise errors.NotFound("Volume type with name %s could not be found." % ref)
    return found


def find(db: sqlite3.Connection, type_id: str) -> dict | None:
    """The type ``type_id`` (no access check: a volume's own), or None."""
    row = db.execute("SELECT * FROM volume_types WHERE id = ?", (type_id,)).fetchone()
    return dict(row) if row else None


def default(db, project_id=None):
    """The type a volume of ``project_id`` gets when it names none
    (``get_default_volume_type``): the project's default (3.62), else the
    deployment's (Cinder's ``default_volume_type``, ``__DEFAULT__``)."""
    type_id = DEFAULT_TYPE_ID
    if project_id is not None:
        row = db.execute(
            "SELECT volume_type_id FROM volume_default_types WHERE project_id = ?",
            (project_id,),
        ).fetchone()
        type_id = row["volume_type_id"] if row else type_id
    return dict(db.execute("SELECT * FROM volume_types WHERE id = ?", (type_id,)).fetchone())


def names(db: sqlite3.Connection) -> dict[str, str]:
    """``{id: name}`` of every type (for volume views)."""
    return {r["id"]: r["name"] for r in db.execute("SELECT id, name FROM volume_types")}


# -- the admin's writes (volume_extension:types_manage) -----------------------------------


def _check_name(db, name, type_id=None):
    if not name.strip():
        raise errors.BadRequest("Volume type name can not be empty.")
    row = db.execute(
        "SELECT 1 FROM volume_types WHERE name = ? AND id != ?", (name, type_id or "")
    ).fetchone()
    if row is not None:
        raise errors.Conflict("Volume Type %s already exists." % name)


def create(
    db: sqlite3.Connection,
    name: str,
    description: str | None = None,
    extra_specs: dict[str, Any] | None = None,
    is_public: bool = True,
) -> dict[str, Any]:
    """A new type (``volume_types.create``); 409 when the name is taken."""
    _check_name(db, name)
    type_id = common.new_uuid()
    row: dict[str, Any] = {
        "id": type_id,
        "name": name,
        "description": description,
        "is_public": int(is_public),
        "extra_specs": json.dumps(extra_specs or {}),
        "created_at": rows.now(),
    }
    db.execute(
        "INSERT INTO volume_types (id, name, description, is_public, extra_specs, created_at)"
        " VALUES (:id, :name, :description, :is_public, :extra_specs, :created_at)",
        row,
    )
    return find(db, type_id) or row


def update(
    db: sqlite3.Connection,
    type_id: str,
    name: str | None = None,
    description: str | None = None,
    is_public: bool | None = None,
) -> dict[str, Any]:
    """Change what is given (the db api's ``_type_update``): a name taken
    by another type is 409; a rename carries the type's quota limits over
    to the new name, as ``QUOTAS.update_quota_resource`` does."""
    vtype = find(db, type_id)
    if vtype is None:
        raise errors.NotFound("Volume type %s could not be found." % type_id)
    changes: dict[str, Any] = {}
    if name is not None:
        _check_name(db, name, type_id)
        changes["name"] = name
    if description is not None:
        changes["description"] = description
    if is_public is not None:
        changes["is_public"] = int(is_public)
    changes["updated_at"] = rows.now()
    db.execute(
        "UPDATE volume_types SET %s WHERE id = ?" % ", ".join("%s = ?" % c for c in changes),
        [*changes.values(), type_id],
    )
    if name is not None and name != vtype["name"]:
        for resource in _PER_TYPE_QUOTAS:
            db.execute(
                "UPDATE volume_quotas SET resource = ? WHERE resource = ?",
                ("%s_%s" % (resource, name), "%s_%s" % (resource, vtype["name"])),
            )
    return find(db, type_id) or vtype


def in_use(db: sqlite3.Connection, type_id: str) -> bool:
    """Whether a volume has the type (Cinder counts live volumes)."""
    return (
        db.execute("SELECT 1 FROM volumes WHERE volume_type_id = ? LIMIT 1", (type_id,)).fetchone()
        is not None
    )


def project_defaults(db: sqlite3.Connection, type_id: str) -> list[str]:
    """The projects whose default type (3.62) is ``type_id``."""
    return [
        r["project_id"]
        for r in db.execute(
            "SELECT project_id FROM volume_default_types WHERE volume_type_id = ?", (type_id,)
        )
    ]


def destroy(db: sqlite3.Connection, type_id: str) -> None:
    """Delete a type (``volume_types.destroy``, the db api's
    ``volume_type_destroy``), in Cinder's order: a default type (the
    deployment's or a project's) cannot go, nor the only type, nor one
    that volumes have (all 400)."""
    if find(db, type_id) is None:
        raise errors.NotFound("Volume type %s could not be found." % type_id)
    if project_defaults(db, type_id) or type_id == DEFAULT_TYPE_ID:
        raise errors.BadRequest(
            "The volume type %s is a default volume type and cannot be deleted." % type_id
        )
    if db.execute("SELECT COUNT(*) FROM volume_types").fetchone()[0] <= 1:
        raise errors.BadRequest(
            "The volume type %s is the only currently defined volume type and cannot be"
            " deleted." % type_id
        )
    if in_use(db, type_id):
        raise errors.BadRequest("Target volume type is still in use.")
    db.execute("DELETE FROM volume_type_projects WHERE volume_type_id = ?", (type_id,))
    db.execute("DELETE FROM volume_types WHERE id = ?", (type_id,))


# -- extra specs (cinder/api/contrib/types_extra_specs.py) ----------------------------------


def extra_specs(vtype: dict[str, Any], caller: Any) -> dict[str, Any]:
    """The type's extra specs as ``caller`` may read them (non-admins:
    the user-visible ones; Cinder's ``read_sensitive`` policy)."""
    specs = json.loads(vtype["extra_specs"])
    if caller.is_admin:
        return specs
    return {k: v for k, v in specs.items() if k in USER_VISIBLE_EXTRA_SPECS}


def check_unused(db: sqlite3.Connection, type_id: str) -> None:
    """Cinder's ``_allow_update``: no extra spec changes on a type in use."""
    if in_use(db, type_id):
        raise errors.BadRequest("Volume Type is currently in use.")


def set_extra_specs(
    db: sqlite3.Connection, vtype: dict[str, Any], specs: dict[str, Any], check: bool = True
) -> None:
    """Merge ``specs`` into the type's (``update_or_create``); ``check``:
    refuse ``cacheable`` together with ``multiattach`` (Cinder checks a
    create, not a one-key update)."""
    current = json.loads(vtype["extra_specs"])
    merged = {**current, **specs}
    if (
        check
        and merged.get("multiattach") == _IS_TRUE
        and merged.get("cacheable") == _IS_TRUE
        and ("multiattach" in specs or "cacheable" in specs)
    ):
        raise errors.BadRequest("cacheable cannot be set with multiattach.")
    db.execute(
        "UPDATE volume_types SET extra_specs = ?, updated_at = ? WHERE id = ?",
        (json.dumps(merged), rows.now(), vtype["id"]),
    )


def delete_extra_spec(db: sqlite3.Connection, vtype: dict[str, Any], key: str) -> None:
    """Drop one extra spec; 404 ``VolumeTypeExtraSpecsNotFound``."""
    current = json.loads(vtype["extra_specs"])
    if key not in current:
        raise errors.NotFound(
            "Volume Type %s has no extra specs with key %s." % (vtype["id"], key)
        )
    del current[key]
    db.execute(
        "UPDATE volume_types SET extra_specs = ?, updated_at = ? WHERE id = ?",
        (json.dumps(current), rows.now(), vtype["id"]),
    )


# -- project access (cinder/api/contrib/volume_type_access.py) -------------------------------


def access_list(db: sqlite3.Connection, vtype: dict[str, Any]) -> list[dict[str, str]]:
    """The projects given access to a private type; 404 for a public one."""
    if vtype["is_public"]:
        raise errors.NotFound("Access list not available for public volume types.")
    return [
        {"volume_type_id": vtype["id"], "project_id": r["project_id"]}
        for r in db.execute(
            "SELECT project_id FROM volume_type_projects WHERE volume_type_id = ? ORDER BY rowid",
            (vtype["id"],),
        )
    ]


def add_access(db: sqlite3.Connection, type_id: str, project_id: str) -> None:
    """Give ``project_id`` access to the type; 409 when it has it."""
    try:
        db.execute(
            "INSERT INTO volume_type_projects (volume_type_id, project_id) VALUES (?, ?)",
            (type_id, project_id),
        )
    except sqlite3.IntegrityError:
        raise errors.Conflict(
            "Volume type access for %s / %s combination already exists." % (type_id, project_id)
        ) from None


def remove_access(db: sqlite3.Connection, type_id: str, project_id: str) -> None:
    """Take the access away; 404 when the project had none."""
    cursor = db.execute(
        "DELETE FROM volume_type_projects WHERE volume_type_id = ? AND project_id = ?",
        (type_id, project_id),
    )
    if cursor.rowcount == 0:
        raise errors.NotFound(
            "Volume type access not found for %s / %s combination." % (type_id, project_id)
        )
