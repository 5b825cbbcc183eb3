"""Server vm/task states, the derived ``status`` and lazy state progress.

An operation (build, reboot, resize, …) is stored on the server as a
pending plan of the shared engine (:mod:`occli.localcloud.progress`): the
task states it walks through and the column values it ends with. Whenever a
request reads a server, :func:`advance` moves it along the plan by the time
elapsed since the operation started (``config.build_time`` seconds for the
whole plan) and :class:`Progress` persists the step. What is compute's here:
``task_state`` and ``progress`` while it runs; ``launched_at``, the fault,
and for a reclaimed server the releases registered with :func:`on_release`
when it ends.
"""

import json
from collections.abc import Callable
from typing import Any

from occli.localcloud import common
from occli.localcloud import progress as engine

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


def start(
    server: dict,
    tasks: list[str],
    end: dict,
    progress: bool = False,
    fault: dict | None = None,
    failure: str | None = None,
    duration: float | None = None,
) -> None:
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
    details: dict[str, Any] = {"progress": progress}
    if fault is not None:
        details["fault"] = fault
    if failure is not None:
        details["failure"] = failure
    engine.start(server, end, tasks, duration, **details)


def advance(server: dict, build_time: float) -> bool:
    """Move ``server`` along its pending operation; True if anything changed."""
    return engine.advance(server, build_time, _step, _finish)


def _step(server: dict, plan: dict, fraction: float) -> None:
    """A running operation: its task state and reported progress."""
    tasks = plan["tasks"]
    if tasks:
        server["task_state"] = tasks[min(len(tasks) - 1, int(fraction * len(tasks)))]
    if plan["progress"]:
        server["progress"] = min(99, int(fraction * 100))


def _finish(server: dict, plan: dict, finished: float) -> None:
    """An operation that just ended at ``finished`` (POSIX seconds)."""
    server["task_state"] = None
    if plan["progress"]:
        server["progress"] = 0
    if plan["end"].get("launched_at") == LAUNCH_NOW:
        server["launched_at"] = common.iso_naive_micro(common.from_timestamp(finished))
    if plan.get("fault"):
        server["fault"] = json.dumps(
            dict(plan["fault"], created=common.iso_z(common.from_timestamp(finished)))
        )


Release = Callable[[Any, dict], None]
_RELEASES: list[Release] = []


def on_release(release: Release) -> None:
    """Register ``release(db, server)``: what a deleted server gives back
    (its ports, its volumes), run in that order for a soft-deleted server
    reclaimed as it is read. The rules that own those resources sit above
    this module, so they register themselves (:mod:`.servers` does) instead
    of being imported here."""
    if release not in _RELEASES:
        _RELEASES.append(release)


class Progress(engine.Progress):
    """Advances servers when they are read and persists what changed.

    ``store`` is the cloud's store, ``config`` its configuration (read for
    ``build_time`` on each use).
    """

    def __init__(self, store: Any, config: Any) -> None:
        super().__init__(store, config, "servers", _step, _finish, _reclaimed)


def _reclaimed(db: Any, before: dict, after: dict) -> None:
    """A server's step just written: if it was a soft-deleted server being
    reclaimed, nova's reclaim deletes it as a delete does, its ports
    released and its volumes detached (deleted when their mapping says
    ``delete_on_termination``)."""
    if not after.get("deleted") or before.get("deleted"):
        return
    server = dict(after)
    for release in _RELEASES:
        release(db, server)
    db.execute("UPDATE servers SET ports = ? WHERE seq = ?", (server["ports"], server["seq"]))
