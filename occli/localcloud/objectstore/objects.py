"""Swift objects: metadata rows (size, MD5 etag, content type, metadata,
timestamp and the name of the file holding the bytes: see :mod:`.files`).

Errors follow Swift: a name over 1024 UTF-8 bytes is a 400 whose plain-text
body is the error's ``text``; a missing container or object 404; an
``Etag`` the body does not match 422.
"""

import json
import mimetypes

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.objectstore import containers
from occli.localcloud.objectstore import expiry

MAX_NAME_BYTES = 1024


class EtagMismatch(errors.Error):
    """The sent ``Etag`` is not the body's MD5 (Swift's 422)."""

    code = 422


def check_name(name):
    """BadRequest for a name longer than MAX_NAME_BYTES in UTF-8."""
    size = len(name.encode())
    if size > MAX_NAME_BYTES:
        text = "Object name length of %d longer than %d" % (size, MAX_NAME_BYTES)
        raise errors.BadRequest(text, text=text)


def _row(db, account, container, name):
    """The object's row as a dict, expired or not, or None."""
    row = db.execute(
        "SELECT * FROM swift_objects WHERE account = ? AND container = ? AND name = ?",
        (account, container, name),
    ).fetchone()
    return dict(row) if row is not None else None


def read(db, account, container, name):
    """The object's row as a dict (``file``, ``size``, ``timestamp``,
    ``delete_at``, …) or None (also once it has expired)."""
    obj = _row(db, account, container, name)
    if obj is None or (obj["delete_at"] is not None and obj["delete_at"] <= expiry.now()):
        return None
    return obj


def get(db, account, container, name):
    """The object's row as a dict, or NotFound."""
    obj = read(db, account, container, name)
    if obj is None:
        raise errors.NotFound("Object %s not found" % name)
    return obj


def metadata(obj):
    return json.loads(obj["metadata"])


def sysmeta(obj):
    """The object's system metadata (see :mod:`.slo`, :mod:`.dlo`)."""
    return json.loads(obj["sysmeta"])


def check_etag(sent, actual):
    """EtagMismatch unless ``sent`` (the client's ``Etag``, if any; quotes
    and case ignored) is the body's MD5 ``actual``."""
    sent = (sent or "").strip('"').lower()
    if sent and sent != actual:
        raise EtagMismatch("Etag %s does not match the body" % sent)


def put(
    db,
    account,
    container,
    name,
    stored,
    content_type=None,
    meta=None,
    delete_at=None,
    sysmeta=None,
):
    """Record (or replace) an object whose bytes are in file ``stored``
    (a :class:`.files.Stored`); returns ``(timestamp, the replaced object's
    file or None)``, that file to be removed once this commits.

    ``content_type`` defaults to a guess from the name, then
    ``application/octet-stream``; ``meta`` items with empty values are
    dropped; ``delete_at`` is its ``X-Delete-At`` (None: never);
    ``sysmeta`` its system metadata (a large object's manifest).
    """
    containers.get(db, account, container)
    old = _row(db, account, container, name)
    content_type = content_type or mimetypes.guess_type(name)[0] or "application/octet-stream"
    now = common.utcnow().timestamp()
    db.execute(
        "INSERT OR REPLACE INTO swift_objects (account, container, name,"
        " file, size, etag, content_type, metadata, timestamp, delete_at, sysmeta)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            account,
            container,
            name,
            stored.name,
            stored.size,
            stored.md5,
            content_type,
            json.dumps({k: v for k, v in (meta or {}).items() if v}),
            now,
            delete_at,
            json.dumps(sysmeta or {}),
        ),
    )
    return now, old["file"] if old else None


def post(db, account, container, name, meta, content_type=None, delete_at=None, manifest=None):
    """Replace the object's metadata with ``meta`` (Swift's object POST
    keeps none of the old; empty values dropped), its ``X-Delete-At``
    with ``delete_at`` (None: never, as a POST without one asks) and its
    ``X-Object-Manifest`` with ``manifest`` (None: none, as the object
    server keeps no allowed header a POST does not send) and, if given,
    its ``content_type`` (NotFound if there is no such object). A static
    large object's system metadata stays."""
    obj = get(db, account, container, name)
    system = {k: v for k, v in sysmeta(obj).items() if k != "manifest"}
    if manifest is not None:
        system["manifest"] = manifest
    db.execute(
        "UPDATE swift_objects SET metadata = ?, delete_at = ?, content_type = ?, sysmeta = ?"
        " WHERE account = ? AND container = ? AND name = ?",
        (
            json.dumps({k: v for k, v in meta.items() if v}),
            delete_at,
            content_type or obj["content_type"],
            json.dumps(system),
            account,
            container,
            name,
        ),
    )


def delete(db, account, container, name):
    """Delete an object, expired ones too (NotFound if there is no row);
    returns ``(its file, to be removed once this commits, whether it had
    not expired)``: Swift answers 404 for an expired one, and removes it."""
    obj = _row(db, account, container, name)
    if obj is None:
        raise errors.NotFound("Object %s not found" % name)
    live = read(db, account, container, name) is not None
    db.execute(
        "DELETE FROM swift_objects WHERE account = ? AND container = ? AND name = ?",
        (account, container, name),
    )
    return obj["file"], live
