"""Manage existing (3.8, ``POST /manageable_volumes``; the legacy
``POST /os-volume-manage``): Cinder's API creates the volume row
``managing`` and casts to the backend, whose LVM driver looks the
reference up in its volume group (cinder/volume/api.py ``manage_existing``,
cinder/volume/flows/api/manage_existing.py,
cinder/volume/drivers/lvm.py ``manage_existing_object_get_size``). This
backend holds only Cinder's volumes (the manageable list is empty), so the
lookup fails as for a missing logical volume: ``ManageExistingInvalidReference``,
and the flow's revert leaves the volume ``error_managing``."""

import json
import re
import sqlite3
from collections.abc import Mapping
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud import progress
from occli.localcloud.common import Asker
from occli.localcloud.volume import rows
from occli.localcloud.volume import schemas
from occli.localcloud.volume import services
from occli.localcloud.volume import types

# cinder/api/schemas/volume_manage.py volume_manage_create(_v316)
_NAME = {"type": ["string", "null"], "minLength": 0, "maxLength": 255}
_PROPERTIES: dict[str, Any] = {
    "description": {"type": ["string", "null"], "format": "name_or_description"},
    "availability_zone": _NAME,
    "bootable": schemas.BOOLEAN,
    "volume_type": _NAME,
    "name": _NAME,
    "host": {
        "type": ["string", "null"],
        "minLength": 1,
        "maxLength": 255,
        "pattern": r"^[a-zA-Z0-9-._#@:/+\[\]]*$",
    },  # fmt: skip
    "ref": {"type": ["object", "string"]},
    "metadata": {
        "type": ["object", "null"],
        "patternProperties": {"^[a-zA-Z0-9-_:. /]{1,255}$": {"type": "string", "maxLength": 255}},
        "additionalProperties": False,
    },
}


def _schema(properties: Mapping[str, Any]) -> dict[str, Any]:
    volume = {"type": "object", "properties": dict(properties), "required": ["ref"],
              "additionalProperties": False}  # fmt: skip
    return {"type": "object", "properties": {"volume": volume}, "required": ["volume"],
            "additionalProperties": False}  # fmt: skip


MANAGE = _schema(_PROPERTIES)
MANAGE_316 = _schema({**_PROPERTIES, "cluster": _NAME})
# cinder/volume/volume_utils.py extract_id_from_volume_name (volume_name_template)
_VOLUME_NAME = re.compile(r"^volume-([0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12})$")


def _service(db: sqlite3.Connection, host: str | None, cluster_name: str | None) -> None:
    """``_get_service_by_host_cluster``: the backend's volume service, up
    and enabled; the controller turns ``ServiceNotFound`` into its 400."""
    backend = host.split("#")[0] if host else None
    found = [] if cluster_name else services.listing(db, backend, services.VOLUME)
    if not found:
        raise errors.BadRequest(
            "%s '%s' not found" % ("Host" if host else "Cluster", host or cluster_name)
        )
    if found[0]["disabled"]:
        raise errors.BadRequest("Service is unavailable at this time.")


def manage(
    db: sqlite3.Connection,
    caller: Asker,
    host: str | None,
    cluster_name: str | None,
    spec: Mapping[str, Any],
) -> dict[str, Any]:
    """The new volume row, ``managing`` with size 0 (``spec``: ``ref``,
    ``name``, ``description``, ``volume_type``, ``metadata``,
    ``availability_zone``, ``bootable``), bound for ``error_managing``;
    Cinder's 400s for an unknown type, an already managed volume's name
    and an unknown or disabled host."""
    ref, type_ref = spec["ref"], spec.get("volume_type")
    if type_ref:
        try:
            vtype = types.by_name_or_id(db, caller, type_ref)
        except errors.NotFound:
            raise errors.BadRequest(
                "Invalid volume type: Cannot find requested '%s' volume type" % type_ref
            ) from None
    if isinstance(ref, dict) and isinstance(ref.get("source-name"), str):
        match = _VOLUME_NAME.match(ref["source-name"])
        if match and db.execute("SELECT 1 FROM volumes WHERE id = ?", (match[1],)).fetchone():
            raise errors.BadRequest(
                "Invalid volume: Unable to manage existing volume. The volume is already managed"
            )
    if not type_ref:
        vtype = types.default(db, caller.project_id)
    _service(db, host, cluster_name)
    row = {
        "id": common.new_uuid(),
        "project_id": caller.project_id,
        "user_id": caller.user_id,
        "name": spec.get("name"),
        "description": spec.get("description"),
        "size": 0,
        "status": "managing",
        "attach_status": "detached",
        "availability_zone": spec.get("availability_zone") or rows.ZONE,
        "bootable": int(bool(spec.get("bootable"))),
        "volume_type_id": vtype["id"],
        "metadata": json.dumps(spec.get("metadata") or {}),
        "created_at": rows.now(),
        "updated_at": None,
        **dict.fromkeys(("snapshot_id", "source_volid", "image_id", "image_metadata", "group_id")),
    }
    progress.start(row, {"status": "error_managing"}, duration=0)
    rows.insert(db, "volumes", row)
    return row
