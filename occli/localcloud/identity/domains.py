"""Domains: the admin API's rules (keystone keeps a domain as a project
acting as a domain, hence the texts naming projects).

A domain must be disabled before it is deleted; deleting it deletes its
projects, users and the role assignments on it. Disabling it revokes the
tokens scoped to it or to its projects and those of its users.
"""

import json
import sqlite3
import uuid

from occli.localcloud import errors
from occli.localcloud.identity import projects
from occli.localcloud.identity import users


def not_found(domain_id):
    return errors.NotFound("Could not find domain: %s." % domain_id)


def get(db, domain_id):
    row = db.execute("SELECT * FROM domains WHERE id = ?", (domain_id,)).fetchone()
    if row is None:
        raise not_found(domain_id)
    return row


def find(db: sqlite3.Connection, domain_id: str | None) -> sqlite3.Row | None:
    """The domain row ``domain_id``, or None."""
    return db.execute("SELECT * FROM domains WHERE id = ?", (domain_id,)).fetchone()


def select(db, name=None, enabled=None, only=None):
    """Domain rows matching the filters that are not None (``only``: that
    domain id), by name."""
    sql, args = "SELECT * FROM domains WHERE 1", []
    if name is not None:
        sql += " AND name = ?"
        args.append(name)
    if enabled is not None:
        sql += " AND enabled = ?"
        args.append(int(enabled))
    if only is not None:
        sql += " AND id = ?"
        args.append(only)
    return db.execute(sql + " ORDER BY name, id", args).fetchall()


def _conflict(name):
    return errors.Conflict(
        "Conflict occurred attempting to store project - it is not permitted"
        " to have two projects acting as domains with the same name: %s." % name
    )


def create(db, data):
    """Create a domain from a checked ``domain`` body; the row."""
    domain_id = data.get("explicit_domain_id") or uuid.uuid4().hex
    name = data["name"].strip()
    if db.execute("SELECT 1 FROM domains WHERE id = ?", (domain_id,)).fetchone():
        raise errors.Conflict(
            "Conflict occurred attempting to store project"
            " - Duplicate entry found with ID %s." % domain_id
        )
    try:
        db.execute(
            "INSERT INTO domains (id, name, enabled, description, tags) VALUES (?, ?, ?, ?, ?)",
            (
                domain_id,
                name,
                int(data["enabled"]),
                data.get("description") or "",
                json.dumps(data.get("tags") or []),
            ),
        )
    except sqlite3.IntegrityError:
        raise _conflict(name) from None
    return get(db, domain_id)


def update(db, domain_id, data):
    """Apply a checked ``domain`` update body; the updated row."""
    row = get(db, domain_id)
    name = data["name"].strip() if "name" in data else row["name"]
    enabled = data["enabled"] if "enabled" in data else bool(row["enabled"])
    description = row["description"]
    if "description" in data:
        description = data["description"] or ""
    tags = data["tags"] if "tags" in data else json.loads(row["tags"])
    try:
        db.execute(
            "UPDATE domains SET name = ?, enabled = ?, description = ?, tags = ? WHERE id = ?",
            (name, int(enabled), description, json.dumps(tags), domain_id),
        )
    except sqlite3.IntegrityError:
        raise _conflict(name) from None
    if row["enabled"] and not enabled:
        revoke_tokens(db, domain_id)
    return get(db, domain_id)


def revoke_tokens(db, domain_id):
    """Revoke the tokens scoped to a domain or its projects, and those of
    its users."""
    db.execute(
        "UPDATE tokens SET revoked = 1 WHERE domain_id = ?"
        " OR project_id IN (SELECT id FROM projects WHERE domain_id = ?)"
        " OR user_id IN (SELECT id FROM users WHERE domain_id = ?)",
        (domain_id, domain_id, domain_id),
    )


def delete(db, domain_id):
    """Delete a disabled domain with its projects, users and assignments."""
    row = get(db, domain_id)
    if row["enabled"]:
        raise errors.Forbidden("Cannot delete a domain that is enabled, please disable it first.")
    roots = [
        r["id"]
        for r in db.execute(
            "SELECT id FROM projects WHERE domain_id = ? AND parent_id = ?", (domain_id, domain_id)
        )
    ]
    ids = [pid for root in roots for pid in projects.subtree_ids(db, root)]
    # any project of the domain a broken hierarchy left out
    ids += [
        r["id"]
        for r in db.execute("SELECT id FROM projects WHERE domain_id = ?", (domain_id,))
        if r["id"] not in ids
    ]
    if ids:
        projects.delete_rows(db, ids)
    for user in db.execute("SELECT id FROM users WHERE domain_id = ?", (domain_id,)).fetchall():
        users.delete_rows(db, user["id"])
    db.execute(
        "DELETE FROM role_assignments WHERE target_type = 'domain' AND target_id = ?", (domain_id,)
    )
    db.execute("DELETE FROM tokens WHERE domain_id = ?", (domain_id,))
    db.execute("DELETE FROM domains WHERE id = ?", (domain_id,))
