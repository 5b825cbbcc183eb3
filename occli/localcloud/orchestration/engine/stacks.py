"""Stacks, their resources, resource data and events over SQLite.

Heat's ``heat/db/api.py`` for the four tables of the local engine. Every
function takes a connection (a read one for reads) and plain values and
answers rows as dicts with their JSON columns decoded. Ownership: a stack
belongs to its ``project_id``; a caller that is not an admin finds only
its own project's stacks (another project's stack is "could not be found",
as Heat's ``identify_stack`` answers). Writes are short: the engine calls
them in a transaction of its own for each step.
"""

import json
import sqlite3
from collections.abc import Iterable
from collections.abc import Mapping
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud import validation

Row = dict[str, Any]
_STACK_JSON = ("template", "environment", "files", "parameters", "tags", "trust", "prev_template")
_RESOURCE_JSON = ("definition", "properties", "metadata", "requires")
# the columns of a stack's summary (GET /stacks): a listing reads and
# decodes none of the templates, environments, files nor parameters
SUMMARY_COLUMNS = (
    "id",
    "name",
    "project_id",
    "username",
    "owner_id",
    "action",
    "status",
    "status_reason",
    "tags",
    "created_at",
    "updated_at",
    "deleted_at",
)
# GET /stacks filters (heat's api stacks.py ``whitelist``): column of each
FILTER_COLUMNS = {
    "id": "id",
    "name": "name",
    "status": "status",
    "action": "action",
    "tenant": "project_id",
    "username": "username",
    "owner_id": "owner_id",
}
# heat's sort_key_map (db/api.py ``_filter_and_page_query``)
SORT_COLUMNS = {
    "stack_name": "name",
    "stack_status": "status",
    "creation_time": "created_at",
    "updated_time": "updated_at",
}
_EVENT_FILTERS = {
    "resource_name": "resource_name",
    "resource_action": "action",
    "resource_status": "status",
    "resource_type": "resource_type",
    "physical_resource_id": "physical_resource_id",
    "logical_resource_id": "logical_resource_id",
}
_RESOURCE_FILTERS = {
    "name": "name",
    "status": "status",
    "action": "action",
    "type": "type",
    "id": "id",
    "physical_resource_id": "physical_resource_id",
}


def _decode(row: sqlite3.Row | None, columns: Iterable[str]) -> Row | None:
    if row is None:
        return None
    out = dict(row)
    for column in columns:
        if column in out and out[column] is not None:
            out[column] = json.loads(out[column])
    return out


def _stack(row: sqlite3.Row | None) -> Row | None:
    return _decode(row, _STACK_JSON)


def _resource(row: sqlite3.Row | None) -> Row | None:
    return _decode(row, _RESOURCE_JSON)


def not_found(name: str) -> errors.NotFound:
    """Heat's ``EntityNotFound`` for a stack (a 404)."""
    return errors.NotFound("The Stack (%s) could not be found." % name, type="EntityNotFound")


def _visible(caller: Any) -> tuple[str, list[Any]]:
    if caller.is_admin:
        return "1 = 1", []
    return "project_id = ?", [caller.project_id]


# -- stacks ----------------------------------------------------------------


def get(db: sqlite3.Connection, caller: Any, stack_id: str, show_deleted: bool = False) -> Row:
    """The stack ``stack_id`` the caller may see, or NotFound."""
    cond, args = _visible(caller)
    row = _stack(
        db.execute(
            "SELECT * FROM heat_stacks WHERE id = ? AND %s%s"
            % (cond, "" if show_deleted else " AND deleted_at IS NULL"),
            [stack_id, *args],
        ).fetchone()
    )
    if row is None:
        raise not_found(stack_id)
    return row


def by_id(db: sqlite3.Connection, stack_id: str) -> Row | None:
    """The engine's own read of a stack (no caller: it runs for the owner)."""
    return _stack(db.execute("SELECT * FROM heat_stacks WHERE id = ?", (stack_id,)).fetchone())


def lookup(
    db: sqlite3.Connection, caller: Any, name_or_id: str, show_deleted: bool = False
) -> Row:
    """Heat's ``identify_stack``: a live stack by id (deleted ones too when
    asked) or else by name, in the caller's project."""
    cond, args = _visible(caller)
    row = None
    if validation.is_uuid(name_or_id):
        row = db.execute(
            "SELECT * FROM heat_stacks WHERE id = ? AND %s%s"
            % (cond, "" if show_deleted else " AND deleted_at IS NULL"),
            [name_or_id, *args],
        ).fetchone()
    if row is None:
        row = db.execute(
            "SELECT * FROM heat_stacks WHERE name = ? AND owner_id IS NULL AND "
            "deleted_at IS NULL AND %s ORDER BY created_at LIMIT 1" % cond,
            [name_or_id, *args],
        ).fetchone()
    found = _stack(row)
    if found is None:
        raise not_found(name_or_id)
    return found


