"""Lazy progress: a row's pending plan, advanced when the row is read.

Nothing runs in the background in the local cloud. Work that takes time in
the real service (a server build, a volume's ``creating`` → ``available``)
is stored on its row as a *pending* plan (``pending``, JSON: the steps it
walks through, the column values it ends with, its own length if it has one)
and the moment it started (``task_started_at``). Whenever a request reads
the row, :func:`advance` moves it along by the time elapsed (``build_time``
seconds for the whole plan) and :class:`Progress` persists the step in a
short optimistic write.

The engine knows no service: what a step or the end means beyond the end
values (a server's ``task_state``, a fault, releasing what a reclaimed
server held) each service passes in as hooks.
"""

import json
from collections.abc import Callable
from collections.abc import Iterable
from typing import Any

from occli.localcloud import common

Row = dict[str, Any]
Plan = dict[str, Any]
# step(row, plan, fraction): a plan still running, ``fraction`` of it elapsed
Step = Callable[[Row, Plan, float], None]
# finish(row, plan, finished): a plan ended at POSIX time ``finished``
Finish = Callable[[Row, Plan, float], None]
# written(db, as read, advanced): a row's step was just persisted
Written = Callable[[Any, Row, Row], None]


def start(
    row: Row, end: Row, tasks: Iterable[str] = (), duration: float | None = None, **details: Any
) -> None:
    """Begin a plan on ``row`` (a dict of columns), in place.

    ``end``: the column values set when it finishes; ``tasks``: the steps
    walked through; ``duration``: its length in seconds (default: the
    build time :func:`advance` is given); ``details``: what the service's
    hooks read back from the plan.
    """
    plan: Plan = {"tasks": list(tasks), "end": end, **details}
    if duration is not None:
        plan["duration"] = duration
    row["pending"] = json.dumps(plan)
    row["task_started_at"] = common.utcnow().timestamp()


def advance(
    row: Row, build_time: float, step: Step | None = None, finish: Finish | None = None
) -> bool:
    """Move ``row`` along its pending plan, in place; True if anything changed.

    A finished plan writes its end values, clears the plan and sets
    ``updated_at`` to the moment it ended, then calls ``finish``; a running
    one calls ``step``.
    """
    if not row.get("pending"):
        return False
    plan = json.loads(row["pending"])
    # a plan may carry its own length (a live migration kept running)
    build_time = plan.get("duration", build_time)
    now = common.utcnow().timestamp()
    elapsed = max(0.0, now - row["task_started_at"])
    before = dict(row)
    if build_time <= 0 or elapsed >= build_time:
        finished = row["task_started_at"] + max(build_time, 0)
        row.update(plan["end"])
        row["pending"] = None
        row["task_started_at"] = None
        row["updated_at"] = common.iso_naive_micro(common.from_timestamp(finished))
        if finish is not None:
            finish(row, plan, finished)
    elif step is not None:
        step(row, plan, elapsed / build_time)
    return row != before


class Progress:
    """Advances rows of ``table`` when they are read and persists what changed.

    ``store`` is the cloud's store (or anything whose ``transaction()``
    yields a connection), ``config`` its configuration (read for
    ``build_time`` on each use); ``step``/``finish`` as for :func:`advance`;
    ``written`` is called in the write transaction for each row whose step
    was persisted.
    """

    def __init__(
        self,
        store: Any,
        config: Any,
        table: str,
        step: Step | None = None,
        finish: Finish | None = None,
        written: Written | None = None,
    ) -> None:
        if not table.isidentifier():
            raise ValueError(table)
        self.store = store
        self.config = config
        self.table = table
        self.step = step
        self.finish = finish
        self.written = written

    def advance(self, rows: list[Row]) -> list[Row]:
        """Move each row dict along its plan, in place; returns them."""
        advanced = []
        for row in rows:
            before = dict(row)
            if advance(row, self.config.build_time, self.step, self.finish):
                advanced.append((before, row))
        self._persist(advanced)
        return rows

    def _persist(self, advanced: list[tuple[Row, Row]]) -> None:
        """Write ``[(as read, advanced)]`` rows in a write transaction
        (the request's own in a write request, else a short one).

        Optimistic: a row whose plan changed since it was read (another
        plan started or ended, the row was deleted meanwhile) is left alone;
        the caller still answers from the values it computed.
        """
        if not advanced:
            return
        with self.store.transaction() as db:
            for before, after in advanced:
                changed = [c for c in after if c in before and after[c] != before[c]]
                cursor = db.execute(
                    "UPDATE %s SET %s WHERE seq = ? AND pending IS ? AND task_started_at IS ?"
                    % (self.table, ", ".join("%s = ?" % c for c in changed)),
                    [after[c] for c in changed]
                    + [before["seq"], before["pending"], before["task_started_at"]],
                )
                if cursor.rowcount and self.written is not None:
                    self.written(db, before, after)
