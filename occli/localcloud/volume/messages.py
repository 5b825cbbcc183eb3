"""User messages: Cinder's ``cinder/message/`` over ``volume_messages``.

An operation that fails after its request was accepted (a backup the
driver could not store, an extend, …) records why with :func:`create`, as
Cinder's ``message.API.create``: an ``event_id``
(``VOLUME_<resource>_<action>_<detail>``), a level, the resource and
``user_message`` texts of ``message_field.py``. A project reads and
deletes its own messages; an admin every project's; each is kept for
Cinder's ``message_ttl`` (30 days).
"""

import datetime
import sqlite3
from collections.abc import Mapping
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.common import Asker
from occli.localcloud.volume import rows

MESSAGE_TTL = 2592000
# cinder/message/message_field.py Action and Detail (those a local
# operation can end in)
ACTIONS = {
    "001": "schedule allocate volume",
    "002": "attach volume",
    "005": "copy image to volume",
    "007": "extend volume",
    "013": "create backup",
    "014": "delete backup",
    "015": "restore backup",
}
DETAILS = {
    "001": "An unknown error occurred.",
    "010": "Volume Driver failed to extend volume.",
    "012": "Driver failed to create the volume.",
    "017": "Backup status is invalid.",
    "020": "Backup driver failed to create backup.",
    "021": "Failed to attach volume.",
    "025": "Backup driver failed to delete backup.",
    "026": "Backup driver failed to restore backup.",
    "027": "Volume status is invalid.",
}
RESOURCE_TYPES = ("VOLUME", "VOLUME_SNAPSHOT", "VOLUME_BACKUP")
# the (action, detail) of a backup the driver could not store
BACKUP_CREATE, BACKUP_CREATE_DRIVER_ERROR = "013", "020"
FILTERS = ("request_id", "resource_type", "resource_uuid", "event_id", "message_level")
SORT_KEYS = ("id", "event_id", "message_level", "created_at", "resource_type", "request_id")


def not_found(message_id):
    return errors.NotFound("Message %s could not be found." % message_id)


def create(
    db: sqlite3.Connection,
    project_id: str,
    resource_type: str,
    resource_uuid: str | None,
    action_id: str,
    detail_id: str,
    request_id: str | None = None,
    level: str = "ERROR",
) -> dict[str, Any]:
    """Record a message for ``project_id`` (Cinder's ``message.API.create``)."""
    now = common.utcnow()
    expires = now + datetime.timedelta(seconds=MESSAGE_TTL)
    row = {
        "id": common.new_uuid(),
        "project_id": project_id,
        "request_id": request_id,
        "resource_type": resource_type,
        "resource_uuid": resource_uuid,
        "event_id": "VOLUME_%s_%s_%s" % (resource_type, action_id, detail_id),
        "message_level": level,
        "action_id": action_id,
        "detail_id": detail_id,
        "created_at": common.iso_naive_micro(now),
        "expires_at": common.iso_naive_micro(expires),
    }
    rows.insert(db, "volume_messages", row)
    return row


def user_message(message: Mapping[str, Any]) -> str:
    """``<action>:<detail>`` as Cinder's ``_build_user_message`` writes it."""
    action = ACTIONS.get(message["action_id"], "unknown action")
    return "%s:%s" % (action, DETAILS.get(message["detail_id"], DETAILS["001"]))


def get(db: sqlite3.Connection, caller: Asker, message_id: str) -> dict[str, Any]:
    """The caller's project's message (admins: any); 404 otherwise."""
    row = db.execute("SELECT * FROM volume_messages WHERE id = ?", (str(message_id),)).fetchone()
    if row is None or (row["project_id"] != caller.project_id and not caller.is_admin):
        raise not_found(message_id)
    return dict(row)


def listing(
    db: sqlite3.Connection,
    project_id: str | None,
    filters: Mapping[str, Any],
    order: list[tuple[str, bool]],
    marker: str | None,
    limit: int | None,
) -> list[dict[str, Any]]:
    """The messages of ``project_id`` (None: all) matching ``filters``."""
    if project_id is None:
        stored = db.execute("SELECT * FROM volume_messages").fetchall()
    else:
        stored = db.execute(
            "SELECT * FROM volume_messages WHERE project_id = ?", (project_id,)
        ).fetchall()
    every = [dict(r) for r in stored]
    found = [m for m in every if all(m.get(k) == v for k, v in filters.items())]
    return rows.page(rows.sort(found, order), every, marker, limit)


def sort_order(sort_keys, sort_dirs):
    return rows.sort_order(sort_keys, sort_dirs, SORT_KEYS)


def delete(db: sqlite3.Connection, message: Mapping[str, Any]) -> None:
    db.execute("DELETE FROM volume_messages WHERE id = ?", (message["id"],))
