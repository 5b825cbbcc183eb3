"""Volume transfers: Cinder's rules (``cinder/transfer/api.py`` and the
``transfer_*`` functions of ``cinder/db/api.py``) over ``volume_transfers``.

A request makes the volume ``awaiting-transfer`` and answers with an auth
key, shown that once: only its salted hash (HMAC-SHA1, Cinder's 8
character salt) is stored. Another project accepts with the key and then
owns the volume (and its snapshots unless ``no_snapshots``), within its
own quotas; the donor's usage drops as the rows move. An accepted or
deleted request is kept as Cinder keeps it (``deleted``), out of sight.
"""

import hashlib
import hmac
import os
import sqlite3
from collections.abc import Mapping
from typing import Any

from occli.localcloud import errors
from occli.localcloud import progress
from occli.localcloud.common import Asker
from occli.localcloud.common import new_uuid
from occli.localcloud.volume import quotas
from occli.localcloud.volume import rows
from occli.localcloud.volume import types

# cinder's volume_transfer_salt_length / volume_transfer_key_length
SALT_LENGTH = 8
KEY_LENGTH = 16
SORT_KEYS = ("id", "display_name", "volume_id", "created_at", "updated_at")
FILTERS = ("display_name", "volume_id", "id", "no_snapshots", "source_project_id",
           "destination_project_id", "accepted", "created_at", "updated_at")  # fmt: skip


def not_found(transfer_id):
    return errors.NotFound("Transfer %s could not be found." % transfer_id)


def random_string(length: int) -> str:
    """Cinder's ``_get_random_string``: hex digits, so the recipient can
    type the key."""
    text = ""
    while len(text) < length:
        text += hashlib.sha224(os.urandom(255)).hexdigest()
    return text[:length]


def crypt_hash(salt: str, auth_key: object) -> str:
    """Cinder's ``_get_crypt_hash`` (an integer key counts as its text)."""
    return hmac.new(salt.encode(), str(auth_key).encode(), hashlib.sha1).hexdigest()


def get(db: sqlite3.Connection, caller: Asker, transfer_id: str) -> dict[str, Any]:
    """The live transfer ``transfer_id`` of a volume of the caller's project
    (admins: any); 404 otherwise."""
    row = db.execute(
        "SELECT t.*, v.project_id AS volume_project_id FROM volume_transfers t"
        " JOIN volumes v ON v.id = t.volume_id WHERE t.id = ? AND t.deleted = 0",
        (str(transfer_id),),
    ).fetchone()
    if row is None or (row["volume_project_id"] != caller.project_id and not caller.is_admin):
        raise not_found(transfer_id)
    return dict(row)


def listing(
    db: sqlite3.Connection,
    project_id: str | None,
    filters: Mapping[str, Any],
    order: list[tuple[str, bool]],
) -> list[dict[str, Any]]:
    """The live transfers of ``project_id``'s volumes (None: all) matching
    ``filters`` (a filter on no column: none, as Cinder's
    ``is_valid_model_filters``), in ``order``."""
    if any(key not in FILTERS for key in filters):
        return []
    sql = (
        "SELECT t.* FROM volume_transfers t JOIN volumes v ON v.id = t.volume_id"
        " WHERE t.deleted = 0"
    )
    args: list[Any] = []
    if project_id is not None:
        sql += " AND v.project_id = ?"
        args.append(project_id)
    found = [dict(r) for r in db.execute(sql, args)]
    found = [t for t in found if all(str(t[k]) == str(v) for k, v in filters.items())]
    return rows.sort(found, order)


def sort_order(sort_keys, sort_dirs):
    return rows.sort_order(
        ["display_name" if k == "name" else k for k in sort_keys], sort_dirs, SORT_KEYS
    )


def _snapshots(db, volume_id, lazy):
    """The volume's snapshots, advanced to now."""
    found = db.execute(
        "SELECT * FROM volume_snapshots WHERE volume_id = ? ORDER BY seq", (volume_id,)
    )
    return lazy.advance([dict(r) for r in found])


def create(
    db: sqlite3.Connection,
    volume: Mapping[str, Any],
    name: str | None,
    no_snapshots: bool,
    lazy: progress.Progress,
) -> dict[str, Any]:
    """A transfer of ``volume`` (``available``; its snapshots ``available``
    unless ``no_snapshots``; ``lazy``: the snapshots' progress): the volume
    goes ``awaiting-transfer``. Returns the row with the ``auth_key``,
    which is not stored."""
    if volume["status"] != "available":
        raise rows.invalid("status must be available")
    if not no_snapshots:
        for snap in _snapshots(db, volume["id"], lazy):
            if snap["status"] != "available":
                raise errors.BadRequest(
                    "Invalid snapshot: snapshot: %s status must be available" % snap["id"]
                )
    salt, auth_key = random_string(SALT_LENGTH), random_string(KEY_LENGTH)
    row = {
        "id": new_uuid(),
        "volume_id": volume["id"],
        "display_name": name,
        "salt": salt,
        "crypt_hash": crypt_hash(salt, auth_key),
        "no_snapshots": int(no_snapshots),
        "source_project_id": volume["project_id"],
        "destination_project_id": None,
        "accepted": 0,
        "deleted": 0,
        "created_at": rows.now(),
        "updated_at": None,
    }
    rows.insert(db, "volume_transfers", row)
    db.execute("UPDATE volumes SET status = 'awaiting-transfer' WHERE id = ?", (volume["id"],))
    return dict(row, auth_key=auth_key)


