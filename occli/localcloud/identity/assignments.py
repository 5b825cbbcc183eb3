"""Roles and role assignments (implied roles: :mod:`.implied_roles`):
the token's roles, and the admin API's rules (roles, grants, the
``/v3/role_assignments`` listing).

An assignment's actor is a user (table ``role_assignments``) or a group
(``group_role_assignments``); a user's roles on a target are its own and
those of its groups (keystone computes them when a token is issued or
validated), and the effective listing expands a group's assignments to
its members. System grants (keystone's ``system`` target) are in
``system_role_assignments``."""

import json
import sqlite3
import uuid

from occli.localcloud import errors
from occli.localcloud.identity import implied_roles

# the seeded roles are immutable, as keystone-manage bootstrap makes them
IMMUTABLE_ROLES = ("admin", "manager", "member", "reader", "service")


def ensure_role(db, name):
    """The id of role ``name``, created (random id) if missing."""
    db.execute("INSERT OR IGNORE INTO roles (id, name) VALUES (?, ?)", (uuid.uuid4().hex, name))
    return db.execute("SELECT id FROM roles WHERE name = ?", (name,)).fetchone()["id"]


# an assignment's actor: (table, actor column)
ACTORS = {"user": ("role_assignments", "user_id"), "group": ("group_role_assignments", "group_id")}


def assign(db, user_id, target_type, target_id, role_id, actor="user"):
    """Give ``user_id`` (``actor="group"``: that group) a role on a
    project or domain (idempotent)."""
    table, column = ACTORS[actor]
    db.execute(
        "INSERT OR IGNORE INTO %s (%s, target_type, target_id, role_id)"
        " VALUES (?, ?, ?, ?)" % (table, column),
        (user_id, target_type, target_id, role_id),
    )


def role_names(db, user_id, target_type, target_id):
    """The names of the user's roles on a target, its groups' and the
    implied ones included."""
    rows = db.execute(
        "SELECT r.name FROM roles r WHERE r.id IN"
        " (SELECT role_id FROM role_assignments WHERE user_id = ?"
        " AND target_type = ? AND target_id = ?"
        " UNION SELECT g.role_id FROM group_role_assignments g"
        " JOIN user_group_membership m ON m.group_id = g.group_id"
        " WHERE m.user_id = ? AND g.target_type = ? AND g.target_id = ?)",
        (user_id, target_type, target_id) * 2,
    )
    return implied_roles.expand(db, {row["name"] for row in rows})


def system_role_names(db: sqlite3.Connection, user_id: str) -> set[str]:
    """The names of the user's roles on the system, its groups' and the
    implied ones included."""
    rows = db.execute(
        "SELECT r.name FROM roles r WHERE r.id IN"
        " (SELECT role_id FROM system_role_assignments WHERE actor = 'user'"
        " AND actor_id = ? UNION SELECT s.role_id FROM system_role_assignments s"
        " JOIN user_group_membership m ON m.group_id = s.actor_id"
        " WHERE s.actor = 'group' AND m.user_id = ?)",
        (user_id, user_id),
    )
    return implied_roles.expand(db, {row["name"] for row in rows})


def roles_named(db, names):
    """``[{"id", "name"}]`` of the roles ``names``, by name."""
    marks = ",".join("?" * len(names))
    return [
        dict(r)
        for r in db.execute(
            "SELECT id, name FROM roles WHERE name IN (%s) ORDER BY name" % marks, sorted(names)
        )
    ]


def find_role_id(db, ref):
    """The id of the role ``ref`` names (``{"id"}`` or ``{"name"}``), or
    NotFound."""
    key = "id" if "id" in ref else "name"
    row = db.execute("SELECT id FROM roles WHERE %s = ?" % key, (str(ref[key]),)).fetchone()
    if row is None:
        raise errors.NotFound("Could not find role: %s." % ref[key])
    return row["id"]


# -- the admin API: roles ------------------------------------------------------


def role_not_found(role_id):
    return errors.NotFound("Could not find role: %s." % role_id)


def get_role(db, role_id):
    row = db.execute("SELECT * FROM roles WHERE id = ?", (role_id,)).fetchone()
    if row is None:
        raise role_not_found(role_id)
    return row


def find_role(db: sqlite3.Connection, role_id: str | None) -> sqlite3.Row | None:
    """The role row ``role_id``, or None."""
    return db.execute("SELECT * FROM roles WHERE id = ?", (role_id,)).fetchone()


def select_roles(db, name=None, domain_id=None):
    """Role rows by name (``domain_id``: none here has one)."""
    if domain_id is not None:
        return []
    sql, args = "SELECT * FROM roles", []
    if name is not None:
        sql += " WHERE name = ?"
        args.append(name)
    return db.execute(sql + " ORDER BY name, id", args).fetchall()


def immutable(row):
    return row["name"] in IMMUTABLE_ROLES


