"""Lazy status transitions of volumes and snapshots (``creating`` →
``available``), the way compute moves servers (:mod:`..compute.states`).

A row holds a pending plan (``pending``, ``task_started_at``); reading it
advances it by the time elapsed (``Config.build_time`` for the whole
transition) and persists the step in a short optimistic write.
"""

import json

from occli.localcloud.compute import states

TABLES = ("volumes", "volume_snapshots")


def start(row, end, duration=None):
    """Begin a transition of ``row`` (a dict of columns) ending with the
    column values ``end``, in ``duration`` seconds (default: the cloud's
    ``build_time`` when read)."""
    states.start(row, [], end)
    row.pop("task_state", None)
    if duration is not None:
        plan = json.loads(row["pending"])
        plan["duration"] = duration
        row["pending"] = json.dumps(plan)


class Lazy:
    """Advances rows of ``table`` when read and persists what changed."""

    def __init__(self, store, config, table):
        if table not in TABLES:
            raise ValueError(table)
        self.store = store
        self.config = config
        self.table = table

    def advance(self, rows):
        """Move each row dict along its plan, in place; returns them."""
        advanced = []
        for row in rows:
            before = dict(row)
            if states.advance(row, self.config.build_time):
                row.pop("task_state", None)
                advanced.append((before, row))
        if advanced:
            with self.store.transaction() as db:
                for before, after in advanced:
                    changed = [c for c in after if c in before and after[c] != before[c]]
                    db.execute(
                        "UPDATE %s SET %s WHERE seq = ? AND pending IS ? AND task_started_at IS ?"
                        % (self.table, ", ".join("%s = ?" % c for c in changed)),
                        [after[c] for c in changed]
                        + [before["seq"], before["pending"], before["task_started_at"]],
                    )
        return rows
