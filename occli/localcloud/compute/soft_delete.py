"""Soft delete, ``restore`` and ``forceDelete``, as nova with a
``reclaim_instance_interval`` (``Config.reclaim_instance_interval``).

With an interval above 0, ``DELETE /servers/{id}`` of a server that ever
ran leaves it ``SOFT_DELETED`` (powered off, ``deleted_at`` set); it can be
restored, force-deleted, or is reclaimed (deleted) once the interval has
passed: a pending plan of that length whose end is the deletion, advanced
lazily when the server is read like any other operation. With 0 (nova's
default) a delete is immediate and nothing is ever soft-deleted.
"""

from occli.localcloud import common
from occli.localcloud.compute import server_rows
from occli.localcloud.compute import servers
from occli.localcloud.compute import states

SOFT_DELETED = "soft-delete"


def delete(db, caller, server, interval):
    """``DELETE``: a soft delete when ``interval`` > 0 and the server ever
    ran (nova falls back to a real delete for one that never did)."""
    if interval > 0 and server["launched_at"]:
        soft_delete(db, caller, server, interval)
    else:
        servers.delete(db, caller, server)


def soft_delete(db, caller, server, interval):
    """Nova's ``soft_delete``: SOFT_DELETED now, reclaimed after ``interval``."""
    server_rows.check_lock(caller, server)
    now = common.utcnow()
    reclaimed = common.iso_naive_micro(common.from_timestamp(now.timestamp() + interval))
    server.update(
        {
            "vm_state": SOFT_DELETED,
            "power_state": states.SHUTDOWN,
            "deleted_at": common.iso_naive_micro(now),
            "terminated_at": common.iso_naive_micro(now),
        }
    )
    states.start(
        server,
        [],
        {
            "vm_state": "deleted",
            "power_state": states.NOSTATE,
            "deleted": 1,
            "deleted_at": reclaimed,
        },
        duration=interval,
    )
    server_rows.touch(server)
    server_rows.save(db, server)


def restore(db, caller, server):
    """Nova's ``restore``: a SOFT_DELETED server powers on again."""
    server_rows.check_lock(caller, server)
    server_rows.check_state(server, "restore", (SOFT_DELETED,))
    server["deleted_at"] = None
    server["terminated_at"] = None
    end = {"vm_state": "active", "power_state": states.RUNNING}
    if server["host"]:
        states.start(server, ["restoring"], end)
    else:
        server.update(end, pending=None, task_started_at=None, task_state=None)
    server_rows.touch(server)
    server_rows.save(db, server)


def force_delete(db, caller, server):
    """Nova's ``force_delete``: any vm_state, no task under way."""
    server_rows.check_lock(caller, server)
    server_rows.check_state(server, "forceDelete", None, must_have_launched=False)
    servers.delete(db, caller, server)