def name_taken(db: sqlite3.Connection, project_id: str, name: str) -> bool:
    """Whether a live stack of the project already has ``name`` (Heat's
    ``StackExists``)."""
    return (
        db.execute(
            "SELECT 1 FROM heat_stacks WHERE project_id = ? AND name = ? AND deleted_at IS NULL",
            (project_id, name),
        ).fetchone()
        is not None
    )


def _list_query(
    caller: Any,
    filters: Mapping[str, Iterable[Any]] | None,
    show_deleted: bool,
    show_nested: bool,
    tags: Iterable[str] | None,
    tags_any: Iterable[str] | None,
    not_tags: Iterable[str] | None,
    not_tags_any: Iterable[str] | None,
    global_tenant: bool,
) -> tuple[str, list[Any]]:
    where = []
    args: list[Any] = []
    if not show_deleted:
        where.append("deleted_at IS NULL")
    if not show_nested:
        where.append("owner_id IS NULL")
    if not (caller.is_admin and global_tenant):
        where.append("project_id = ?")
        args.append(caller.project_id)
    for key, values in (filters or {}).items():
        column = FILTER_COLUMNS[key]
        values = list(values)
        where.append("%s IN (%s)" % (column, ", ".join("?" * len(values))))
        args.extend(values)
    for tag in tags or ():
        where.append("EXISTS (SELECT 1 FROM json_each(heat_stacks.tags) WHERE value = ?)")
        args.append(tag)
    if tags_any:
        tags_any = list(tags_any)
        where.append(
            "EXISTS (SELECT 1 FROM json_each(heat_stacks.tags) WHERE value IN (%s))"
            % ", ".join("?" * len(tags_any))
        )
        args.extend(tags_any)
    if not_tags:
        not_tags = list(not_tags)
        where.append(
            "NOT (%s)"
            % " AND ".join(
                ["EXISTS (SELECT 1 FROM json_each(heat_stacks.tags) WHERE value = ?)"]
                * len(not_tags)
            )
        )
        args.extend(not_tags)
    if not_tags_any:
        not_tags_any = list(not_tags_any)
        where.append(
            "NOT EXISTS (SELECT 1 FROM json_each(heat_stacks.tags) WHERE value IN (%s))"
            % ", ".join("?" * len(not_tags_any))
        )
        args.extend(not_tags_any)
    return " AND ".join(where) or "1 = 1", args


def page(
    db: sqlite3.Connection,
    caller: Any,
    filters: Mapping[str, Iterable[Any]] | None = None,
    limit: int | None = None,
    marker: str | None = None,
    sort_keys: Iterable[str] | None = None,
    sort_dir: str | None = None,
    show_deleted: bool = False,
    show_nested: bool = False,
    tags: Iterable[str] | None = None,
    tags_any: Iterable[str] | None = None,
    not_tags: Iterable[str] | None = None,
    not_tags_any: Iterable[str] | None = None,
    global_tenant: bool = False,
    summary: bool = False,
) -> list[Row]:
    """Heat's ``stack_get_all``: newest first unless sorted, ``id`` breaking
    ties, a ``marker`` (a stack id) starting the page after it; sort keys
    Heat does not know are ignored, as it ignores them. ``summary``: only
    the :data:`SUMMARY_COLUMNS` of each (what a listing shows)."""
    where, args = _list_query(
        caller,
        filters,
        show_deleted,
        show_nested,
        tags,
        tags_any,
        not_tags,
        not_tags_any,
        global_tenant,
    )
    keys = [SORT_COLUMNS[k] for k in sort_keys or () if k in SORT_COLUMNS]
    if not keys:
        keys = ["created_at"]
        sort_dir = sort_dir or "desc"
    keys.append("id")
    direction = "DESC" if (sort_dir or "asc").lower() == "desc" else "ASC"
    if marker:
        mark = db.execute("SELECT * FROM heat_stacks WHERE id = ?", (marker,)).fetchone()
        if mark is not None:
            clause, values = _after(keys, direction, dict(mark))
            where += " AND " + clause
            args.extend(values)
    sql = "SELECT %s FROM heat_stacks WHERE %s ORDER BY %s" % (
        ", ".join(SUMMARY_COLUMNS) if summary else "*",
        where,
        ", ".join("%s %s" % (k, direction) for k in keys),
    )
    if limit is not None:
        sql += " LIMIT ?"
        args.append(limit)
    return [_stack(r) for r in db.execute(sql, args)]  # type: ignore[misc]


