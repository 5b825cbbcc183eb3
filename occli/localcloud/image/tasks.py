"""Glance's tasks over SQLite: the ``tasks`` table, its views, listing
pages and the status changes, with Glance's checks and texts.

Read in glance 33: ``glance/api/v2/tasks.py`` (the deprecated tasks API:
``RequestDeserializer``'s checks, ``ResponseSerializer``'s views),
``glance/domain/__init__.py`` (``Task``: the status transitions, the
``expires_at`` of a finished task, ``[task] task_time_to_live`` 48 hours),
``glance/db/sqlalchemy/api.py`` (``_task_get_all``: owner, filters on any
column, ``sort_key`` then ``created_at``/``id``; ``_tasks_get_by_image``
and ``_task_format``: ``GET /v2/images/{id}/tasks``' raw rows) and
``glance/common/scripts/utils.py`` (``validate_location_uri``).

For the import flow (and other rules modules):

* :func:`create_task` ``(db, caller, task_type, task_input, image_id=None,
  request_id=None)`` inserts a ``pending`` task owned by the caller's
  project and returns its view (``task["id"]``);
* :func:`update_task` ``(db, task_id, status, result=None, message=None)``
  moves it on as Glance's ``Task`` does (``pending → processing|failure``,
  ``processing → success|failure``; a finished task expires after
  :data:`TIME_TO_LIVE`), else BadRequest with Glance's text.

``caller`` is an ``app.Context``. Nothing here fetches a URL: a legacy
``import`` task that passes Glance's URI checks fails at once
(:data:`NO_FETCH`).
"""

import datetime
import json
import sqlite3
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud import validation
from occli.localcloud.image import schemas

STATUSES = ("pending", "processing", "success", "failure")
TRANSITIONS = {
    "pending": ("processing", "failure"),
    "processing": ("success", "failure"),
    "success": (),
    "failure": (),
}
TIME_TO_LIVE = datetime.timedelta(hours=48)
MAX_LIMIT = 1000
# the local cloud's own text: Glance would download import_from here
NO_FETCH = "The local cloud fetches no URL: import the image data with glance-direct."
_SORT_KEYS = ("id", "type", "status", "owner", "image_id", "created_at", "updated_at")
_COLUMNS = ("id", "type", "status", "owner", "expires_at", "image_id", "request_id", "user_id")


def _stamp(dt: datetime.datetime) -> str:
    return common.iso_naive_micro(dt)


def _time(value: str | None) -> datetime.datetime | None:
    return None if value is None else datetime.datetime.fromisoformat(value)


def _iso_z(value: str | None) -> str | None:
    moment = _time(value)
    return None if moment is None else common.iso_z(moment)


def view(row: sqlite3.Row, stub: bool = False) -> dict[str, Any]:
    """A task as ``GET /v2/tasks/{id}`` shows it (``stub``: as a list
    shows it, without input, result and message)."""
    task: dict[str, Any] = {"id": row["id"]}
    if not stub:
        task["input"] = json.loads(row["input"])
    task.update(type=row["type"], status=row["status"], owner=row["owner"])
    if not stub:
        task.update(message=row["message"], result=json.loads(row["result"]))
    task.update(
        created_at=_iso_z(row["created_at"]),
        updated_at=_iso_z(row["updated_at"]),
        self="/v2/tasks/%s" % row["id"],
        schema="/v2/schemas/task",
    )
    if not stub:
        for key in ("image_id", "request_id", "user_id"):
            if row[key]:
                task[key] = row[key]
    if row["expires_at"]:
        task["expires_at"] = _iso_z(row["expires_at"])
    return task


def raw_view(row: sqlite3.Row) -> dict[str, Any]:
    """A task as ``GET /v2/images/{id}/tasks`` shows it: the database row
    (``_task_format``; times as Python's ``isoformat``)."""
    task = {key: row[key] for key in _COLUMNS}
    task.update(created_at=row["created_at"], updated_at=row["updated_at"])
    task.update(deleted_at=None, deleted=False)
    task.update(
        input=json.loads(row["input"]), result=json.loads(row["result"]), message=row["message"]
    )
    return task


