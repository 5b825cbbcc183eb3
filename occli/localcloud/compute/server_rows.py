"""Server rows: the lowest layer of compute's rules, which the lifecycle
(:mod:`.servers`, :mod:`.build`) and the operations (:mod:`.actions`,
:mod:`.moves`, :mod:`.volume_attach`, …) both build on, so neither imports
the other to reach a row.

Rows as stored, read without a caller's view and without advancing them
(what the API's instance-action recording and instance mapping check ask
before and after a handler runs, and the clock of
``LocalCloud.advance_server``, the test plugin's); a row written back
(:func:`save`, :func:`touch`); the checks every operation makes first,
nova's ``check_instance_lock`` and ``check_instance_state``. The caller's
view of a server (its project, advanced to now) is :func:`.servers.get`."""

import sqlite3
from collections.abc import Iterable

from occli.localcloud import common
from occli.localcloud import errors

_COLUMNS = None


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


def keep_boot_roles(db: sqlite3.Connection, roles: Iterable[str], rows: list[dict]) -> None:
    """Keep ``roles`` (the booting request's) as the ``boot_roles`` of the
    ``rows`` placed on a host, comma-joined: nova's compute manager puts
    them in the instance's system metadata as it builds it
    (``_build_and_run_instance``), so an instance never scheduled has none;
    its snapshots copy them (:mod:`.snapshots`)."""
    joined = ",".join(roles)
    db.executemany(
        "INSERT OR REPLACE INTO compute_boot_roles (server_id, roles) VALUES (?, ?)",
        [(row["id"], joined) for row in rows if row["host"]],
    )


def forget_boot_roles(db: sqlite3.Connection, server_ids: Iterable[str]) -> None:
    """Drop the ``boot_roles`` of servers whose rows go."""
    db.executemany(
        "DELETE FROM compute_boot_roles WHERE server_id = ?", [(i,) for i in server_ids]
    )


def boot_roles(db: sqlite3.Connection, server_id: str) -> str | None:
    """The ``boot_roles`` of a server (None: built before they were kept)."""
    row = db.execute(
        "SELECT roles FROM compute_boot_roles WHERE server_id = ?", (server_id,)
    ).fetchone()
    return None if row is None else row[0]


def instance_name(seq):
    return "instance-%08x" % seq


def servers_on_host(db, host):
    """How many (not deleted) servers run on compute host ``host``."""
    return db.execute(
        "SELECT COUNT(*) FROM servers WHERE host = ? AND deleted = 0", (host,)
    ).fetchone()[0]


def _columns(db):
    global _COLUMNS
    if _COLUMNS is None:
        _COLUMNS = [
            r["name"] for r in db.execute("PRAGMA table_info(servers)") if r["name"] != "seq"
        ]
    return _COLUMNS


def save(db, server):
    """Write every column of ``server`` (a dict from :func:`.servers.get`) back."""
    columns = _columns(db)
    db.execute(
        "UPDATE servers SET %s WHERE seq = ?" % ", ".join("%s = ?" % c for c in columns),
        [server[c] for c in columns] + [server["seq"]],
    )


def touch(server):
    server["updated_at"] = common.iso_naive_micro(common.utcnow())


# -- the checks an operation makes first -----------------------------------------


def check_lock(caller, server):
    """Nova's ``check_instance_lock``: 409 for non-admins on a locked server."""
    if server["locked_by"] is not None and not caller.is_admin:
        raise errors.Conflict("Instance %s is locked" % server["id"])


def check_state(server, action, vm_states, task_states=(None,), must_have_launched=True):
    """409 ``Cannot '<action>' instance <id> while it is in <attr> <value>``."""
    for attr, allowed in (("vm_state", vm_states), ("task_state", task_states)):
        if allowed is not None and server[attr] not in allowed:
            raise _invalid_state(action, server, attr, server[attr])
    if must_have_launched and not server["launched_at"]:
        raise _invalid_state(action, server, "launched_at", None)


def _invalid_state(action, server, attr, value):
    # nova common.raise_http_conflict_for_instance_invalid_state: without a
    # state value (never launched: launched_at None) the generic text is used
    if value is None:
        return errors.Conflict(
            "Instance %s is in an invalid state for '%s'" % (server["id"], action)
        )
    return errors.Conflict(
        "Cannot '%s' instance %s while it is in %s %s" % (action, server["id"], attr, value)
    )