def delete(db: sqlite3.Connection, transfer: Mapping[str, Any]) -> None:
    """Cinder's ``transfer_destroy``: the request goes; an
    ``awaiting-transfer`` volume is ``available`` again."""
    db.execute(
        "UPDATE volumes SET status = 'available', updated_at = ?"
        " WHERE id = ? AND status = 'awaiting-transfer'",
        (rows.now(), transfer["volume_id"]),
    )
    db.execute(
        "UPDATE volume_transfers SET deleted = 1, updated_at = ? WHERE id = ?",
        (rows.now(), transfer["id"]),
    )


def _check_quotas(db, project_id, volume, snapshots):
    """The recipient's quotas, with Cinder's texts: per volume size, then
    the volume (volumes, gigabytes), then the snapshots that move."""
    type_name = types.names(db).get(volume["volume_type_id"], "")
    quotas.check_volume(db, project_id, type_name, volume["size"])
    if not snapshots:
        return
    limit, used = quotas.limits(db, project_id), quotas.usage(db, project_id)
    size = sum(volume["size"] for _snap in snapshots)
    for name in ("gigabytes", "gigabytes_" + type_name):
        if limit.get(name, -1) >= 0 and used.get(name, 0) + volume["size"] + size > limit[name]:
            raise quotas.QuotaExceeded(
                "Requested volume or snapshot exceeds allowed %s quota. Requested %sG,"
                " quota is %sG and %sG has been consumed."
                % (name, size, limit[name], used[name] + volume["size"]),
                "VolumeSizeExceedsAvailableQuota",
            )
    for name in ("snapshots", "snapshots_" + type_name):
        if limit.get(name, -1) >= 0 and used.get(name, 0) + len(snapshots) > limit[name]:
            raise quotas.QuotaExceeded(
                "Maximum number of snapshots allowed (%d) exceeded" % limit[name],
                "SnapshotLimitExceeded",
            )


def accept(
    db: sqlite3.Connection,
    caller: Asker,
    transfer_id: str,
    auth_key: object,
    lazy: progress.Progress,
) -> dict[str, Any]:
    """Cinder's ``accept``: any project's transfer, the key checked against
    the hash (400), the recipient's quotas (413), then the volume (and its
    snapshots unless ``no_snapshots``) belong to the caller, ``available``.
    Returns the transfer row, now accepted and deleted."""
    row = db.execute(
        "SELECT * FROM volume_transfers WHERE id = ? AND deleted = 0", (str(transfer_id),)
    ).fetchone()
    if row is None:
        raise not_found(transfer_id)
    transfer = dict(row)
    if not hmac.compare_digest(crypt_hash(transfer["salt"], auth_key), transfer["crypt_hash"]):
        raise errors.BadRequest(
            "Invalid auth key: Attempt to transfer %s with invalid auth key." % transfer_id
        )
    volume = dict(
        db.execute("SELECT * FROM volumes WHERE id = ?", (transfer["volume_id"],)).fetchone()
    )
    if volume["status"] == "maintenance":
        raise rows.invalid("The volume cannot accept transfer in maintenance mode.")
    snapshots = [] if transfer["no_snapshots"] else _snapshots(db, volume["id"], lazy)
    _check_quotas(db, caller.project_id, volume, snapshots)
    if volume["status"] != "awaiting-transfer":
        raise rows.invalid(
            "Transfer %s: Volume id %s expected in awaiting-transfer state."
            % (transfer_id, volume["id"])
        )
    for snap in snapshots:
        if snap["status"] != "available":
            raise errors.BadRequest(
                "Invalid snapshot: Transfer %s: Snapshot %s is not in the expected available"
                " state." % (transfer_id, snap["id"])
            )
    now = rows.now()
    db.execute(
        "UPDATE volumes SET status = 'available', user_id = ?, project_id = ?, updated_at = ?"
        " WHERE id = ?",
        (caller.user_id, caller.project_id, now, volume["id"]),
    )
    if snapshots:
        db.execute(
            "UPDATE volume_snapshots SET user_id = ?, project_id = ?, updated_at = ?"
            " WHERE volume_id = ?",
            (caller.user_id, caller.project_id, now, volume["id"]),
        )
    transfer.update(
        destination_project_id=caller.project_id, accepted=1, deleted=1, updated_at=now
    )
    db.execute(
        "UPDATE volume_transfers SET destination_project_id = ?, accepted = 1, deleted = 1,"
        " updated_at = ? WHERE id = ?",
        (caller.project_id, now, transfer["id"]),
    )
    return transfer
