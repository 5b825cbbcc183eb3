"""Server vm/task states, the derived ``status`` and lazy state progress.

An operation (build, reboot, resize, …) is stored on the server as a
*pending* plan: the task states it walks through and the column values it
ends with. Nothing runs in the background: whenever a request reads a server,
:func:`advance` moves it along the plan by the time elapsed since the
operation started (``config.build_time`` seconds for the whole plan) and
:class:`Progress` persists the step in a short optimistic write.
"""

import json

from occli.localcloud import common

NOSTATE, RUNNING, PAUSED, SHUTDOWN, CRASHED, SUSPENDED = 0, 1, 3, 4, 6, 7

_RESIZING = ("resize_prep", "resize_migrating", "resize_migrated", "resize_finish")
_REBUILDING = ("rebuilding", "rebuild_block_device_mapping", "rebuild_spawning")

STATE_MAP = {
    "active": dict(
        {
            "default": "ACTIVE",
            "rebooting": "REBOOT",
            "reboot_pending": "REBOOT",
            "reboot_started": "REBOOT",
            "rebooting_hard": "HARD_REBOOT",
            "reboot_pending_hard": "HARD_REBOOT",
            "reboot_started_hard": "HARD_REBOOT",
            "updating_password": "PASSWORD",
            "migrating": "MIGRATING",
        },
        **{t: "REBUILD" for t in _REBUILDING},
        **{t: "RESIZE" for t in _RESIZING},
    ),
    "building": {"default": "BUILD"},
    "stopped": dict(
        {"default": "SHUTOFF"},
        **{t: "RESIZE" for t in _RESIZING},
        **{t: "REBUILD" for t in _REBUILDING},
    ),
    "resized": {"default": "VERIFY_RESIZE", "resize_reverting": "REVERT_RESIZE"},
    "paused": {"default": "PAUSED", "migrating": "MIGRATING"},
    "suspended": {"default": "SUSPENDED"},
    "rescued": {"default": "RESCUE"},
    "error": dict({"default": "ERROR"}, **{t: "REBUILD" for t in _REBUILDING}),
    "deleted": {"default": "DELETED"},
    "soft-delete": {"default": "SOFT_DELETED"},
    "shelved": {"default": "SHELVED"},
    "shelved_offloaded": {"default": "SHELVED_OFFLOADED"},
}

STATUSES = frozenset(s for task_map in STATE_MAP.values() for s in task_map.values())

PROGRESS_STATUSES = ("ACTIVE", "BUILD", "REBUILD", "RESIZE", "VERIFY_RESIZE", "MIGRATING")
FAULT_STATUSES = ("ERROR", "DELETED")

# ``end`` value of ``launched_at`` meaning "when the operation finishes"
LAUNCH_NOW = "$completion-time"

BUILD_TASKS = ["scheduling", "block_device_mapping", "networking", "spawning"]
# a build the scheduler cannot place never leaves ``scheduling``
SCHEDULING_TASKS = ["scheduling"]


def status(vm_state, task_state):
    """Nova's ``common.status_from_state``."""
    task_map = STATE_MAP.get(vm_state)
    if task_map is None:
        return "UNKNOWN"
    return task_map.get(task_state, task_map["default"])


def start(server, tasks, end, progress=False, fault=None, failure=None, duration=None):
    """Begin an operation on ``server`` (a dict of columns), in place.

    ``tasks``: the task states walked through; ``end``: column values set
    when the operation finishes (``task_state`` becomes None). With
    ``progress`` the ``progress`` column rises from 0 while the operation
    runs (as a driver reporting progress would) and is 0 again once it
    finishes, as nova's compute manager leaves it. ``fault``
    (``{"code", "message", "details"?}``) is recorded when the operation
    finishes, ``created`` being that moment. ``failure``: why an operation
    nova's API accepted fails in its conductor (the text its failed
    instance action event records, e.g. a NoValidHost's). ``duration``:
    the operation's length in seconds (default: the build time
    :func:`advance` is given).
    """
    server["task_state"] = tasks[0] if tasks else None
    if progress:
        server["progress"] = 0
    plan = {"tasks": tasks, "end": end, "progress": progress}
    if fault is not None:
        plan["fault"] = fault
    if failure is not None:
        plan["failure"] = failure
    if duration is not None:
        plan["duration"] = duration
    server["pending"] = json.dumps(plan)
    server["task_started_at"] = common.utcnow().timestamp()


def advance(server, build_time):
    """Move ``server`` along its pending operation; True if anything changed."""
    if not server.get("pending"):
        return False
    plan = json.loads(server["pending"])
    # a plan may carry its own length (a live migration kept running)
    build_time = plan.get("duration", build_time)
    now = common.utcnow().timestamp()
    elapsed = max(0.0, now - server["task_started_at"])
    before = dict(server)
    if build_time <= 0 or elapsed >= build_time:
        finished = server["task_started_at"] + max(build_time, 0)
        server.update(plan["end"])
        server["task_state"] = None
        server["pending"] = None
        server["task_started_at"] = None
        if plan["progress"]:
            server["progress"] = 0
        if plan["end"].get("launched_at") == LAUNCH_NOW:
            server["launched_at"] = common.iso_naive_micro(common.from_timestamp(finished))
        server["updated_at"] = common.iso_naive_micro(common.from_timestamp(finished))
        if plan.get("fault"):
            server["fault"] = json.dumps(
                dict(plan["fault"], created=common.iso_z(common.from_timestamp(finished)))
            )
    else:
        fraction = elapsed / build_time
        tasks = plan["tasks"]
        if tasks:
            server["task_state"] = tasks[min(len(tasks) - 1, int(fraction * len(tasks)))]
        if plan["progress"]:
            server["progress"] = min(99, int(fraction * 100))
    return server != before


class Progress:
    """Advances servers when they are read and persists what changed.

    ``store`` is the cloud's store, ``config`` its configuration (read for
    ``build_time`` on each use).
    """

    def __init__(self, store, config):
        self.store = store
        self.config = config

    def advance(self, servers):
        """Move each server dict along its plan, in place; returns them."""
        advanced = []
        for server in servers:
            before = dict(server)
            if advance(server, self.config.build_time):
                advanced.append((before, server))
        self._persist(advanced)
        return servers

    def _persist(self, advanced):
        """Write ``[(as read, advanced)]`` servers in a write transaction
        (the request's own in a write request, else a short one).

        Optimistic: a row whose plan changed since it was read (an operation
        started, ended or the server was deleted meanwhile) is left alone;
        the caller still answers from the values it computed.
        """
        if not advanced:
            return
        with self.store.transaction() as db:
            for before, after in advanced:
                changed = [c for c in after if after[c] != before[c]]
                cursor = db.execute(
                    "UPDATE servers SET %s WHERE seq = ? AND pending IS ?"
                    " AND task_started_at IS ?" % ", ".join("%s = ?" % c for c in changed),
                    [after[c] for c in changed]
                    + [before["seq"], before["pending"], before["task_started_at"]],
                )
                if cursor.rowcount and after.get("deleted") and not before.get("deleted"):
                    _reclaimed(db, dict(after))


def _reclaimed(db, server):
    """A soft-deleted server just reclaimed: nova's reclaim deletes it as a
    delete does, its ports released and its volumes detached (deleted when
    their mapping says ``delete_on_termination``)."""
    # the release rules import this module
    from occli.localcloud.compute import networks
    from occli.localcloud.compute import volume_attach

    networks.release(db, server)
    volume_attach.release(db, server)
    db.execute("UPDATE servers SET ports = ? WHERE seq = ?", (server["ports"], server["seq"]))