def _live(now: datetime.datetime) -> tuple[str, list[Any]]:
    """Tasks not expired yet (Glance soft-deletes the others on reads)."""
    return "(expires_at IS NULL OR expires_at >= ?)", [_stamp(now)]


def _get_row(db: sqlite3.Connection, caller: Any, task_id: str) -> sqlite3.Row:
    clause, args = _live(common.utcnow())
    row = db.execute(
        "SELECT * FROM tasks WHERE id = ? AND " + clause, [str(task_id)] + args
    ).fetchone()
    if row is None:
        raise errors.NotFound("Task with the given id %s was not found" % task_id)
    if not caller.is_admin and row["owner"] != caller.project_id:
        raise errors.Forbidden("Forbidding request, task %s is not visible" % task_id)
    return row


def show(db: sqlite3.Connection, caller: Any, task_id: str) -> dict[str, Any]:
    """``GET /v2/tasks/{id}``: the task, else Glance's NotFound."""
    return view(_get_row(db, caller, task_id))


def check_list_query(params: dict[str, str]) -> None:
    """The ``GET /v2/tasks`` parameters Glance's deserializer refuses."""
    if params.get("sort_dir", "desc") not in ("asc", "desc"):
        raise errors.BadRequest("Invalid sort direction: %s" % params["sort_dir"])
    status = params.get("status")
    if status and status not in STATUSES:
        raise errors.BadRequest("Invalid status value: %s" % status)
    task_type = params.get("type")
    if task_type and task_type != "import":
        raise errors.BadRequest("Invalid type value: %s" % task_type)


def page(
    db: sqlite3.Connection,
    caller: Any,
    filters: dict[str, str],
    sort_key: str,
    sort_dir: str,
    limit: int,
    marker: str | None,
) -> list[dict[str, Any]]:
    """Up to ``limit`` live tasks the caller sees (admins: all, else its
    project's), filtered on any task column, sorted by ``sort_key`` then
    ``created_at`` and ``id`` in ``sort_dir``, after ``marker``."""
    if sort_key not in _SORT_KEYS:
        raise errors.BadRequest("Sort key supplied was not valid.")
    clause, args = _live(common.utcnow())
    where = [clause]
    if not caller.is_admin:
        where.append("owner = ?")
        args.append(caller.project_id)
    for key, value in sorted(filters.items()):
        if key in _COLUMNS:
            where.append("%s = ?" % key)
            args.append(value)
    keys = [sort_key] + [k for k in ("created_at", "id") if k != sort_key]
    op = "<" if sort_dir == "desc" else ">"
    if marker is not None:
        after = _get_row(db, caller, marker)
        # the rows after the marker: (k1, k2, …) beyond the marker's values
        ors = []
        for i, key in enumerate(keys):
            ands = ["%s = ?" % k for k in keys[:i]] + ["%s %s ?" % (key, op)]
            ors.append("(%s)" % " AND ".join(ands))
            args += [after[k] for k in keys[:i]] + [after[key]]
        where.append("(%s)" % " OR ".join(ors))
    order = ", ".join("%s %s" % (k, sort_dir.upper()) for k in keys)
    rows = db.execute(
        "SELECT * FROM tasks WHERE %s ORDER BY %s LIMIT ?" % (" AND ".join(where), order),
        args + [limit],
    ).fetchall()
    return [view(row, stub=True) for row in rows]


def image_tasks(db: sqlite3.Connection, caller: Any, image_id: str) -> list[dict[str, Any]]:
    """The live tasks of image ``image_id`` the caller sees, raw rows."""
    clause, args = _live(common.utcnow())
    rows = db.execute(
        "SELECT * FROM tasks WHERE image_id = ? AND " + clause + " ORDER BY created_at, id",
        [str(image_id)] + args,
    ).fetchall()
    return [raw_view(row) for row in rows if caller.is_admin or row["owner"] == caller.project_id]


