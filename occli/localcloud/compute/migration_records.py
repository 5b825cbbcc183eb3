"""Nova's migration records (``compute_migrations``) and their lazy status.

One row per resize, cold migration, live migration or evacuation, with
nova's fields. A record's status moves along a *plan* (as servers do, see
:mod:`.states`): ``[[seconds after start, status], …]`` then an end status
``duration`` seconds after the start; nothing runs in the background, the
status is computed when the record is read (:func:`current`) and written
back by the next write that touches it (:func:`settle`).

While a move is in flight the scheduler counts the server on both hosts
(nova's source and destination allocations): :func:`usage`.
"""

import json

from occli.localcloud import common

MIGRATION, LIVE, EVACUATION, RESIZE = "migration", "live-migration", "evacuation", "resize"
# statuses after which nothing is held on either host any more
FINAL = frozenset(["confirmed", "reverted", "error", "failed", "completed", "cancelled", "done"])
# nova's in-progress live migration statuses (server-migrations API)
LIVE_IN_PROGRESS = ("queued", "preparing", "running", "post-migrating")


def _now():
    return common.utcnow().timestamp()


def _iso(seconds):
    return common.iso_naive_micro(common.from_timestamp(seconds))


def flavor_seq(db, flavor_id):
    """Nova's internal id of a flavor (``instance_type_id``), or None."""
    row = db.execute("SELECT seq FROM compute_flavors WHERE id = ?", (flavor_id,)).fetchone()
    return row["seq"] if row else None


def create(db, caller, server, kind, source, dest, old_flavor, new_flavor, plan, dest_ip=None):
    """Insert a record of ``server`` moving from ``source`` to ``dest``
    (None: not chosen) and return it. ``plan``: ``(steps, duration, end)``
    (see the module docstring); ``old_flavor``/``new_flavor`` are flavor
    snapshots (JSON text)."""
    steps, duration, end = plan
    started = _now()
    now = _iso(started)
    cursor = db.execute(
        "INSERT INTO compute_migrations (uuid, instance_uuid, project_id, user_id,"
        " source_compute, source_node, dest_compute, dest_node, dest_host,"
        " old_instance_type_id, new_instance_type_id, old_flavor, new_flavor,"
        " migration_type, status, plan, started_at, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            common.new_uuid(),
            server["id"],
            caller.project_id,
            caller.user_id,
            source,
            source,
            dest,
            dest,
            dest_ip,
            flavor_seq(db, json.loads(old_flavor)["id"]),
            flavor_seq(db, json.loads(new_flavor)["id"]),
            old_flavor,
            new_flavor,
            kind,
            steps[0][1],
            json.dumps({"steps": steps, "duration": duration, "end": end}),
            started,
            now,
            now,
        ),
    )
    return get(db, cursor.lastrowid)


def get(db, ident):
    """The record whose id is ``ident`` (an int, or a URL's text of ASCII
    digits) with its current status, or None: other text, or a number no
    SQLite INTEGER holds (``10**30``), is no record's id, as nova's lookup
    finds none."""
    if isinstance(ident, str):
        if not (ident.isascii() and ident.isdigit()):
            return None
        ident = int(ident)
    if not common.fits_integer(ident):
        return None
    row = db.execute("SELECT * FROM compute_migrations WHERE id = ?", (ident,)).fetchone()
    return current(row) if row else None


def current(row, now=None):
    """``row`` as a dict with its status and ``updated_at`` as of ``now``."""
    record = dict(row)
    if not record["plan"]:
        return record
    plan = json.loads(record["plan"])
    now = _now() if now is None else now
    elapsed = now - record["started_at"]
    if elapsed >= plan["duration"]:
        record["status"] = plan["end"]
        record["updated_at"] = _iso(record["started_at"] + plan["duration"])
        record["plan"] = None
        return record
    offset, status = plan["steps"][0]
    for step_offset, step_status in plan["steps"]:
        if step_offset <= elapsed:
            offset, status = step_offset, step_status
    record["status"] = status
    if offset:
        record["updated_at"] = _iso(record["started_at"] + offset)
    return record


def settle(db, record):
    """Write the status :func:`current` computed for ``record`` back."""
    db.execute(
        "UPDATE compute_migrations SET status = ?, plan = ?, updated_at = ? WHERE id = ?",
        (record["status"], record["plan"], record["updated_at"], record["id"]),
    )


