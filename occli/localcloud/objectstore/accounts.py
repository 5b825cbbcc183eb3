"""Swift accounts (``AUTH_<project_id>``): metadata and usage.

An account row exists once something was written to it; before that the
account reads as empty (no metadata, created now).
"""

import json

from occli.localcloud import common


def metadata(db, account):
    """The account's metadata (lower-case names, e.g. ``temp-url-key``)."""
    row = db.execute(
        "SELECT metadata FROM swift_accounts WHERE account = ?", (account,)
    ).fetchone()
    return json.loads(row["metadata"]) if row else {}


def ensure(db, account):
    """Create the account row if it does not exist yet."""
    db.execute(
        "INSERT OR IGNORE INTO swift_accounts (account, metadata, created_at) VALUES (?, '{}', ?)",
        (account, common.utcnow().timestamp()),
    )


def update_metadata(db, account, set_, remove):
    """Drop the names in ``remove``, then set ``set_`` (an empty value
    removes the name too, as in Swift)."""
    ensure(db, account)
    meta = metadata(db, account)
    for key in remove:
        meta.pop(key, None)
    for key, value in set_.items():
        if value:
            meta[key] = value
        else:
            meta.pop(key, None)
    db.execute(
        "UPDATE swift_accounts SET metadata = ? WHERE account = ?", (json.dumps(meta), account)
    )


def summary(db, account):
    """The account's ``metadata``, ``created_at``, ``object_count``,
    ``bytes_used`` and ``containers`` (rows with ``name``, ``count``,
    ``bytes``, ``last_modified``; by name)."""
    row = db.execute("SELECT * FROM swift_accounts WHERE account = ?", (account,)).fetchone()
    stats = db.execute(
        "SELECT COUNT(*) AS n, COALESCE(SUM(size), 0) AS bytes"
        " FROM swift_objects WHERE account = ?",
        (account,),
    ).fetchone()
    containers = db.execute(
        "SELECT c.name, c.created_at, COUNT(o.name) AS count,"
        " COALESCE(SUM(o.size), 0) AS bytes,"
        " MAX(COALESCE(o.timestamp, c.created_at), c.created_at)"
        " AS last_modified"
        " FROM swift_containers c LEFT JOIN swift_objects o"
        " ON o.account = c.account AND o.container = c.name"
        " WHERE c.account = ? GROUP BY c.name ORDER BY c.name",
        (account,),
    ).fetchall()
    return {
        "metadata": json.loads(row["metadata"]) if row else {},
        "created_at": (row["created_at"] if row else common.utcnow().timestamp()),
        "object_count": stats["n"],
        "bytes_used": stats["bytes"],
        "containers": containers,
    }