def create_task(
    db: sqlite3.Connection,
    caller: Any,
    task_type: str,
    task_input: dict[str, Any] | None,
    image_id: str | None = None,
    request_id: str | None = None,
) -> dict[str, Any]:
    """Insert a ``pending`` task owned by the caller's project (its user
    the caller) and return its view."""
    task_id = common.new_uuid()
    now = _stamp(common.utcnow())
    db.execute(
        "INSERT INTO tasks (id, type, status, owner, image_id, request_id, user_id,"
        " input, result, message, created_at, updated_at)"
        " VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, 'null', '', ?, ?)",
        (
            task_id,
            task_type,
            caller.project_id,
            image_id,
            request_id,
            caller.user_id,
            json.dumps(task_input),
            now,
            now,
        ),
    )
    return view(db.execute("SELECT * FROM tasks WHERE id = ?", (task_id,)).fetchone())


def update_task(
    db: sqlite3.Connection,
    task_id: str,
    status: str,
    result: dict[str, Any] | None = None,
    message: str | None = None,
) -> dict[str, Any]:
    """Move task ``task_id`` to ``status`` as Glance's ``Task`` does
    (a finished one expires :data:`TIME_TO_LIVE` later); its view."""
    row = db.execute("SELECT * FROM tasks WHERE id = ?", (str(task_id),)).fetchone()
    if row is None:
        raise errors.NotFound("Task with the given id %s was not found" % task_id)
    if status not in STATUSES:
        raise errors.BadRequest("Provided status of task is unsupported: %s" % status)
    if status not in TRANSITIONS[row["status"]]:
        raise errors.BadRequest(
            "Status transition from %s to %s is not allowed" % (row["status"], status)
        )
    now = common.utcnow()
    expires = _stamp(now + TIME_TO_LIVE) if status in ("success", "failure") else None
    db.execute(
        "UPDATE tasks SET status = ?, result = ?, message = ?, expires_at = ?,"
        " updated_at = ? WHERE id = ?",
        (
            status,
            json.dumps(result if result is not None else json.loads(row["result"])),
            row["message"] if message is None else message,
            expires,
            _stamp(now),
            row["id"],
        ),
    )
    return view(db.execute("SELECT * FROM tasks WHERE id = ?", (row["id"],)).fetchone())


def _check_import_from(location: Any) -> None:
    """``validate_location_uri``: an http(s) URL, else Glance's texts."""
    if not location:
        raise errors.BadRequest("Invalid location: %s" % location)
    if not isinstance(location, str):
        raise errors.BadRequest("Invalid location: %s" % location)
    if location.startswith(("http://", "https://")):
        return
    if location.startswith(("file:///", "filesystem:///")):
        raise errors.BadRequest(
            "File based imports are not allowed. Please use a non-local source of image data."
        )
    raise errors.BadRequest(
        "The given uri is not valid. Please specify a valid uri from the following list"
        " of supported uri ['http']"
    )


def create_from_request(
    db: sqlite3.Connection, caller: Any, body: Any, request_id: str
) -> dict[str, Any]:
    """``POST /v2/tasks`` (deprecated, admins only): Glance's checks, then
    the task, failed at once as nothing may be fetched (:data:`NO_FETCH`)."""
    for key in ("type", "input"):
        # Glance tests membership on any body (a list without them too)
        if not isinstance(body, dict) or key not in body:
            raise errors.BadRequest("Task '%s' is required" % key)
    validation.check(
        schemas.SCHEMAS["task"] | {"additionalProperties": False},
        body,
        order=validation.BEST,
        draft=validation.DRAFT2020_12,
        text=lambda error: "Provided object does not match schema 'task': %s" % error,
    )
    task_input = body["input"] or {}
    if body["type"] == "import":
        _check_import_from(task_input.get("import_from"))
    image_id = task_input.get("image_id")
    if not isinstance(image_id, str):
        image_id = None
    task = create_task(db, caller, body["type"], body["input"], image_id, request_id)
    return update_task(db, task["id"], "failure", message=NO_FETCH)