def _after(keys: list[str], direction: str, mark: Row) -> tuple[str, list[Any]]:
    """The rows after ``mark`` in the order of ``keys`` (oslo.db's
    ``paginate_query``: a lexicographic comparison, NULLs first)."""
    op = "<" if direction == "DESC" else ">"
    ors = []
    args: list[Any] = []
    for i, key in enumerate(keys):
        ands = []
        for prev in keys[:i]:
            ands.append("%s IS ?" % prev)
            args.append(mark[prev])
        if mark[key] is None:
            ands.append("%s IS NOT NULL" % key if op == ">" else "0")
        else:
            ands.append(
                "%s %s ?" % (key, op) if op == ">" else "(%s < ? OR %s IS NULL)" % (key, key)
            )
            args.append(mark[key])
        ors.append("(%s)" % " AND ".join(ands))
    return "(%s)" % " OR ".join(ors), args


def count(
    db: sqlite3.Connection,
    caller: Any,
    filters: Mapping[str, Iterable[Any]] | None = None,
    show_deleted: bool = False,
    show_nested: bool = False,
    tags: Iterable[str] | None = None,
    tags_any: Iterable[str] | None = None,
    not_tags: Iterable[str] | None = None,
    not_tags_any: Iterable[str] | None = None,
    global_tenant: bool = False,
) -> int:
    where, args = _list_query(
        caller,
        filters,
        show_deleted,
        show_nested,
        tags,
        tags_any,
        not_tags,
        not_tags_any,
        global_tenant,
    )
    (n,) = db.execute("SELECT COUNT(*) FROM heat_stacks WHERE " + where, args).fetchone()
    return int(n)


def project_count(db: sqlite3.Connection, project_id: str) -> int:
    """Live top-level stacks of a project (Heat's ``max_stacks_per_tenant``)."""
    (n,) = db.execute(
        "SELECT COUNT(*) FROM heat_stacks WHERE project_id = ? AND deleted_at IS NULL "
        "AND owner_id IS NULL",
        (project_id,),
    ).fetchone()
    return int(n)


def children(db: sqlite3.Connection, stack_id: str) -> list[Row]:
    """The live nested stacks owned by ``stack_id``."""
    return [
        _stack(r)  # type: ignore[misc]
        for r in db.execute(
            "SELECT * FROM heat_stacks WHERE owner_id = ? AND deleted_at IS NULL ORDER BY seq",
            (stack_id,),
        )
    ]


def insert(db: sqlite3.Connection, values: Mapping[str, Any]) -> None:
    """Store a new stack (``values``: its columns, JSON ones as objects)."""
    row = {
        k: (json.dumps(v) if k in _STACK_JSON and v is not None else v) for k, v in values.items()
    }
    db.execute(
        "INSERT INTO heat_stacks (%s) VALUES (%s)" % (", ".join(row), ", ".join("?" * len(row))),
        list(row.values()),
    )


def update(db: sqlite3.Connection, stack_id: str, **values: Any) -> None:
    """Set columns of a stack (JSON ones given as objects)."""
    if not values:
        return
    row = {
        k: (json.dumps(v) if k in _STACK_JSON and v is not None else v) for k, v in values.items()
    }
    db.execute(
        "UPDATE heat_stacks SET %s WHERE id = ?" % ", ".join("%s = ?" % k for k in row),
        [*row.values(), stack_id],
    )


def in_progress(db: sqlite3.Connection) -> list[Row]:
    """Every live stack an engine was running (restart recovery)."""
    return [
        _stack(r)  # type: ignore[misc]
        for r in db.execute(
            "SELECT * FROM heat_stacks WHERE status = 'IN_PROGRESS' AND deleted_at IS NULL"
        )
    ]


# -- resources -------------------------------------------------------------


