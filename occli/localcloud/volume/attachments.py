"""Volume attachments as Cinder's attachments API (3.27+) keeps them
(cinder/volume/api.py ``attachment_*``, cinder/volume/manager.py
``attachment_update``, cinder/db/api.py ``volume_attached`` and
``volume_detached``).

An attachment is ``reserved`` when created without a connector (the volume
``reserved``), ``attaching`` once a connector gave it its connection info
(the volume ``attaching``) and ``attached`` when completed (the volume
``in-use``); deleting one leaves the volume the status its other
attachments give it. Nova attaches and detaches through the same rules
(:func:`nova_attach`, :func:`nova_detach`), as Nova 34 does with 3.44.
The connection info is what Cinder's ``FakeLoggingVolumeDriver`` (the
real cloud's driver) answers, flattened as the manager's
``_connection_create`` does.
"""

import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.volume import rows
from occli.localcloud.volume import types
from occli.localcloud.volume import volumes

FILTERS = ("volume_id", "status", "instance_id", "attach_status")
# cinder/db/api.py ATTACH_STATUS_MAP: a volume's status from its attach status
_STATUS_OF = {"attached": "in-use", "detached": "available"}


def _visible(caller, all_projects):
    if caller.is_admin and all_projects:
        return "1", []
    return "v.project_id = ?", [caller.project_id]


def listing(db, caller, all_projects, filters, project_id=None):
    """The attachments the caller may list, newest first; an admin's
    ``all_projects`` narrowed to ``project_id``'s volumes when given (the
    filter Cinder's database applies, cinder/db/api.py
    ``_process_attachment_filters``)."""
    where, args = _visible(caller, all_projects)
    clauses = [where]
    if caller.is_admin and project_id:
        clauses.append("v.project_id = ?")
        args.append(project_id)
    for key, value in filters.items():
        column = {
            "volume_id": "a.volume_id",
            "instance_id": "a.instance_uuid",
            "status": "a.attach_status",
            "attach_status": "a.attach_status",
        }[key]
        clauses.append("%s = ?" % column)
        args.append(value)
    found = db.execute(
        "SELECT a.* FROM volume_attachments a JOIN volumes v ON v.id = a.volume_id"
        " WHERE %s ORDER BY a.created_at DESC, a.id DESC" % " AND ".join(clauses),
        args,
    ).fetchall()
    return [dict(r) for r in found]


def get(db, caller, attachment_id):
    """The attachment, 404 unless the caller's project owns its volume."""
    row = db.execute(
        "SELECT a.*, v.project_id FROM volume_attachments a JOIN volumes v"
        " ON v.id = a.volume_id WHERE a.id = ?",
        (attachment_id,),
    ).fetchone()
    if row is None or (row["project_id"] != caller.project_id and not caller.is_admin):
        raise errors.NotFound(
            "Volume attachment could not be found with filter: attachment_id = %s." % attachment_id
        )
    return dict(row)


def view(row, detail):
    """Cinder's attachment view (cinder/api/v3/views/attachments.py)."""
    item = {
        "id": row["id"],
        "status": row["attach_status"],
        "instance": row["instance_uuid"],
        "volume_id": row["volume_id"],
    }
    if detail:
        item.update(
            attached_at=row["attached_at"] or "",
            detached_at=row["detached_at"] or "",
            attach_mode=row["attach_mode"],
            connection_info=json.loads(row["connection_info"] or "{}"),
        )
    return item


def of_volume(db: sqlite3.Connection, volume_id: str) -> list[dict[str, Any]]:
    """The volume's attachments, oldest first."""
    return [
        dict(r)
        for r in db.execute(
            "SELECT * FROM volume_attachments WHERE volume_id = ? ORDER BY created_at, id",
            (volume_id,),
        )
    ]


