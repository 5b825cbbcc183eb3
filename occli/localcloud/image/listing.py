"""The image list over SQLite: its filters, sort order and marker, with
Glance's checks and texts.

Read in glance 33: ``glance/api/v2/images.py`` (``RequestDeserializer.index``,
``_get_filters``, ``_get_sorting_params``) and ``glance/db/sqlalchemy/api.py``
(``_image_get_all``, ``_make_conditions_from_filters``, ``_image_get``).
``params`` are the query's parameters (name to values, the last one counts
but for ``tag``, ``sort_key`` and ``sort_dir``), without ``limit``,
``marker`` and ``member_status``, which the API reads itself.
``visibility`` is one of :data:`VISIBILITIES` (``all``: any; none given:
any but the community images of other projects, for admins too);
``os_hidden`` is ``false`` unless given (hidden images only when asked
for). Any other parameter is a filter: on a column (``name``,
``id``, ``status``, ``container_format``, ``disk_format`` with the ``eq:``
and ``in:`` operators; ``created_at``/``updated_at`` with ``gt:`` …
``neq:``; ``<column>_min``/``_max`` ranges; other columns by equality) or,
if no column has its name, on an extra property of that name.
"""

import datetime
import functools
import sqlite3
from collections.abc import Mapping
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.image import images

SORT_KEYS = (
    "name",
    "status",
    "container_format",
    "disk_format",
    "size",
    "id",
    "created_at",
    "updated_at",
)
DEFAULT_SORT_KEY = "created_at"
DEFAULT_SORT_DIR = "desc"
# the ``visibility`` filter's values (``_get_filters``)
VISIBILITIES = ("community", "public", "private", "shared", "all")
# the parameters that are not column or property filters
_NOT_FILTERS = ("sort", "sort_key", "sort_dir", "tag", "visibility", "os_hidden")
# filtered with Glance's ``eq:``/``in:`` operators
_LISTED = ("name", "id", "status", "container_format", "disk_format")
_TIMES = ("created_at", "updated_at")
_TIME_OPERATORS = {"gt": ">", "gte": ">=", "lt": "<", "lte": "<=", "neq": "!=", "eq": "="}
# the other columns of an image, filtered by equality (or a range)
_COLUMNS = (
    "owner",
    "checksum",
    "os_hash_algo",
    "os_hash_value",
    "protected",
    "size",
    "virtual_size",
    "min_disk",
    "min_ram",
)
# an image's view and its row id
_Row = tuple[dict[str, Any], int]
# a queued snapshot past its ready_at reads (and filters) as active
_STATUS = (
    "(CASE WHEN status = 'queued' AND ready_at IS NOT NULL AND ready_at <= %s"
    " THEN 'active' ELSE status END)"
)


def sorting(params: Mapping[str, list[str]]) -> list[tuple[str, str]]:
    """The sort order: (key, direction) pairs, the classic syntax
    (``sort_key=a&sort_dir=asc&sort_key=b``) or the new one
    (``sort=a:asc,b``), then ``created_at`` and ``id`` as Glance appends
    them (in the one direction given, else ``desc``)."""
    keys, dirs = [], []
    if "sort" in params:
        if "sort_key" in params or "sort_dir" in params:
            raise errors.BadRequest("Old and new sorting syntax cannot be combined")
        for item in params["sort"][-1].strip().split(","):
            key, _, direction = item.partition(":")
            keys.append(_sort_key(key.strip()))
            dirs.append(_sort_dir(direction.strip() or DEFAULT_SORT_DIR))
    else:
        keys = [_sort_key(k.strip()) for k in params.get("sort_key", ())]
        dirs = [_sort_dir(d.strip()) for d in params.get("sort_dir", ())]
        if len(dirs) > 1 and len(dirs) != len(keys):
            raise errors.BadRequest("Number of sort dirs does not match the number of sort keys")
    keys = keys or [DEFAULT_SORT_KEY]
    default = DEFAULT_SORT_DIR
    if not dirs:
        dirs = [default] * len(keys)
    elif len(dirs) == 1:
        default = dirs[0]
        dirs = dirs * len(keys)
    order = list(zip(keys, dirs, strict=True))
    order += [(key, default) for key in ("created_at", "id") if key not in keys]
    return order


def _sort_key(key: str) -> str:
    if key not in SORT_KEYS:
        raise errors.BadRequest(
            "Invalid sort key: %s. It must be one of the following: %s."
            % (key, ", ".join(SORT_KEYS))
        )
    return key


def _sort_dir(direction: str) -> str:
    if direction not in ("asc", "desc"):
        raise errors.BadRequest("Invalid sort direction: %s" % direction)
    return direction


