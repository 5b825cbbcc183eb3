"""Swift's object expiry: ``X-Delete-At``/``X-Delete-After`` and the
expirer's sweep.

The headers are checked as ``swift/common/constraints.py``
``check_delete_headers`` does (a 400 whose plain-text body is the error's
``text``; ``X-Delete-After`` becomes an ``X-Delete-At``, clamped as
``normalize_delete_at_timestamp``). An object whose time has come is gone
at once, as the object server answers 404 for it before the expirer runs:
:data:`LIVE` keeps it out of every read, listing, count and quota. Its row
and file go in :func:`sweep`, a bounded batch each time, as Swift's
``swift/obj/expirer.py`` removes them later.
"""

import sqlite3

from occli.localcloud import common
from occli.localcloud import errors

# normalize_delete_at_timestamp's cap (November 2286)
MAX_DELETE_AT = 9999999999
# the most expired objects one sweep removes (its transaction stays short)
SWEEP_BATCH = 100
# an object still there: no X-Delete-At, or one ahead (the ``?`` is now)
LIVE = "(delete_at IS NULL OR delete_at > ?)"


def _refuse(text: str) -> errors.BadRequest:
    return errors.BadRequest(text, text=text)


def now() -> float:
    """The time expiry is judged by (the local cloud's clock)."""
    return common.utcnow().timestamp()


def _clamped(value: float) -> int:
    return int(min(max(0, value), MAX_DELETE_AT))


def delete_at(at: str | None, after: str | None, when: float) -> int | None:
    """The ``X-Delete-At`` a request sets at time ``when`` from its
    ``X-Delete-At`` (``at``) and ``X-Delete-After`` (``after``, which wins)
    headers, None if it sends neither; BadRequest with Swift's text for a
    non-integer value or a time not after ``when``."""
    if after is not None:
        try:
            seconds = int(after)
        except ValueError:
            raise _refuse("Non-integer X-Delete-After") from None
        if _clamped(when + seconds) <= when:
            raise _refuse("X-Delete-After in past")
        return _clamped(when + seconds)
    if at is None:
        return None
    try:
        value = _clamped(int(at))
    except ValueError:
        raise _refuse("Non-integer X-Delete-At") from None
    if value <= when:
        raise _refuse("X-Delete-At in past")
    return value


def sweep(
    db: sqlite3.Connection,
    when: float,
    account: str | None = None,
    container: str | None = None,
    limit: int = SWEEP_BATCH,
) -> list[str]:
    """Delete at most ``limit`` objects expired by ``when`` (of one
    ``container`` of ``account`` if given, else any), soonest first;
    returns their files, to be removed once this commits."""
    where, args = "delete_at <= ?", [when]  # type: str, list[object]
    if container is not None:
        where += " AND account = ? AND container = ?"
        args += [account, container]
    rows = db.execute(
        "SELECT rowid, file FROM swift_objects WHERE %s ORDER BY delete_at LIMIT ?" % where,
        (*args, limit),
    ).fetchall()
    db.executemany("DELETE FROM swift_objects WHERE rowid = ?", [(r["rowid"],) for r in rows])
    return [r["file"] for r in rows]
