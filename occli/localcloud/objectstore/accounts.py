"""Swift accounts (``AUTH_<project_id>``): metadata, usage and quotas.

An account row exists once something was written to it; before that the
account reads as empty (no metadata, created now). Quotas follow Swift's
account_quotas middleware: ``quota-bytes`` and ``quota-count`` in the
account's system metadata (only the reseller admin sets them), the bytes
also read from the legacy ``X-Account-Meta-Quota-Bytes``; where neither is
set the cloud's defaults apply; a negative quota is none.
"""

import json

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.objectstore import expiry
from occli.localcloud.objectstore import metadata as metadata_

QUOTAS = ("quota-bytes", "quota-count")
# swift/common/middleware/account_quotas.py
QUOTA_EXCEEDED = "Upload exceeds quota."


def metadata(db, account):
    """The account's metadata (lower-case names, e.g. ``temp-url-key``)."""
    row = db.execute(
        "SELECT metadata FROM swift_accounts WHERE account = ?", (account,)
    ).fetchone()
    return json.loads(row["metadata"]) if row else {}


def ensure(db, account):
    """Create the account row if it does not exist yet."""
    db.execute(
        "INSERT OR IGNORE INTO swift_accounts (account, metadata, created_at) VALUES (?, '{}', ?)",
        (account, common.utcnow().timestamp()),
    )


def update_metadata(db, account, set_, remove):
    """Drop the names in ``remove``, then set ``set_`` (an empty value
    removes the name too, as in Swift); BadRequest if the account would
    then hold more than Swift's metadata limits."""
    ensure(db, account)
    meta = metadata_.merged(metadata(db, account), set_, remove)
    metadata_.check_stored(meta)
    db.execute(
        "UPDATE swift_accounts SET metadata = ? WHERE account = ?", (json.dumps(meta), account)
    )


def sysmeta(db, account):
    """The account's system metadata (``quota-bytes``, ``quota-count``)."""
    row = db.execute("SELECT sysmeta FROM swift_accounts WHERE account = ?", (account,)).fetchone()
    return json.loads(row["sysmeta"]) if row else {}


def update_sysmeta(db, account, values):
    """Set the system metadata in ``values`` (an empty value removes it)."""
    if not values:
        return
    ensure(db, account)
    meta = metadata_.merged(sysmeta(db, account), values)
    db.execute(
        "UPDATE swift_accounts SET sysmeta = ? WHERE account = ?", (json.dumps(meta), account)
    )


def _quota(value, default):
    """A quota's value as account_quotas reads it (not a number: none)."""
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        return -1


def check_quota(db, account, adding, default_bytes, default_count):
    """TooLarge (account_quotas' 413) if one more object of ``adding``
    bytes would take the account past its byte or object-count quota
    (like Swift, a replaced object still counts until it is replaced; an
    expired one no longer does)."""
    system, meta = sysmeta(db, account), metadata(db, account)
    max_bytes = _quota(system.get("quota-bytes", meta.get("quota-bytes")), default_bytes)
    max_count = _quota(system.get("quota-count"), default_count)
    if max_bytes < 0 and max_count < 0:
        return
    used = db.execute(
        "SELECT COUNT(*) AS n, COALESCE(SUM(size), 0) AS bytes FROM swift_objects"
        " WHERE account = ? AND " + expiry.LIVE,
        (account, expiry.now()),
    ).fetchone()
    if 0 <= max_bytes < used["bytes"] + adding or 0 <= max_count < used["n"] + 1:
        raise errors.TooLarge(QUOTA_EXCEEDED, text=QUOTA_EXCEEDED)


def summary(db, account):
    """The account's ``metadata``, ``sysmeta``, ``created_at``, ``object_count``,
    ``bytes_used`` and ``containers`` (rows with ``name``, ``count``,
    ``bytes``, ``last_modified``; by name)."""
    row = db.execute("SELECT * FROM swift_accounts WHERE account = ?", (account,)).fetchone()
    now = expiry.now()
    stats = db.execute(
        "SELECT COUNT(*) AS n, COALESCE(SUM(size), 0) AS bytes"
        " FROM swift_objects WHERE account = ? AND " + expiry.LIVE,
        (account, now),
    ).fetchone()
    containers = db.execute(
        "SELECT c.name, c.created_at, COUNT(o.name) AS count,"
        " COALESCE(SUM(o.size), 0) AS bytes,"
        " MAX(COALESCE(o.timestamp, c.created_at), c.created_at)"
        " AS last_modified"
        " FROM swift_containers c LEFT JOIN swift_objects o"
        " ON o.account = c.account AND o.container = c.name AND "
        + expiry.LIVE
        + " WHERE c.account = ? GROUP BY c.name ORDER BY c.name",
        (now, account),
    ).fetchall()
    return {
        "metadata": json.loads(row["metadata"]) if row else {},
        "sysmeta": json.loads(row["sysmeta"]) if row else {},
        "created_at": (row["created_at"] if row else common.utcnow().timestamp()),
        "object_count": stats["n"],
        "bytes_used": stats["bytes"],
        "containers": containers,
    }