def conditions(params: Mapping[str, list[str]], caller: Any) -> tuple[list[str], list[Any]]:
    """SQL conditions (and their arguments) of the filters in ``params``
    for ``caller``."""
    visibility = params.get("visibility", [None])[-1]
    if visibility is not None and visibility not in VISIBILITIES:
        raise errors.BadRequest("Invalid visibility value: %s" % visibility)
    if "changes-since" in params:
        raise errors.BadRequest('The "changes-since" filter is no longer available on v2.')
    os_hidden = params.get("os_hidden", ["false"])[-1].lower()
    if os_hidden not in ("true", "false"):
        raise errors.BadRequest(
            "Invalid value '%s' for 'os_hidden' filter. Valid values are 'true' or 'false'."
            % os_hidden
        )
    clauses: list[str] = ["os_hidden = ?"]
    args: list[Any] = [int(os_hidden == "true")]
    if visibility is None:
        clauses.append("(visibility != 'community' OR owner IS ?)")
        args.append(caller.project_id)
    elif visibility != "all":
        clauses.append("visibility = ?")
        args.append(visibility)
    for tag in params.get("tag", ()):
        clauses.append("EXISTS (SELECT 1 FROM json_each(images.tags) WHERE value = ?)")
        args.append(tag.strip())
    for key, values in params.items():
        if key in _NOT_FILTERS:
            continue
        value = values[-1]
        column = key
        if key in _LISTED:
            column = _STATUS % "?" if key == "status" else key
            if key == "status":
                args.append(common.utcnow().timestamp())
            found = images.id_filter_values(value)
            clauses.append("%s IN (%s)" % (column, ", ".join("?" * len(found)) or "NULL"))
            args += found
        elif key in _TIMES:
            operator, threshold = _time_filter(key, value)
            clauses.append("%s %s ?" % (key, operator))
            args.append(threshold)
        elif key.endswith(("_min", "_max")) and key[:-4] in _COLUMNS:
            try:
                bound = int(value)
            except ValueError:
                raise errors.BadRequest(
                    "Unable to filter on a range with a non-numeric value."
                ) from None
            clauses.append("%s %s ?" % (key[:-4], ">=" if key.endswith("_min") else "<="))
            args.append(bound)
        elif key in _COLUMNS:
            clauses.append("%s = ?" % column)
            args.append(_boolean(value) if key == "protected" else value)
        else:
            clauses.append("json_extract(properties, ?) = ?")
            args += ['$."%s"' % key.replace('"', '""'), value]
    return clauses, args


def _boolean(value: str) -> Any:
    """A ``protected`` filter's value as the column holds it (Glance's
    Boolean column: ``true``/``false``; any other matches nothing)."""
    return {"true": 1, "false": 0}.get(value.lower(), value)


def _time_filter(key: str, value: str) -> tuple[str, str]:
    """The SQL operator and stored-form time of a ``created_at`` or
    ``updated_at`` filter (``[op:]<ISO 8601>``)."""
    operator, sep, text = value.partition(":")
    if not sep or operator not in _TIME_OPERATORS:
        operator, text = "eq", value
    try:
        when = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise errors.BadRequest(
            'Bad "%s" query filter format. Use ISO 8601 DateTime notation.' % key
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    return _TIME_OPERATORS[operator], common.iso_z(when.astimezone(datetime.timezone.utc))


def _compare(order: list[tuple[str, str]], a: _Row, b: _Row) -> int:
    """-1, 0 or 1: ``a`` before, with or after ``b`` in ``order`` (a null
    value first going up, last going down, as SQLite sorts). Rows made in
    the same second keep the order they were made in (Glance's
    ``created_at`` has microseconds; the row id stands for them here)."""
    for key, direction in order:
        left, right = _sort_value(a, key), _sort_value(b, key)
        if left != right:
            before = left < right if direction == "asc" else left > right
            return -1 if before else 1
    return 0


def _sort_value(row: _Row, key: str) -> tuple[Any, ...]:
    image, rowid = row
    value = image[key]
    return (value is not None, value, rowid) if key == "created_at" else (value is not None, value)


def page(
    db: sqlite3.Connection,
    caller: Any,
    filters: Mapping[str, Any],
    ids: list[str] | None,
    size: int,
    marker: str | None,
    member_status: str = "accepted",
) -> list[dict[str, Any]]:
    """Up to ``size`` + 1 images ``caller`` sees whose ``filters`` (name,
    status, visibility, owner or os_hidden to a value) hold and whose id
    is among ``ids`` (None: any), newest first, after ``marker``: other
    services' lookups through the interface (Cinder's image by name)."""
    unknown = set(filters) - {"name", "status", "visibility", "owner", "os_hidden"}
    assert not unknown, unknown
    clauses = ["%s = ?" % key for key in filters]
    args = list(filters.values())
    if ids is not None:
        clauses.append("id IN (%s)" % (", ".join("?" * len(ids)) or "NULL"))
        args += ids
    order = sorting({})
    return list_page(db, caller, (clauses, args), order, size + 1, marker, member_status)


def list_page(
    db: sqlite3.Connection,
    caller: Any,
    where: tuple[list[str], list[Any]],
    order: list[tuple[str, str]],
    size: int,
    marker: str | None,
    member_status: str = "accepted",
) -> list[dict[str, Any]]:
    """Up to ``size`` images ``caller`` sees that meet the conditions
    ``where``, in ``order``, after ``marker`` (an image id: BadRequest if
    there is none, Forbidden if the caller cannot see it)."""
    visible, visible_args = images.visible_clause(caller, member_status)
    clauses, args = where
    rows = db.execute(
        "SELECT rowid AS seq, * FROM images WHERE %s" % " AND ".join([visible, *clauses]),
        visible_args + args,
    ).fetchall()
    compare = functools.cmp_to_key(functools.partial(_compare, order))
    found = sorted(((images.view(r), r["seq"]) for r in rows), key=compare)
    if marker is not None:
        after = _marker(db, caller, marker)
        found = [row for row in found if _compare(order, row, after) > 0]
    return [image for image, _ in found[:size]]


def _marker(db: sqlite3.Connection, caller: Any, marker: str) -> _Row:
    """The marker image and its row id, as Glance's ``_image_get`` finds it."""
    row = db.execute("SELECT rowid AS seq, * FROM images WHERE id = ?", (marker,)).fetchone()
    if row is None:
        raise errors.BadRequest("No image found with ID %s" % marker)
    image = images.view(row)
    if not images.visible(db, caller, image):
        raise errors.Forbidden("Forbidding request, image %s not visible" % marker)
    return image, row["seq"]