def multiattach(db: sqlite3.Connection, volume: Mapping[str, Any]) -> bool:
    """Whether the volume's type says ``multiattach: <is> True``."""
    vtype = types.find(db, volume["volume_type_id"])
    specs = json.loads(vtype["extra_specs"]) if vtype else {}
    return specs.get("multiattach") == "<is> True"


def multiattach_types(db: sqlite3.Connection) -> set[str]:
    """The ids of the types whose extra specs say ``multiattach: <is> True``
    (a volume view's ``multiattach``, for a whole list in one query)."""
    return {
        r["id"]
        for r in db.execute(
            "SELECT id FROM volume_types WHERE json_extract(extra_specs, '$.multiattach')"
            " = '<is> True'"
        )
    }


def _check_not_error(volume, verb):
    if "error" in volume["status"]:
        message = (
            "Volume attachments can not be %s if the volume is in an error state. The Volume"
            " %s currently has a status of: %s " % (verb, volume["id"], volume["status"])
        )
        if verb == "created":
            raise rows.invalid(message)
        raise errors.Conflict("Resource conflict: " + message)


def _reserve(db, volume, instance_uuid):
    """Cinder's ``_attachment_reserve``: the volume ``reserved``, a
    ``reserved`` attachment; a non-multiattach volume in use refused
    unless the same instance holds it (an instance moving hosts)."""
    shared = multiattach(db, volume)
    expected = ("available", "in-use", "downloading") if shared else ("available", "downloading")
    if volume["status"] not in expected:
        held = instance_uuid and volume["status"] in ("in-use", "reserved")
        if not (
            held and any(a["instance_uuid"] == instance_uuid for a in of_volume(db, volume["id"]))
        ):
            raise rows.invalid(
                "Volume %s status must be %s to reserve, but the current status is %s."
                % (volume["id"], _or(expected), volume["status"])
            )
    else:
        volume["status"] = "reserved"
        volumes.save(db, volume, ("status",))
    row = {
        "id": common.new_uuid(),
        "volume_id": volume["id"],
        "instance_uuid": instance_uuid,
        "attach_mode": "null",
        "attach_status": "reserved",
        "created_at": rows.now(),
    }
    rows.insert(db, "volume_attachments", row)
    row.pop("seq", None)
    return _find(db, row["id"])


def _or(elements):
    """cinder's ``utils.build_or_str``."""
    return elements[0] if len(elements) == 1 else "%s or %s" % (
        ", ".join(elements[:-1]), elements[-1])  # fmt: skip


def _find(db, attachment_id):
    row = db.execute("SELECT * FROM volume_attachments WHERE id = ?", (attachment_id,)).fetchone()
    return dict(row)


# cinder/volume/manager.py _parse_connection_options: the limits a spec
# may give per GB of the volume
_TUNE_OPTS = ("read_iops_sec", "read_bytes_sec", "write_iops_sec", "write_bytes_sec",
              "total_iops_sec", "total_bytes_sec")  # fmt: skip


def connection_qos_specs(db: sqlite3.Connection, volume: Mapping[str, Any]) -> Any:
    """The connection info's ``qos_specs`` (the manager's
    ``_parse_connection_options``): the specs of the volume type's QoS
    when their consumer is ``front-end`` or ``both`` (Nova applies them;
    ``back-end`` ones are the driver's and not handed over), each
    ``<option>_per_gb`` turned into ``<option>`` for the volume's size
    (at least ``_per_gb_min``, at most ``_max``); else None."""
    row = db.execute(
        "SELECT q.consumer, q.specs FROM volume_types t JOIN volume_qos_specs q"
        " ON q.id = t.qos_specs_id WHERE t.id = ?",
        (volume["volume_type_id"],),
    ).fetchone()
    if row is None or row["consumer"] not in ("front-end", "both"):
        return None
    specs = json.loads(row["specs"])
    for option in _TUNE_OPTS:
        if option + "_per_gb" in specs:
            minimum = int(specs.pop(option + "_per_gb_min", 0))
            per_gb = max(minimum, int(specs[option + "_per_gb"]) * int(volume["size"]))
            specs[option] = min(per_gb, int(specs.pop(option + "_max", per_gb)))
            specs.pop(option + "_per_gb")
    return specs