def resources(
    db: sqlite3.Connection,
    stack_id: str,
    nested_depth: int = 0,
    filters: Mapping[str, Iterable[Any]] | None = None,
) -> list[Row]:
    """The stack's resources (and, to ``nested_depth``, its nested stacks'),
    each with ``stack_id``/``stack_name``; a stack's in creation order."""
    stacks = [(stack_id, 0)]
    out: list[Row] = []
    where, args = "", []
    for key, values in (filters or {}).items():
        values = list(values)
        where += " AND r.%s IN (%s)" % (_RESOURCE_FILTERS[key], ", ".join("?" * len(values)))
        args.extend(values)
    while stacks:
        current, depth = stacks.pop(0)
        for r in db.execute(
            "SELECT r.*, s.name AS stack_name FROM heat_resources r "
            "JOIN heat_stacks s ON s.id = r.stack_id WHERE r.stack_id = ? "
            "AND r.replaced_by IS NULL%s ORDER BY r.seq" % where,
            [current, *args],
        ):
            out.append(_resource(r))  # type: ignore[arg-type]
        if depth < nested_depth:
            stacks.extend((c["id"], depth + 1) for c in children(db, current))
    return out


def resource(db: sqlite3.Connection, stack_id: str, name: str) -> Row:
    """One resource of a stack by name, or Heat's ``EntityNotFound``."""
    row = _resource(
        db.execute(
            "SELECT r.*, s.name AS stack_name FROM heat_resources r "
            "JOIN heat_stacks s ON s.id = r.stack_id WHERE r.stack_id = ? AND r.name = ? "
            "AND r.replaced_by IS NULL",
            (stack_id, name),
        ).fetchone()
    )
    if row is None:
        raise errors.NotFound(
            "The Resource (%s) could not be found." % name, type="EntityNotFound"
        )
    return row


def stack_resources(db: sqlite3.Connection, stack_id: str) -> dict[str, Row]:
    """The engine's read of a stack's resource rows by name."""
    return {
        r["name"]: r
        for r in (
            _resource(x)
            for x in db.execute(
                "SELECT * FROM heat_resources WHERE stack_id = ? AND replaced_by IS NULL "
                "ORDER BY seq",
                (stack_id,),
            )
        )
        if r is not None
    }


def mark_replaced(db: sqlite3.Connection, resource_id: str, replacement_id: str) -> None:
    """An old resource being replaced in an update: hidden from the stack's
    resources until its physical resource is deleted."""
    db.execute(
        "UPDATE heat_resources SET replaced_by = ? WHERE id = ?", (replacement_id, resource_id)
    )


def resource_by_id(db: sqlite3.Connection, resource_id: str) -> Row | None:
    return _resource(
        db.execute("SELECT * FROM heat_resources WHERE id = ?", (resource_id,)).fetchone()
    )


def upsert_resource(db: sqlite3.Connection, values: Mapping[str, Any]) -> None:
    """Store a resource row (by ``id``): its state and definition."""
    row = {
        k: (json.dumps(v) if k in _RESOURCE_JSON and v is not None else v)
        for k, v in values.items()
    }
    row.setdefault("updated_at", common.utcnow().timestamp())
    db.execute(
        "INSERT INTO heat_resources (%s) VALUES (%s) ON CONFLICT (id) DO UPDATE SET %s"
        % (
            ", ".join(row),
            ", ".join("?" * len(row)),
            ", ".join("%s = excluded.%s" % (k, k) for k in row if k not in ("id", "created_at")),
        ),
        list(row.values()),
    )


def fail_in_progress(db: sqlite3.Connection, stack_id: str, reason: str) -> None:
    """Every resource of the stack still IN_PROGRESS becomes FAILED."""
    db.execute(
        "UPDATE heat_resources SET status = 'FAILED', status_reason = ?, updated_at = ? "
        "WHERE stack_id = ? AND status = 'IN_PROGRESS'",
        (reason, common.utcnow().timestamp(), stack_id),
    )


def delete_resource(db: sqlite3.Connection, resource_id: str) -> None:
    db.execute("DELETE FROM heat_resource_data WHERE resource_id = ?", (resource_id,))
    db.execute("DELETE FROM heat_resources WHERE id = ?", (resource_id,))


def metadata(db: sqlite3.Connection, resource_id: str) -> dict[str, Any]:
    row = db.execute("SELECT metadata FROM heat_resources WHERE id = ?", (resource_id,)).fetchone()
    return json.loads(row["metadata"]) if row is not None and row["metadata"] else {}


def set_metadata(db: sqlite3.Connection, resource_id: str, value: Mapping[str, Any]) -> None:
    db.execute(
        "UPDATE heat_resources SET metadata = ? WHERE id = ?", (json.dumps(value), resource_id)
    )


def data(db: sqlite3.Connection, resource_id: str) -> dict[str, Any]:
    return {
        r["key"]: json.loads(r["value"])
        for r in db.execute(
            "SELECT key, value FROM heat_resource_data WHERE resource_id = ?", (resource_id,)
        )
    }