def _role_conflict(name):
    return errors.Conflict(
        "Conflict occurred attempting to store role - Duplicate entry found with name %s." % name
    )


def _check_global(data):
    if data.get("domain_id") is not None:
        raise errors.BadRequest(
            "Invalid input for field/attribute domain_id:"
            " domain-specific roles are not supported by"
            " the local cloud."
        )


def create_role(db, data):
    """Create a (global) role from a checked ``role`` body; the row."""
    _check_global(data)
    role_id = uuid.uuid4().hex
    try:
        db.execute(
            "INSERT INTO roles (id, name, description) VALUES (?, ?, ?)",
            (role_id, data["name"], data.get("description")),
        )
    except sqlite3.IntegrityError:
        raise _role_conflict(data["name"]) from None
    return get_role(db, role_id)


def _immutable_error(action, role_id):
    return errors.Forbidden(
        "Unable to %s immutable role resource: `%s. Set resource option"
        ' "immutable" to false first.' % (action, role_id)
    )


def update_role(db, role_id, data):
    row = get_role(db, role_id)
    if immutable(row):
        raise _immutable_error("update", role_id)
    _check_global(data)
    name = data.get("name", row["name"])
    description = row["description"]
    if "description" in data:
        description = data["description"]
    try:
        db.execute(
            "UPDATE roles SET name = ?, description = ? WHERE id = ?", (name, description, role_id)
        )
    except sqlite3.IntegrityError:
        raise _role_conflict(name) from None
    return get_role(db, role_id)


def delete_role(db, role_id):
    """Delete a role, its assignments and its place in application
    credentials (the seeded roles are immutable: 403)."""
    row = get_role(db, role_id)
    if immutable(row):
        raise _immutable_error("delete", role_id)
    db.execute("DELETE FROM role_assignments WHERE role_id = ?", (role_id,))
    db.execute("DELETE FROM group_role_assignments WHERE role_id = ?", (role_id,))
    db.execute("DELETE FROM application_credential_roles WHERE role_id = ?", (role_id,))
    db.execute("DELETE FROM roles WHERE id = ?", (role_id,))


# -- grants ----------------------------------------------------------------------


def _grant_not_found(role_id, user_id, target_id):
    return errors.NotFound(
        "Could not find role assignment with role: %s, user or group: %s,"
        " project, domain, or system: %s." % (role_id, user_id, target_id)
    )


def has_grant(db, user_id, target_type, target_id, role_id, actor="user"):
    table, column = ACTORS[actor]
    return (
        db.execute(
            "SELECT 1 FROM %s WHERE %s = ? AND target_type = ?"
            " AND target_id = ? AND role_id = ?" % (table, column),
            (user_id, target_type, target_id, role_id),
        ).fetchone()
        is not None
    )


def check_grant(db, user_id, target_type, target_id, role_id, actor="user"):
    """NotFound (keystone's text) unless the user (or group) has the role
    directly."""
    if not has_grant(db, user_id, target_type, target_id, role_id, actor):
        raise _grant_not_found(role_id, user_id, target_id)


def revoke(db, user_id, target_type, target_id, role_id, actor="user"):
    """Remove a direct role assignment of a user (or group) (NotFound if
    there is none). The tokens on the target lose the role when next
    read."""
    table, column = ACTORS[actor]
    deleted = db.execute(
        "DELETE FROM %s WHERE %s = ? AND target_type = ?"
        " AND target_id = ? AND role_id = ?" % (table, column),
        (user_id, target_type, target_id, role_id),
    ).rowcount
    if not deleted:
        raise _grant_not_found(role_id, user_id, target_id)


# -- system grants (keystone's target id ``system``) ------------------------------

SYSTEM_TARGET = "system"


def assign_system(
    db: sqlite3.Connection, actor_id: str, role_id: str, actor: str = "user"
) -> None:
    """Give a user (or group) a role on the system (idempotent)."""
    db.execute(
        "INSERT OR IGNORE INTO system_role_assignments (actor, actor_id, role_id)"
        " VALUES (?, ?, ?)",
        (actor, actor_id, role_id),
    )


def system_grants(db: sqlite3.Connection, actor_id: str, actor: str = "user") -> list[sqlite3.Row]:
    """The role rows a user (or group) has on the system directly."""
    return db.execute(
        "SELECT r.* FROM system_role_assignments s JOIN roles r ON r.id = s.role_id"
        " WHERE s.actor = ? AND s.actor_id = ? ORDER BY r.name, r.id",
        (actor, actor_id),
    ).fetchall()


def check_system_grant(
    db: sqlite3.Connection, actor_id: str, role_id: str, actor: str = "user"
) -> None:
    """NotFound (keystone's text) unless the user (or group) has the role
    on the system directly."""
    row = db.execute(
        "SELECT 1 FROM system_role_assignments WHERE actor = ? AND actor_id = ? AND role_id = ?",
        (actor, actor_id, role_id),
    ).fetchone()
    if row is None:
        raise _grant_not_found(role_id, actor_id, SYSTEM_TARGET)


