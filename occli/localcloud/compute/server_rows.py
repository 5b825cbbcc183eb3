"""Server rows as stored, read without a caller's view and without
advancing them: what the API's instance-action recording and instance
mapping check ask before and after a handler runs, and the clock of
``LocalCloud.advance_server`` (the test plugin's). The caller's view of a
server (its project, advanced to now) is :func:`.servers.get`."""

import sqlite3


def stored(db: sqlite3.Connection, server_id: str | None) -> dict | None:
    """The row of server ``server_id`` (deleted or not), or None."""
    row = db.execute("SELECT * FROM servers WHERE id = ?", (server_id,)).fetchone()
    return dict(row) if row is not None else None


def live(db: sqlite3.Connection, server_id: str) -> dict | None:
    """The row of server ``server_id`` if it is not deleted, or None."""
    row = db.execute("SELECT * FROM servers WHERE id = ? AND deleted = 0", (server_id,)).fetchone()
    return dict(row) if row is not None else None


def host(db: sqlite3.Connection, server_id: str | None) -> str | None:
    """The compute host of server ``server_id`` (deleted or not), or None."""
    row = db.execute("SELECT host FROM servers WHERE id = ?", (server_id,)).fetchone()
    return row["host"] if row else None


def ever_existed(db: sqlite3.Connection, server_id: str) -> bool:
    """Whether server ``server_id`` exists or was deleted: nova keeps a
    deleted instance's mapping, an id never created has none."""
    return db.execute("SELECT 1 FROM servers WHERE id = ?", (server_id,)).fetchone() is not None


def hurry(db: sqlite3.Connection, server_id: str, seconds: float) -> None:
    """Move the start of live server ``server_id``'s pending operation
    ``seconds`` back, as if that much more time had passed (the next read
    advances it that far); nothing when it has none."""
    db.execute(
        "UPDATE servers SET task_started_at = task_started_at - ?"
        " WHERE id = ? AND deleted = 0 AND pending IS NOT NULL",
        (float(seconds), server_id),
    )
