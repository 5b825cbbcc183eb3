"""Objects other services keep in a project's account, reached through
:mod:`occli.localcloud.objectstore.interface` (Cinder's Swift backup
driver): written, listed, read and deleted as Swift answers a PUT, GET or
DELETE made with the project's own token — the account
(``AUTH_<project id>``) made on the first write as keystoneauth's account
autocreate does, the container as a container PUT makes it, the account's
quotas enforced.

Bytes go through the object store's files (``cloud.objectstore.files``, a
:class:`occli.localcloud.files.Files`) in chunks the caller yields and
reads of at most ``files.CHUNK`` bytes: never a whole object in memory.
The database holds only the rows: writes store the files first, then
record every row in one short transaction.
"""

import sqlite3
from collections.abc import Iterable
from collections.abc import Sequence
from typing import Any

from occli.localcloud import errors
from occli.localcloud import files as files_
from occli.localcloud.objectstore import accounts
from occli.localcloud.objectstore import containers
from occli.localcloud.objectstore import expiry
from occli.localcloud.objectstore import objects

Chunks = Iterable[bytes]


def account(project_id: str) -> str:
    """The Swift account of project ``project_id`` (keystoneauth's
    ``reseller_prefix`` ``AUTH_``)."""
    return "AUTH_%s" % project_id


def put_objects(
    store: Any,
    files: files_.Files,
    config: Any,
    account: str,
    container: str,
    items: Iterable[tuple[str, Chunks]],
) -> list[files_.Stored]:
    """Write objects ``items`` (``(name, chunks)``, each object's bytes in
    chunks) into ``container`` of ``account``, both made if missing; the
    files written. Swift's errors (a name too long, the account's quota:
    413) leave no file and no row behind."""
    written: list[tuple[str, files_.Stored]] = []
    replaced = []
    try:
        for name, chunks in items:
            objects.check_name(name)
            written.append((name, files.store(chunks)))
        with store.transaction() as db:
            if containers.find(db, account, container) is None:
                containers.create(db, account, container)
            for name, stored in written:
                accounts.check_quota(
                    db, account, stored.size, config.object_quota_bytes, config.object_quota_count
                )
                _, old = objects.put(db, account, container, name, stored)
                replaced.append(old)
    except BaseException:
        for _, stored in written:
            files.remove(stored.name)
        raise
    for old in replaced:
        files.remove(old)
    return [stored for _, stored in written]


def names(db: sqlite3.Connection, account: str, container: str, prefix: str) -> list[str]:
    """The names of the live objects of ``container`` starting with
    ``prefix``, by name (none if there is no such container)."""
    row = containers.find(db, account, container)
    if row is None:
        return []
    return [r["name"] for r in containers.object_rows(db, row) if r["name"].startswith(prefix)]


def open_object(
    db: sqlite3.Connection, files: files_.Files, account: str, container: str, name: str
) -> files_.Reader | None:
    """The object's bytes as a :class:`~occli.localcloud.files.Reader`
    (closed when read to its end or by ``close()``), or None if there is
    no such object (also once it has expired)."""
    obj = objects.read(db, account, container, name)
    return None if obj is None else files.reader(obj["file"])


def delete_objects(
    db: sqlite3.Connection, account: str, container: str, names: Sequence[str]
) -> list[str]:
    """Delete the objects ``names`` of ``container`` (missing ones are
    fine, as Swift's bulk delete counts them ``Number Not Found``); the
    files to remove (:func:`remove_files`) once ``db`` commits."""
    gone = []
    for name in names:
        try:
            file, _live = objects.delete(db, account, container, name)
        except errors.NotFound:
            continue
        gone.append(file)
    gone.extend(expiry.sweep(db, expiry.now(), account, container))
    return gone


def remove_files(files: files_.Files, names: Iterable[str]) -> None:
    """Remove the files :func:`delete_objects` returned, after its commit."""
    for name in names:
        files.remove(name)