def _readonly(volume):
    return json.loads(volume.get("admin_metadata") or "{}").get("readonly") == "True"


def _connect(db, volume, attachment, connector):
    """The manager's ``attachment_update``: the driver's connection info,
    the attachment and the volume ``attaching``."""
    mode = connector.get("mode", "rw")
    if attachment["attach_mode"] != "null":
        mode = attachment["attach_mode"]
        connector = dict(connector, mode=mode)
    info = {
        "driver_volume_type": "iscsi",
        "access_mode": "ro" if _readonly(volume) else "rw",
        "qos_specs": connection_qos_specs(db, volume),
        "encrypted": False,
        "cacheable": False,
        "attachment_id": attachment["id"],
        "enforce_multipath": connector.get("enforce_multipath", False),
    }
    db.execute(
        "UPDATE volume_attachments SET attach_status = 'attaching', connector = ?,"
        " connection_info = ?, mountpoint = ?, attached_host = ?, attach_mode = ?,"
        " attached_at = ?, updated_at = ? WHERE id = ?",
        (
            json.dumps(connector),
            json.dumps(info),
            connector.get("mountpoint", "na"),
            connector.get("host", ""),
            mode,
            rows.now(),
            rows.now(),
            attachment["id"],
        ),
    )
    volume.update(status="attaching", attach_status="attaching")
    volumes.save(db, volume, ("status", "attach_status"))
    return info


def create(
    db: sqlite3.Connection,
    volume: dict[str, Any],
    instance_uuid: str | None,
    connector: Mapping[str, Any] | None,
    mode: str = "null",
) -> dict[str, Any]:
    """``attachment_create``: reserve, then connect when a ``connector`` is
    given; ``mode`` (3.54) is kept for the connection, a read-only
    volume's attachment is ``ro``. Returns the attachment with the
    connection info."""
    _check_not_error(volume, "created")
    attachment = _reserve(db, volume, instance_uuid)
    info: dict[str, Any] = {}
    if connector:
        info = _connect(db, volume, attachment, dict(connector))
    mode = "ro" if _readonly(volume) else mode
    db.execute(
        "UPDATE volume_attachments SET connection_info = ?, attach_mode = ? WHERE id = ?",
        (json.dumps(info), mode, attachment["id"]),
    )
    return _find(db, attachment["id"])


def update(
    db: sqlite3.Connection, attachment: Mapping[str, Any], connector: Mapping[str, Any]
) -> dict[str, Any]:
    """``attachment_update``: the volume not in error (409), no second
    host's connection to a non-multiattach volume (409), then connect."""
    volume = volumes.find(db, attachment["volume_id"])
    assert volume is not None
    _check_not_error(volume, "updated")
    others = of_volume(db, volume["id"])
    connected = any(a["connection_info"] not in (None, "{}") for a in others)
    if len(others) > 1 and not multiattach(db, volume) and connected:
        raise errors.Conflict(
            "Resource conflict: duplicate connectors detected on volume %s" % volume["id"]
        )
    _connect(db, volume, attachment, dict(connector))
    return _find(db, attachment["id"])


def complete(db: sqlite3.Connection, attachment: Mapping[str, Any]) -> None:
    """``os-complete`` (3.44): the attachment ``attached``, the volume
    ``in-use``, whatever they were (Cinder checks neither)."""
    db.execute(
        "UPDATE volume_attachments SET attach_status = 'attached', updated_at = ? WHERE id = ?",
        (rows.now(), attachment["id"]),
    )
    volume = volumes.find(db, attachment["volume_id"])
    assert volume is not None
    volume.update(status="in-use", attach_status="attached")
    volumes.save(db, volume, ("status", "attach_status"))


