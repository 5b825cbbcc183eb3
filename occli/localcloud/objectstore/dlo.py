"""Dynamic large objects: the rules of Swift's ``dlo`` middleware
(swift/common/middleware/dlo.py) over plain values.

An object PUT with ``X-Object-Manifest: <container>/<prefix>`` is a
manifest: a GET or HEAD of it answers the objects of that container whose
names start with the prefix, in name order, one after the other (at most
one listing page of them), its etag the MD5 of theirs.
"""

import hashlib

from occli.localcloud import errors
from occli.localcloud.objectstore import expiry
from occli.localcloud.objectstore import objects

BAD_HEADER = "X-Object-Manifest must be in the format container/prefix"


def check_header(value):
    """dlo's 400 unless ``value`` (an ``X-Object-Manifest``, unquoted) is
    ``<container>/<prefix>``: neither empty, no ``?`` nor ``&``, the
    prefix not starting with ``/``."""
    container, _, prefix = value.partition("/")
    if not container or not prefix or "?" in value or "&" in value or prefix.startswith("/"):
        raise errors.BadRequest(BAD_HEADER, text=BAD_HEADER)


def sysmeta(value):
    """The system metadata of a manifest whose header is ``value``."""
    return {"manifest": value}


def manifest_of(obj):
    """The ``X-Object-Manifest`` of stored object ``obj``, or None."""
    return objects.sysmeta(obj).get("manifest")


def segments(db, account, container, prefix, limit):
    """The segments of a manifest: the first ``limit`` live objects of
    ``container`` under ``prefix``, by name, as ``{"name": "/c/o",
    "bytes", "hash"}`` (a container listing's page, as dlo reads it)."""
    rows = db.execute(
        "SELECT name, size, etag FROM swift_objects"
        " WHERE account = ? AND container = ? AND substr(name, 1, ?) = ? AND "
        + expiry.LIVE
        + " ORDER BY name LIMIT ?",
        (account, container, len(prefix), prefix, expiry.now(), limit),
    )
    return [
        {"name": "/%s/%s" % (container, row["name"]), "bytes": row["size"], "hash": row["etag"]}
        for row in rows
    ]


def etag_of(segments):
    """The etag dlo answers for a complete listing: the MD5 of the
    segments' etags."""
    md5 = hashlib.md5()
    for seg in segments:
        md5.update(seg["hash"].strip('"').encode())
    return md5.hexdigest()