def set_status(db, record, status, plan=None):
    """End ``record``'s plan and give it ``status`` now (or start ``plan``:
    ``(steps, duration, end)``); returns the record as written."""
    now = _now()
    record = dict(record, status=status, updated_at=_iso(now), plan=None)
    if plan is not None:
        steps, duration, end = plan
        record["plan"] = json.dumps({"steps": steps, "duration": duration, "end": end})
        record["started_at"] = now
    db.execute(
        "UPDATE compute_migrations SET status = ?, plan = ?, started_at = ?, updated_at = ?"
        " WHERE id = ?",
        (status, record["plan"], record["started_at"], record["updated_at"], record["id"]),
    )
    return record


def finish_now(db, record):
    """Make ``record``'s plan end now (a forced completion)."""
    plan = json.loads(record["plan"])
    plan["duration"] = max(0.0, _now() - record["started_at"])
    db.execute(
        "UPDATE compute_migrations SET plan = ? WHERE id = ?", (json.dumps(plan), record["id"])
    )
    return current(dict(record, plan=json.dumps(plan)))


def of_instance(db, server_id, kind=None):
    """The records of one server (oldest first), current."""
    sql, args = "SELECT * FROM compute_migrations WHERE instance_uuid = ?", [server_id]
    if kind is not None:
        sql += " AND migration_type = ?"
        args.append(kind)
    return [current(r) for r in db.execute(sql + " ORDER BY id", args)]


def latest(db, server_id, statuses):
    """The newest record of the server whose current status is in
    ``statuses``, or None."""
    for record in reversed(of_instance(db, server_id)):
        if record["status"] in statuses:
            return record
    return None


def search(db, filters):
    """Nova's ``migration_get_all_by_filters`` (current statuses): exact
    ``status`` / ``instance_uuid`` / ``migration_type`` / ``user_id`` /
    ``project_id``, ``host`` (source or destination) else
    ``source_compute``, ``changes-since`` / ``changes-before`` (naive UTC
    ISO texts, on ``updated_at``). Oldest first."""
    records = [current(r) for r in db.execute("SELECT * FROM compute_migrations ORDER BY id")]
    for key in ("status", "instance_uuid", "migration_type", "user_id", "project_id"):
        if key in filters:
            records = [r for r in records if r[key] == filters[key]]
    if "host" in filters:
        host = filters["host"]
        records = [r for r in records if host in (r["source_compute"], r["dest_compute"])]
    elif "source_compute" in filters:
        records = [r for r in records if r["source_compute"] == filters["source_compute"]]
    if "changes-since" in filters:
        records = [r for r in records if r["updated_at"] >= filters["changes-since"]]
    if "changes-before" in filters:
        records = [r for r in records if r["updated_at"] <= filters["changes-before"]]
    return records


# -- what the scheduler counts -------------------------------------------------


def _plan_end(row):
    """The columns a server's pending plan sets, if that plan has a
    ``duration`` and is over by now (the row may not be advanced yet)."""
    if not row["pending"]:
        return {}
    plan = json.loads(row["pending"])
    duration = plan.get("duration")
    if duration is None or _now() - row["task_started_at"] < duration:
        return {}
    return plan["end"]


def usage(db):
    """``[(host, flavor snapshot, volume_backed, server id)]``: what each
    live server holds. A server with a move in flight holds its old flavor
    on the source and its new one on the destination (when chosen)."""
    in_flight = {}
    for row in db.execute(
        "SELECT * FROM compute_migrations WHERE status NOT IN (%s)" % ", ".join("?" * len(FINAL)),
        sorted(FINAL),
    ):
        record = current(row)
        if record["status"] not in FINAL:
            in_flight[record["instance_uuid"]] = record
    held = []
    for row in db.execute(
        "SELECT id, host, flavor, image_ref, pending, task_started_at FROM servers"
        " WHERE deleted = 0 AND host IS NOT NULL"
    ):
        volume_backed = not row["image_ref"]
        record = in_flight.get(row["id"])
        if record is not None:
            old, new = json.loads(record["old_flavor"]), json.loads(record["new_flavor"])
            held.append((record["source_compute"], old, volume_backed, row["id"]))
            if record["dest_compute"]:
                held.append((record["dest_compute"], new, volume_backed, row["id"]))
            continue
        end = _plan_end(row)
        host = end.get("host", row["host"])
        if host:
            flavor = end.get("flavor", row["flavor"])
            held.append((host, json.loads(flavor), volume_backed, row["id"]))
    return held
