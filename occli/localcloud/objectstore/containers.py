"""Swift containers, and the paging of account and container listings.

Errors follow Swift: a bad name is a 400 whose plain-text body is the
error's ``text``; an unknown container 404, a non-empty one 409 on delete.
"""

import json

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.objectstore import accounts
from occli.localcloud.objectstore import acls as acls_
from occli.localcloud.objectstore import expiry
from occli.localcloud.objectstore import metadata as metadata_

MAX_NAME_LENGTH = 256
# the one storage policy, Swift's default (every container is in it)
POLICY = "Policy-0"


def find(db, account, name):
    """The container row, or None."""
    return db.execute(
        "SELECT * FROM swift_containers WHERE account = ? AND name = ?", (account, name)
    ).fetchone()


def get(db, account, name):
    """The container row, or NotFound."""
    row = find(db, account, name)
    if row is None:
        raise errors.NotFound("Container %s not found" % name)
    return row


def metadata(row):
    return json.loads(row["metadata"])


def acl(row):
    """The container's ACLs: ``{"read"|"write": Swift's ACL string}``."""
    return json.loads(row["acl"])


def clean_acls(acls):
    """``{"read"|"write": value}`` with each value as Swift stores it
    (BadRequest with Swift's text if one is malformed: see :mod:`.acls`)."""
    return {kind: acls_.clean(kind, value) for kind, value in acls.items()}


def create(db, account, name, set_=None, remove=(), acls=None):
    """Create container ``name`` (and its account), or update it as a PUT
    on an existing one does (see :func:`update`); False if it existed."""
    if len(name) > MAX_NAME_LENGTH:
        text = "Container name length of %d longer than %d" % (len(name), MAX_NAME_LENGTH)
        raise errors.BadRequest(text, text=text)
    acls = clean_acls(acls or {})
    accounts.ensure(db, account)
    created = bool(
        db.execute(
            "INSERT OR IGNORE INTO swift_containers"
            " (account, name, metadata, created_at) VALUES (?, ?, '{}', ?)",
            (account, name, common.utcnow().timestamp()),
        ).rowcount
    )
    update(db, account, name, set_ or {}, remove, acls)
    return created


def update(db, account, name, set_, remove, acls):
    """Merge metadata ``set_``/``remove`` and ``acls`` (``{"read"|"write":
    value}``, an empty value removing it; cleaned as Swift stores them)
    into container ``name`` (NotFound; BadRequest past Swift's metadata
    limits or for a malformed ACL)."""
    acls = clean_acls(acls)
    row = get(db, account, name)
    meta = metadata_.merged(metadata(row), set_, remove)
    metadata_.check_stored(meta)
    db.execute(
        "UPDATE swift_containers SET metadata = ?, acl = ? WHERE account = ? AND name = ?",
        (json.dumps(meta), json.dumps(metadata_.merged(acl(row), acls)), account, name),
    )


def object_rows(db, row):
    """The objects of container ``row`` (name, size, etag, content_type,
    timestamp, sysmeta), by name; not the expired ones."""
    return db.execute(
        "SELECT name, size, etag, content_type, timestamp, sysmeta"
        " FROM swift_objects WHERE account = ? AND container = ? AND "
        + expiry.LIVE
        + " ORDER BY name",
        (row["account"], row["name"], expiry.now()),
    ).fetchall()


def delete(db, account, name):
    """Delete a container with no objects but expired ones (NotFound, or
    Conflict if it has others); returns the expired ones' files, to be
    removed once this commits (their rows go with it: sweep the
    container first, :func:`.expiry.sweep`, to keep this short)."""
    row = get(db, account, name)
    now = expiry.now()
    busy = db.execute(
        "SELECT 1 FROM swift_objects WHERE account = ? AND container = ? AND "
        + expiry.LIVE
        + " LIMIT 1",
        (row["account"], row["name"], now),
    ).fetchone()
    if busy:
        raise errors.Conflict("Container %s is not empty" % name)
    expired = expiry.sweep(db, now, row["account"], row["name"], limit=-1)
    db.execute(
        "DELETE FROM swift_containers WHERE account = ? AND name = ?",
        (row["account"], row["name"]),
    )
    return expired


def page(items, prefix=None, marker=None, end_marker=None, limit=None, delimiter=None):
    """A listing page of ``items`` (dicts with ``name``, sorted): names
    starting with ``prefix``, after ``marker``, before ``end_marker``, at
    most ``limit`` entries (None: all). With a ``delimiter``, the names
    holding it after ``prefix`` are rolled up into one ``{"subdir": …}``
    entry per name part up to it (one entry towards the limit; none equal
    to ``marker``), as Swift's container and account listings do."""
    found: list[dict] = []
    for item in items:
        name = item["name"]
        if (prefix and not name.startswith(prefix)) or (marker and name <= marker):
            continue
        if end_marker and name >= end_marker:
            continue
        cut = name.find(delimiter, len(prefix or "")) if delimiter else -1
        if cut >= 0:
            subdir = name[: cut + len(delimiter)]
            if subdir == marker or (found and found[-1].get("subdir") == subdir):
                continue
            item = {"subdir": subdir}
        if limit is not None and len(found) >= limit:
            break
        found.append(item)
    return found
