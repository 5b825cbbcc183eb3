"""Rows of Cinder's tables: the lowest layer of the volume rules, which
:mod:`.volumes` and :mod:`.snapshots` both build on, so neither imports
the other to reach a row.

A row written (:func:`insert`, :func:`save`), a list's order and page
(:func:`sort_order`, :func:`sort`, :func:`page`), and what both kinds
check: the one availability zone and Cinder's ``InvalidVolume``."""

from occli.localcloud import common
from occli.localcloud import errors

ZONE = "nova"


def invalid(reason):
    """Cinder's ``InvalidVolume`` (400): ``Invalid volume: <reason>``."""
    return errors.BadRequest("Invalid volume: " + reason)


def now():
    """The time a row records, as Cinder stores it (naive, microseconds)."""
    return common.iso_naive_micro(common.utcnow())


def insert(db, table, row):
    """Insert ``row`` (a dict of columns) into ``table``; sets its ``seq``."""
    columns = list(row)
    cursor = db.execute(
        "INSERT INTO %s (%s) VALUES (%s)"
        % (table, ", ".join(columns), ", ".join("?" * len(columns))),
        [row[c] for c in columns],
    )
    row["seq"] = cursor.lastrowid


def save(db, table, row, columns):
    """Write ``columns`` of ``row`` (a row of ``table``), ``updated_at`` now."""
    row["updated_at"] = now()
    columns = list(columns) + ["updated_at"]
    db.execute(
        "UPDATE %s SET %s WHERE id = ?" % (table, ", ".join("%s = ?" % c for c in columns)),
        [row[c] for c in columns] + [row["id"]],
    )


def sort_order(sort_keys, sort_dirs, allowed):
    """``[(key, desc)]`` (``created_at`` and ``id`` added, descending,
    when absent); 400 for a key not in ``allowed`` or a bad direction."""
    order = []
    for key, direction in zip(sort_keys, sort_dirs, strict=True):
        if key == "display_name":
            key = "name"
        if key not in allowed:
            raise errors.BadRequest("Invalid input received: Invalid sort key")
        if direction not in ("asc", "desc"):
            raise errors.BadRequest(
                "Invalid input received: Unknown sort direction, must be 'desc' or 'asc'"
            )
        order.append((key, direction == "desc"))
    for key in ("created_at", "id"):
        if key not in [k for k, _ in order]:
            order.append((key, True))
    return order


def sort(rows, order):
    """``rows`` sorted in place by ``order`` (``[(key, desc)]``), None first."""
    for key, desc in reversed(order):
        rows.sort(key=lambda r, k=key: (r[k] is not None, r[k] or 0), reverse=desc)
    return rows


def page(found, every, marker, limit):
    """The rows of ``found`` after the ``marker`` one, at most ``limit``;
    none when the marker is filtered out, 404 when it is not in ``every``
    (the rows the caller may see)."""
    if marker is not None:
        for index, item in enumerate(found):
            if item["id"] == marker:
                found = found[index + 1 :]
                break
        else:
            if not any(i["id"] == marker for i in every):
                raise errors.NotFound("Marker %s could not be found." % marker)
            found = []
    return found if limit is None else found[:limit]