def revoke_system(
    db: sqlite3.Connection, actor_id: str, role_id: str, actor: str = "user"
) -> None:
    """Remove a system grant (NotFound if there is none); the system
    tokens lose the role when next read."""
    deleted = db.execute(
        "DELETE FROM system_role_assignments WHERE actor = ? AND actor_id = ? AND role_id = ?",
        (actor, actor_id, role_id),
    ).rowcount
    if not deleted:
        raise _grant_not_found(role_id, actor_id, SYSTEM_TARGET)


# -- GET /v3/role_assignments ---------------------------------------------------


def list_assignments(
    db,
    user_id=None,
    role_id=None,
    project_ids=None,
    domain_id=None,
    effective=False,
    group_id=None,
    system=False,
):
    """Direct (or, with ``effective``, direct and implied) assignments as
    dicts: ``user_id`` or ``group_id`` (the actor), ``target_type``,
    ``target_id``, ``role_id``, ``via_group`` (in effective mode, the
    group a user has the role through) and, for an implied one,
    ``prior_role_id`` (the role that implies it).

    ``group_id`` lists only that group's assignments (never with
    ``effective``: keystone refuses it). In effective mode a group's
    assignments are expanded to its members, as keystone's are.
    ``project_ids`` limits to those projects, ``domain_id`` to that
    domain as a target, ``system`` to the system grants (target type and
    id ``system``). In effective mode ``role_id`` filters the
    expanded list, as keystone's does. Order: by target, actor, role
    name; an implied role right after the role implying it.
    """
    group_grants = (
        "(SELECT group_id, target_type, target_id, role_id FROM group_role_assignments"
        " UNION ALL SELECT actor_id, 'system', 'system', role_id"
        " FROM system_role_assignments WHERE actor = 'group')"
    )
    if effective:
        groups = (
            "SELECT m.user_id, NULL AS group_id, g.group_id AS via_group,"
            " g.target_type, g.target_id, g.role_id FROM %s g"
            " JOIN user_group_membership m ON m.group_id = g.group_id" % group_grants
        )
    else:
        groups = (
            "SELECT NULL, group_id, NULL, target_type, target_id, role_id FROM %s" % group_grants
        )
    sql = (
        "SELECT a.user_id, a.group_id, a.via_group, a.target_type, a.target_id,"
        " a.role_id, r.name AS role_name FROM"
        " (SELECT user_id, NULL AS group_id, NULL AS via_group, target_type,"
        " target_id, role_id FROM role_assignments UNION ALL"
        " SELECT actor_id, NULL, NULL, 'system', 'system', role_id"
        " FROM system_role_assignments WHERE actor = 'user' UNION ALL %s) a"
        " JOIN roles r ON r.id = a.role_id WHERE 1" % groups
    )
    args = []
    if system:
        sql += " AND a.target_type = 'system'"
    for column, value in (("user_id", user_id), ("group_id", group_id)):
        if value is not None:
            sql += " AND a.%s = ?" % column
            args.append(value)
    if project_ids is not None:
        sql += " AND a.target_type = 'project' AND a.target_id IN (SELECT value FROM json_each(?))"
        args.append(json.dumps(sorted(project_ids)))
    if domain_id is not None:
        sql += " AND a.target_type = 'domain' AND a.target_id = ?"
        args.append(domain_id)
    if role_id is not None and not effective:
        sql += " AND a.role_id = ?"
        args.append(role_id)
    rows = db.execute(
        sql + " ORDER BY a.target_type DESC, a.target_id, a.user_id, a.group_id,"
        " a.via_group, r.name",
        args,
    ).fetchall()
    found = []
    ids_by_name = None
    implied_by = implied_roles.implications(db) if effective else {}
    for row in rows:
        item = {
            "user_id": row["user_id"],
            "group_id": row["group_id"],
            "via_group": row["via_group"],
            "target_type": row["target_type"],
            "target_id": row["target_id"],
            "role_id": row["role_id"],
            "prior_role_id": None,
        }
        found.append(item)
        if not effective:
            continue
        if ids_by_name is None:
            ids_by_name = {r["name"]: r["id"] for r in db.execute("SELECT id, name FROM roles")}
        pending = [(row["role_name"], row["role_id"])]
        seen = {row["role_name"]}
        while pending:
            prior_name, prior_id = pending.pop(0)
            for implied in implied_by.get(prior_name, ()):
                implied_id = ids_by_name.get(implied)
                if implied_id is None or implied in seen:
                    continue
                seen.add(implied)
                found.append(dict(item, role_id=implied_id, prior_role_id=prior_id))
                pending.append((implied, implied_id))
    if role_id is not None and effective:
        found = [a for a in found if a["role_id"] == role_id]
    return found
