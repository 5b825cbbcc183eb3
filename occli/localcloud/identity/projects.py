"""Projects (and the domain lookups everything uses): lookups, the
seed's ``ensure``, scope checks, and the admin API's rules (keystone's
``resource`` manager: create, update, delete, list; the domains' own rules
are in :mod:`.domains`)."""

import json
import sqlite3
import uuid

from occli.localcloud import errors

DEFAULT_DOMAIN = "default"
# attributes of a project that are columns; any other is an extra one
# (keystone keeps them in ``extra`` and shows them at the top level)
PROJECT_KEYS = (
    "id",
    "name",
    "domain_id",
    "description",
    "enabled",
    "parent_id",
    "is_domain",
    "tags",
    "options",
    "links",
)


def domain_ref_ok(ref):
    """Whether ``ref`` names a domain (an object with ``id`` or ``name``)."""
    return isinstance(ref, dict) and ("id" in ref or "name" in ref)


def find_domain(db, ref):
    """The domain row of ``ref`` (``{"id": …}`` or ``{"name": …}``), or None."""
    if "id" in ref:
        return db.execute("SELECT * FROM domains WHERE id = ?", (str(ref["id"]),)).fetchone()
    return db.execute("SELECT * FROM domains WHERE name = ?", (str(ref["name"]),)).fetchone()


def ensure_domain(db, domain_id, name, description=""):
    db.execute(
        "INSERT OR IGNORE INTO domains (id, name, description) VALUES (?, ?, ?)",
        (domain_id, name, description),
    )


def project_id(db: sqlite3.Connection, name: str, domain_id: str = DEFAULT_DOMAIN) -> str | None:
    """The id of project ``name`` in ``domain_id``, or None."""
    row = db.execute(
        "SELECT id FROM projects WHERE name = ? AND domain_id = ?", (name, domain_id)
    ).fetchone()
    return row["id"] if row else None


def project(db, project_id):
    """``{"id", "name", "domain_id", "enabled"}`` of a project, or None."""
    row = db.execute(
        "SELECT id, name, domain_id, enabled FROM projects WHERE id = ?", (project_id,)
    ).fetchone()
    return dict(row) if row else None


def ensure_project(db, name, domain_id=DEFAULT_DOMAIN):
    """The id of project ``name``, created (random id) if missing."""
    db.execute(
        "INSERT OR IGNORE INTO projects (id, name, domain_id, parent_id) VALUES (?, ?, ?, ?)",
        (uuid.uuid4().hex, name, domain_id, domain_id),
    )
    return project_id(db, name, domain_id)


def find_project(db, ref):
    """The project row of a scope's ``ref`` (``id``, or ``name`` +
    ``domain``), or None."""
    if "id" in ref:
        return db.execute("SELECT * FROM projects WHERE id = ?", (str(ref["id"]),)).fetchone()
    domain = find_domain(db, ref["domain"])
    return (
        domain
        and db.execute(
            "SELECT * FROM projects WHERE name = ? AND domain_id = ?",
            (str(ref["name"]), domain["id"]),
        ).fetchone()
    )


def enabled_project(db, project_id):
    """``project_id`` if it and its domain are enabled, else Unauthorized."""
    row = db.execute(
        "SELECT p.id, p.enabled, d.enabled AS domain_enabled"
        " FROM projects p JOIN domains d ON d.id = p.domain_id"
        " WHERE p.id = ?",
        (project_id,),
    ).fetchone()
    if not row or not row["enabled"] or not row["domain_enabled"]:
        raise errors.Unauthorized("Project %s is disabled." % project_id)
    return row["id"]


def scoped_project(db, project_id):
    """A token's project with its domain (``id``, ``name``, ``domain``), or
    None if missing or disabled."""
    row = db.execute(
        "SELECT p.id, p.name, p.enabled, d.id AS domain_id,"
        " d.name AS domain_name, d.enabled AS domain_enabled"
        " FROM projects p JOIN domains d ON d.id = p.domain_id"
        " WHERE p.id = ?",
        (project_id,),
    ).fetchone()
    if not row or not row["enabled"] or not row["domain_enabled"]:
        return None
    return {
        "id": row["id"],
        "name": row["name"],
        "domain": {"id": row["domain_id"], "name": row["domain_name"]},
    }


