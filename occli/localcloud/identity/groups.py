"""Groups: the admin API's rules (keystone's ``identity`` manager for
groups: create, update, delete, list) and membership (add, check, remove,
a group's users, a user's groups).

A group's names are unique within its domain; a user and a group of
different domains may be joined (keystone's SQL backend does not mind).
Removing a user from a group revokes the user's tokens, and deleting a
group that has role assignments revokes its members' tokens, as keystone's
``_persist_revocation_event_for_user`` does. The group's roles reach its
members through :func:`occli.localcloud.identity.assignments.role_names`.
"""

import json
import sqlite3
import uuid

from occli.localcloud import errors
from occli.localcloud.identity import projects

# attributes of a group that are columns (or never stored); any other is
# an extra one, shown at the top level, as keystone's ``extra``
GROUP_KEYS = ("id", "name", "domain_id", "description", "links")


def not_found(group_id: str) -> errors.NotFound:
    return errors.NotFound("Could not find group: %s." % group_id)


def get(db: sqlite3.Connection, group_id: str) -> sqlite3.Row:
    """The group row ``group_id``, or NotFound (keystone's text)."""
    row = find(db, group_id)
    if row is None:
        raise not_found(group_id)
    return row


def find(db: sqlite3.Connection, group_id: str | None) -> sqlite3.Row | None:
    """The group row ``group_id``, or None."""
    return db.execute("SELECT * FROM groups WHERE id = ?", (group_id,)).fetchone()


def select(
    db: sqlite3.Connection,
    name: str | None = None,
    domain_id: str | None = None,
    user_id: str | None = None,
) -> list[sqlite3.Row]:
    """Group rows matching the filters that are not None (``user_id``:
    the groups that user is a member of), by name."""
    sql, args = "SELECT g.* FROM groups g WHERE 1", []
    for column, value in (("g.name", name), ("g.domain_id", domain_id)):
        if value is not None:
            sql += " AND %s = ?" % column
            args.append(value)
    if user_id is not None:
        sql += " AND g.id IN (SELECT group_id FROM user_group_membership WHERE user_id = ?)"
        args.append(user_id)
    return db.execute(sql + " ORDER BY g.name, g.id", args).fetchall()


def extra(row: sqlite3.Row) -> dict:
    return json.loads(row["extra"])


def _extra(data: dict) -> dict:
    return {k: v for k, v in data.items() if k not in GROUP_KEYS}


def _conflict(name: str, domain_id: str) -> errors.Conflict:
    return errors.Conflict(
        "Conflict occurred attempting to store group - Duplicate entry"
        " found with name %s at domain ID %s." % (name, domain_id)
    )


def create(db: sqlite3.Connection, data: dict, domain_id: str) -> sqlite3.Row:
    """Create a group from a checked ``group`` body; ``domain_id`` is the
    one to use when the body gives none. Returns the row."""
    domain_id = data.get("domain_id") or domain_id
    if projects.find_domain(db, {"id": domain_id}) is None:
        raise errors.NotFound("Could not find domain: %s." % domain_id)
    group_id = uuid.uuid4().hex
    try:
        db.execute(
            "INSERT INTO groups (id, name, domain_id, description, extra) VALUES (?, ?, ?, ?, ?)",
            # keystone's create_group: ``group.setdefault("description", "")``
            (
                group_id,
                data["name"],
                domain_id,
                data.get("description", ""),
                json.dumps(_extra(data)),
            ),
        )
    except sqlite3.IntegrityError:
        raise _conflict(data["name"], domain_id) from None
    return get(db, group_id)


def update(db: sqlite3.Connection, group_id: str, data: dict) -> sqlite3.Row:
    """Apply a checked ``group`` update body; the updated row (keystone:
    the id and the domain cannot change)."""
    row = get(db, group_id)
    if data.get("id") is not None and data["id"] != group_id:
        raise errors.BadRequest("Cannot change ID")
    if "domain_id" in data and data["domain_id"] != row["domain_id"]:
        raise errors.BadRequest("Cannot change Domain ID")
    name = data.get("name", row["name"])
    description = data["description"] if "description" in data else row["description"]
    merged = dict(extra(row), **_extra(data))
    try:
        db.execute(
            "UPDATE groups SET name = ?, description = ?, extra = ? WHERE id = ?",
            (name, description, json.dumps(merged), group_id),
        )
    except sqlite3.IntegrityError:
        raise _conflict(name, row["domain_id"]) from None
    return get(db, group_id)


def delete(db: sqlite3.Connection, group_id: str) -> None:
    """Delete a group with its memberships and role assignments; its
    members' tokens are revoked if it had any role."""
    get(db, group_id)
    had_roles = db.execute(
        "SELECT 1 FROM group_role_assignments WHERE group_id = ? LIMIT 1", (group_id,)
    ).fetchone()
    if had_roles:
        db.execute(
            "UPDATE tokens SET revoked = 1 WHERE user_id IN"
            " (SELECT user_id FROM user_group_membership WHERE group_id = ?)",
            (group_id,),
        )
    db.execute("DELETE FROM group_role_assignments WHERE group_id = ?", (group_id,))
    db.execute("DELETE FROM user_group_membership WHERE group_id = ?", (group_id,))
    db.execute("DELETE FROM groups WHERE id = ?", (group_id,))


# -- membership ------------------------------------------------------------------


def _not_member(user_id: str, group_id: str) -> errors.NotFound:
    return errors.NotFound("User '%s' not found in group '%s'" % (user_id, group_id))


def member_ids(db: sqlite3.Connection, group_id: str) -> set[str]:
    """The ids of the group's users (NotFound for an unknown group)."""
    get(db, group_id)
    return {
        r["user_id"]
        for r in db.execute(
            "SELECT user_id FROM user_group_membership WHERE group_id = ?", (group_id,)
        )
    }


def add_user(db: sqlite3.Connection, group_id: str, user_id: str) -> None:
    """Make the user a member (idempotent); the caller has checked both
    exist."""
    db.execute(
        "INSERT OR IGNORE INTO user_group_membership (user_id, group_id) VALUES (?, ?)",
        (user_id, group_id),
    )


def check_user(db: sqlite3.Connection, group_id: str, user_id: str) -> None:
    """NotFound (keystone's text) unless the user is a member."""
    if (
        db.execute(
            "SELECT 1 FROM user_group_membership WHERE user_id = ? AND group_id = ?",
            (user_id, group_id),
        ).fetchone()
        is None
    ):
        raise _not_member(user_id, group_id)


def remove_user(db: sqlite3.Connection, group_id: str, user_id: str) -> None:
    """End a membership and revoke the user's tokens (its roles are
    computed again at its next login); NotFound if it was no member:
    the group's or the user's own 404 when either does not exist."""
    deleted = db.execute(
        "DELETE FROM user_group_membership WHERE user_id = ? AND group_id = ?",
        (user_id, group_id),
    ).rowcount
    if not deleted:
        get(db, group_id)
        if db.execute("SELECT 1 FROM users WHERE id = ?", (user_id,)).fetchone() is None:
            raise errors.NotFound("Could not find user: %s." % user_id)
        raise _not_member(user_id, group_id)
    db.execute("UPDATE tokens SET revoked = 1 WHERE user_id = ?", (user_id,))