def redacted_keys(db: sqlite3.Connection, resource_id: str) -> set[str]:
    return {
        r["key"]
        for r in db.execute(
            "SELECT key FROM heat_resource_data WHERE resource_id = ? AND redact = 1",
            (resource_id,),
        )
    }


def set_data(
    db: sqlite3.Connection, resource_id: str, key: str, value: Any, redact: bool = False
) -> None:
    db.execute(
        "INSERT INTO heat_resource_data (resource_id, key, value, redact) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (resource_id, key) DO UPDATE SET value = excluded.value, "
        "redact = excluded.redact",
        (resource_id, key, json.dumps(value), int(redact)),
    )


def delete_data(db: sqlite3.Connection, resource_id: str, key: str) -> bool:
    cursor = db.execute(
        "DELETE FROM heat_resource_data WHERE resource_id = ? AND key = ?", (resource_id, key)
    )
    return bool(cursor.rowcount)


# -- events ----------------------------------------------------------------


def add_event(db: sqlite3.Connection, values: Mapping[str, Any]) -> str:
    """Store an event; its id."""
    row = dict(values)
    row.setdefault("id", common.new_uuid())
    row.setdefault("created_at", common.utcnow().timestamp())
    if row.get("properties") is not None:
        row["properties"] = json.dumps(row["properties"])
    db.execute(
        "INSERT INTO heat_events (%s) VALUES (%s)" % (", ".join(row), ", ".join("?" * len(row))),
        list(row.values()),
    )
    return str(row["id"])


def events(
    db: sqlite3.Connection,
    stack_id: str,
    resource_name: str | None = None,
    limit: int | None = None,
    marker: str | None = None,
    sort_dir: str = "asc",
    nested_depth: int = 0,
    filters: Mapping[str, Iterable[Any]] | None = None,
) -> list[Row]:
    """A stack's events (and its nested stacks' to ``nested_depth``) in the
    order they happened (``sort_dir``), after the event ``marker``."""
    ids = [stack_id]
    frontier = [stack_id]
    for _ in range(nested_depth):
        frontier = [
            r["id"]
            for parent in frontier
            for r in db.execute("SELECT id FROM heat_stacks WHERE owner_id = ?", (parent,))
        ]
        ids.extend(frontier)
    where = ["e.stack_id IN (%s)" % ", ".join("?" * len(ids))]
    args: list[Any] = list(ids)
    if resource_name is not None:
        where.append("e.resource_name = ?")
        args.append(resource_name)
    for key, values in (filters or {}).items():
        values = list(values)
        where.append("e.%s IN (%s)" % (_EVENT_FILTERS[key], ", ".join("?" * len(values))))
        args.extend(values)
    direction = "DESC" if sort_dir.lower() == "desc" else "ASC"
    if marker:
        mark = db.execute("SELECT seq FROM heat_events WHERE id = ?", (marker,)).fetchone()
        if mark is not None:
            where.append("e.seq %s ?" % ("<" if direction == "DESC" else ">"))
            args.append(mark["seq"])
    sql = (
        "SELECT e.*, s.name AS stack_name FROM heat_events e JOIN heat_stacks s "
        "ON s.id = e.stack_id WHERE %s ORDER BY e.seq %s" % (" AND ".join(where), direction)
    )
    if limit is not None:
        sql += " LIMIT ?"
        args.append(limit)
    return [_decode(r, ("properties",)) for r in db.execute(sql, args)]  # type: ignore[misc]


def event(db: sqlite3.Connection, stack_id: str, resource_name: str, event_id: str) -> Row:
    row = _decode(
        db.execute(
            "SELECT e.*, s.name AS stack_name FROM heat_events e JOIN heat_stacks s "
            "ON s.id = e.stack_id WHERE e.stack_id = ? AND e.resource_name = ? AND e.id = ?",
            (stack_id, resource_name, event_id),
        ).fetchone(),
        ("properties",),
    )
    if row is None:
        raise errors.NotFound(
            "The Event (%s) could not be found." % event_id, type="EntityNotFound"
        )
    return row


def purge(db: sqlite3.Connection, stack_id: str) -> None:
    """Forget a deleted stack's resources and their data (its row and events
    stay for ``show_deleted``, as Heat keeps them)."""
    for r in db.execute(
        "SELECT id FROM heat_resources WHERE stack_id = ?", (stack_id,)
    ).fetchall():
        delete_resource(db, r["id"])