# -- the admin API -------------------------------------------------------------


def not_found(project_id):
    return errors.NotFound("Could not find project: %s." % project_id)


def get(db, project_id):
    """The project row ``project_id``, or NotFound (keystone's text)."""
    row = db.execute("SELECT * FROM projects WHERE id = ?", (project_id,)).fetchone()
    if row is None:
        raise not_found(project_id)
    return row


def find(db: sqlite3.Connection, project_id: str | None) -> sqlite3.Row | None:
    """The project row ``project_id``, or None."""
    return db.execute("SELECT * FROM projects WHERE id = ?", (project_id,)).fetchone()


def select(db, name=None, domain_id=None, enabled=None, parent_id=None, ids=None):
    """Project rows matching the filters that are not None (``ids``: only
    those), by name then id."""
    sql, args = "SELECT * FROM projects WHERE 1", []
    for column, value in (("name", name), ("domain_id", domain_id), ("parent_id", parent_id)):
        if value is not None:
            sql += " AND %s = ?" % column
            args.append(value)
    if enabled is not None:
        sql += " AND enabled = ?"
        args.append(int(enabled))
    if ids is not None:
        sql += " AND id IN (SELECT value FROM json_each(?))"
        args.append(json.dumps(sorted(ids)))
    return db.execute(sql + " ORDER BY name, id", args).fetchall()


def extra(row):
    """The extra attributes of a project row."""
    return json.loads(row["extra"])


def _conflict(name, project_id):
    return errors.Conflict(
        "Conflict occurred attempting to store project - it is not"
        " permitted to have two projects with either the same name or same"
        " id in the same domain: name is %s, project id %s." % (name, project_id)
    )


def _extra(data):
    return {k: v for k, v in data.items() if k not in PROJECT_KEYS}


def create(db, data, domain_id):
    """Create a project from a checked ``project`` body; ``domain_id`` is
    the one to use when the body gives none (keystone: the token's domain
    scope, else the default domain). Returns the row."""
    project_id = uuid.uuid4().hex
    domain_id = data.get("domain_id") or domain_id
    domain = find_domain(db, {"id": domain_id})
    if domain is None:
        # keystone turns DomainNotFound into a 400 here
        raise errors.BadRequest("Could not find domain: %s." % domain_id)
    parent_id = data.get("parent_id") or domain_id
    if parent_id != domain_id:
        parent = db.execute("SELECT * FROM projects WHERE id = ?", (parent_id,)).fetchone()
        if parent is None:
            raise errors.BadRequest("Could not find project: %s." % parent_id)
        if parent["domain_id"] != domain_id:
            raise errors.BadRequest(
                "Cannot create project, since it specifies its domain_id %s,"
                " but specifies a parent in a different domain (%s)."
                % (domain_id, parent["domain_id"])
            )
        for ancestor in [parent] + ancestors(db, parent):
            if not ancestor["enabled"]:
                raise errors.BadRequest(
                    "cannot create a project in a branch containing a"
                    " disabled project: %s" % ancestor["id"]
                )
    elif not domain["enabled"]:
        raise errors.BadRequest(
            "cannot create a project in a branch containing a disabled project: %s" % domain_id
        )
    name = data["name"].strip()
    try:
        db.execute(
            "INSERT INTO projects (id, name, domain_id, enabled, description,"
            " parent_id, tags, extra) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                project_id,
                name,
                domain_id,
                int(data["enabled"]),
                data.get("description") or "",
                parent_id,
                json.dumps(data.get("tags") or []),
                json.dumps(_extra(data)),
            ),
        )
    except sqlite3.IntegrityError:
        raise _conflict(name, project_id) from None
    return get(db, project_id)


def ancestors(db, row):
    """The project rows above ``row`` (its parent first), domains excluded."""
    found, seen = [], {row["id"]}
    while row["parent_id"] and row["parent_id"] != row["domain_id"]:
        row = db.execute("SELECT * FROM projects WHERE id = ?", (row["parent_id"],)).fetchone()
        if row is None or row["id"] in seen:
            break
        seen.add(row["id"])
        found.append(row)
    return found


