"""Roles and role assignments (implied roles: admin ⇒ member ⇒ reader)."""

import uuid

from occli.localcloud import errors

ROLE_IMPLIES = {"admin": ("member",), "member": ("reader",)}


def ensure_role(db, name):
    """The id of role ``name``, created (random id) if missing."""
    db.execute("INSERT OR IGNORE INTO roles (id, name) VALUES (?, ?)",
               (uuid.uuid4().hex, name))
    return db.execute("SELECT id FROM roles WHERE name = ?",
                      (name,)).fetchone()["id"]


def assign(db, user_id, target_type, target_id, role_id):
    """Give ``user_id`` a role on a project or domain (idempotent)."""
    db.execute(
        "INSERT OR IGNORE INTO role_assignments"
        " (user_id, target_type, target_id, role_id)"
        " VALUES (?, ?, ?, ?)", (user_id, target_type, target_id, role_id))


def role_names(db, user_id, target_type, target_id):
    """The names of the user's roles on a target, implied ones included."""
    rows = db.execute(
        "SELECT r.name FROM role_assignments a JOIN roles r"
        " ON r.id = a.role_id WHERE a.user_id = ? AND a.target_type = ?"
        " AND a.target_id = ?", (user_id, target_type, target_id))
    names = {row["name"] for row in rows}
    pending = list(names)
    while pending:
        for implied in ROLE_IMPLIES.get(pending.pop(), ()):
            if implied not in names:
                names.add(implied)
                pending.append(implied)
    return names


def roles_named(db, names):
    """``[{"id", "name"}]`` of the roles ``names``, by name."""
    marks = ",".join("?" * len(names))
    return [dict(r) for r in db.execute(
        "SELECT id, name FROM roles WHERE name IN (%s) ORDER BY name"
        % marks, sorted(names))]


def find_role_id(db, ref):
    """The id of the role ``ref`` names (``{"id"}`` or ``{"name"}``), or
    NotFound."""
    key = "id" if "id" in ref else "name"
    row = db.execute("SELECT id FROM roles WHERE %s = ?" % key,
                     (str(ref[key]),)).fetchone()
    if row is None:
        raise errors.NotFound("Could not find role: %s." % ref[key])
    return row["id"]