def _nova_holds(db, attachment):
    """Whether Nova's server still maps the volume through this attachment
    (Cinder asks Nova's ``get_server_volume``)."""
    found = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'servers'"
    ).fetchone()
    if found is None:
        return False
    server = db.execute(
        "SELECT volumes FROM servers WHERE id = ?", (attachment["instance_uuid"],)
    ).fetchone()
    items = json.loads(server["volumes"] or "[]") if server else []
    return any(i.get("attachment_id") == attachment["id"] for i in items)


def nova_using(instance_id: str) -> errors.Conflict:
    """Cinder's ``ConflictNovaUsingAttachment``, named by its class as the
    fault middleware names an error no API method converts (recorded in
    tests/fixtures/volume/realcloud/cinder-29-actions.json)."""
    return errors.Conflict(
        "ConflictNovaUsingAttachment: Detach volume from instance %s using the Compute API"
        % instance_id
    )


def check_deletion(db: sqlite3.Connection, attachment: Mapping[str, Any]) -> None:
    """Cinder's ``attachment_deletion_allowed`` (bug #2004555) for a user's
    request: 409 while Nova's server still uses the connection."""
    if (
        attachment["instance_uuid"]
        and attachment["connection_info"] not in (None, "{}")
        and _nova_holds(db, attachment)
    ):
        raise nova_using(attachment["instance_uuid"])


def finish_detach(
    db: sqlite3.Connection, volume_id: str, attachment_id: str
) -> dict[str, Any] | None:
    """cinder/db/api.py ``volume_detached``: the attachment goes; the volume
    takes the status its remaining attachments give it."""
    db.execute("DELETE FROM volume_attachments WHERE id = ?", (attachment_id,))
    left = [a for a in of_volume(db, volume_id) if not a["attach_status"].startswith("error_")]
    attach_status = min((a["attach_status"] for a in left), default="detached")
    volume = volumes.find(db, volume_id)
    if volume is not None:
        volume.update(status=_STATUS_OF.get(attach_status, attach_status))
        volume.update(attach_status=attach_status)
        volumes.save(db, volume, ("status", "attach_status"))
    return volume


def delete(db: sqlite3.Connection, attachment: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``attachment_delete``: refused (409) while Nova's server still uses
    the connection (Cinder's bug #2004555 check), else the attachment goes.
    Returns the volume's remaining attachments."""
    check_deletion(db, attachment)
    finish_detach(db, attachment["volume_id"], attachment["id"])
    return of_volume(db, attachment["volume_id"])


# -- Nova's side (through volume.interface) ------------------------------------------


def nova_attach(
    db: sqlite3.Connection, volume: dict[str, Any], server_id: str, device: str, host: str | None
) -> str:
    """Nova 34's attach with 3.44: ``attachment_create`` (reserve), an
    update with the compute host's connector, ``os-complete``. Returns the
    attachment's id."""
    volume.update(pending=None, task_started_at=None)
    volumes.save(db, volume, ("pending", "task_started_at"))
    attachment = create(db, volume, server_id, None)
    connector = {
        "platform": "x86_64",
        "os_type": "linux",
        "ip": "127.0.0.1",
        "host": host or "",
        "multipath": False,
        "mountpoint": device,
        "mode": "rw",
    }
    attachment = update(db, attachment, connector)
    complete(db, attachment)
    volume.update(volumes.find(db, volume["id"]) or {})
    return attachment["id"]


def nova_detach(db: sqlite3.Connection, volume_id: str, server_id: str) -> dict[str, Any] | None:
    """Nova's detach: ``attachment_delete`` of each of the server's
    attachments of the volume. Returns the volume."""
    volume = volumes.find(db, volume_id)
    for attachment in of_volume(db, volume_id):
        if attachment["instance_uuid"] == server_id:
            volume = finish_detach(db, volume_id, attachment["id"])
    return volume