def children(db, project_id):
    return db.execute(
        "SELECT * FROM projects WHERE parent_id = ? AND id != domain_id ORDER BY name, id",
        (project_id,),
    ).fetchall()


def subtree_ids(db, project_id):
    """The ids of ``project_id`` and every project under it."""
    ids, pending = [project_id], [project_id]
    while pending:
        for row in children(db, pending.pop()):
            if row["id"] not in ids:
                ids.append(row["id"])
                pending.append(row["id"])
    return ids


def update(db, project_id, data):
    """Apply a checked ``project`` update body; the updated row.

    Keystone's rules: no change of id, domain, parent or ``is_domain``; a
    project is disabled only when its subtree is, enabled only under
    enabled parents; a name unique in the domain (keystone 30 answers 500
    to a duplicate rename; 409 here, create's text). Disabling revokes the
    tokens scoped to the project.
    """
    row = get(db, project_id)
    if data.get("id") is not None and data["id"] != project_id:
        raise errors.BadRequest("Cannot change ID")
    if "domain_id" in data and data["domain_id"] != row["domain_id"]:
        raise errors.BadRequest("Cannot change Domain ID")
    if "parent_id" in data and data["parent_id"] != row["parent_id"]:
        raise errors.Forbidden("Update of `parent_id` is not allowed.")
    if "is_domain" in data and data["is_domain"] not in (False, None):
        raise errors.BadRequest("Update of `is_domain` is not allowed.")
    enabled = bool(row["enabled"])
    if "enabled" in data:
        enabled = data["enabled"]
        if enabled and not row["enabled"] and any(not a["enabled"] for a in ancestors(db, row)):
            raise errors.Forbidden(
                "Cannot enable project %s since it has disabled parents" % project_id
            )
        if (
            not enabled
            and row["enabled"]
            and any(
                db.execute("SELECT 1 FROM projects WHERE id = ? AND enabled", (pid,)).fetchone()
                for pid in subtree_ids(db, project_id)[1:]
            )
        ):
            raise errors.Forbidden(
                "Cannot disable project %s since its subtree contains"
                " enabled projects." % project_id
            )
    name = data["name"].strip() if "name" in data else row["name"]
    description = row["description"]
    if "description" in data:
        description = data["description"] or ""
    tags = data["tags"] if "tags" in data else json.loads(row["tags"])
    merged = dict(extra(row), **_extra(data))
    try:
        db.execute(
            "UPDATE projects SET name = ?, enabled = ?, description = ?,"
            " tags = ?, extra = ? WHERE id = ?",
            (name, int(enabled), description, json.dumps(tags), json.dumps(merged), project_id),
        )
    except sqlite3.IntegrityError:
        raise _conflict(name, project_id) from None
    if row["enabled"] and not enabled:
        db.execute("UPDATE tokens SET revoked = 1 WHERE project_id = ?", (project_id,))
    return get(db, project_id)


def delete(db, project_id):
    """Delete a leaf project (403 otherwise, keystone's text)."""
    get(db, project_id)
    if children(db, project_id):
        raise errors.Forbidden(
            "Cannot delete the project %s since it is not a leaf in the"
            " hierarchy. Use the cascade option if you want to delete a"
            " whole subtree." % project_id
        )
    delete_rows(db, [project_id])


def delete_rows(db, project_ids):
    """Delete projects and what hangs on them: role assignments,
    application credentials, tokens (a token scoped to a deleted project,
    the caller's own included, is invalid from then on: 401). Users whose
    default project it was keep its id, as in keystone."""
    marks = ",".join("?" * len(project_ids))
    db.execute(
        "DELETE FROM role_assignments WHERE target_type = 'project' AND target_id IN (%s)" % marks,
        project_ids,
    )
    db.execute("DELETE FROM application_credentials WHERE project_id IN (%s)" % marks, project_ids)
    db.execute("DELETE FROM tokens WHERE project_id IN (%s)" % marks, project_ids)
    for project_id in reversed(project_ids):  # leaves first
        db.execute("DELETE FROM projects WHERE id = ?", (project_id,))
