"""The volume actions Cinder 29 serves besides extend, retype, revert,
reset-status and upload (cinder/api/contrib/volume_actions.py,
volume_image_metadata.py and admin_actions.py ``os-force_detach``; the
rules of cinder/volume/api.py and of the manager's ``attach_volume`` /
``detach_volume``): the legacy attach flow (``os-reserve``,
``os-attach``, ``os-begin_detaching``, ``os-detach`` …), connections,
the bootable and read-only flags, the image metadata and the admin's
migration (``os-migrate_volume``, ``os-migrate_volume_completion``).

An error the manager raises reaches the API as an RPC ``RemoteError``,
which Cinder answers as ``Error attaching volume - <type>: <message>``
(:func:`_remote`). The read-only flag is the volume's admin metadata
``readonly``; ``os-attach`` records the mode as ``attached_mode``.
"""

import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud import progress
from occli.localcloud.volume import attachments
from occli.localcloud.volume import pools
from occli.localcloud.volume import rows
from occli.localcloud.volume import services
from occli.localcloud.volume import volumes


def _remote(doing, exc_type, message):
    """The API's 400 for a manager's error (``Error <doing> volume - …``)."""
    return errors.BadRequest("Error %s volume - %s: %s" % (doing, exc_type, message))


def _maintenance(volume, message):
    if volume["status"] == "maintenance":
        raise rows.invalid(message)


def admin_metadata(volume: Mapping[str, Any]) -> dict[str, str]:
    return json.loads(volume.get("admin_metadata") or "{}")


def _set_admin_metadata(db, volume, **items):
    current = admin_metadata(volume)
    current.update(items)
    current = {k: v for k, v in current.items() if v is not None}
    volume["admin_metadata"] = json.dumps(current)
    volumes.save(db, volume, ("admin_metadata",))


def _set(db, volume, **columns):
    volume.update(columns)
    volumes.save(db, volume, columns)


# -- the legacy attach flow ---------------------------------------------------------


def reserve(db: sqlite3.Connection, volume: dict[str, Any]) -> None:
    """``os-reserve``: an ``available`` volume (``in-use`` too when
    multiattach) goes ``attaching``."""
    expected = ("available", "in-use") if attachments.multiattach(db, volume) else ("available",)
    if volume["status"] not in expected:
        text = " or ".join(expected)
        raise rows.invalid(
            "Volume status must be %s to reserve, but the status is %s." % (text, volume["status"])
        )
    _set(db, volume, status="attaching")


def unreserve(db: sqlite3.Connection, volume: dict[str, Any]) -> None:
    """``os-unreserve``: an ``attaching`` volume back to ``in-use`` (it
    has attachments) or ``available``; any other status: nothing."""
    if volume["status"] == "attaching":
        held = bool(volumes.attachments(db, volume["id"]))
        _set(db, volume, status="in-use" if held else "available")


def begin_detaching(db: sqlite3.Connection, volume: dict[str, Any]) -> None:
    """``os-begin_detaching``: ``in-use`` and attached → ``detaching``;
    a migrating volume stays as it is, without an error (Cinder hides the
    migration from the user)."""
    if volume.get("migration_status") not in _MIGRATION_OVER:
        return
    if volume["status"] != "in-use" or volume["attach_status"] != "attached":
        raise rows.invalid(
            "Unable to detach volume. Volume status must be 'in-use' and attach_status must"
            " be 'attached' to detach."
        )
    _set(db, volume, status="detaching")


def roll_detaching(db: sqlite3.Connection, volume: dict[str, Any]) -> None:
    """``os-roll_detaching``: ``detaching`` back to ``in-use``."""
    if volume["status"] == "detaching":
        _set(db, volume, status="in-use")


def attach(
    db: sqlite3.Connection,
    volume: dict[str, Any],
    instance_uuid: str | None,
    host_name: str | None,
    mountpoint: str,
    mode: str,
) -> None:
    """``os-attach`` (the manager's ``attach_volume``): an attachment of
    the instance (or host) that exists already leaves the volume
    ``in-use``; a second attachment of a non-multiattach volume in use
    is refused; a read-only volume only attaches ``ro`` (the attachment
    is left ``error_attaching``)."""
    _maintenance(volume, "The volume cannot be attached in maintenance mode.")
    # the API's attach adds the readonly flag if it is not there yet
    # (cinder/volume/api.py: update_volume_admin_metadata(..., update=False))
    if "readonly" not in admin_metadata(volume):
        _set_admin_metadata(db, volume, readonly="False")
    meta = admin_metadata(volume)
    if volume["status"] == "attaching" and meta.get("attached_mode") not in (None, mode):
        raise _remote(
            "attaching", "InvalidVolume", "Invalid volume: being attached by different mode"
        )
    column, value = ("instance_uuid", instance_uuid) if instance_uuid else (
        "attached_host", host_name)  # fmt: skip
    held = db.execute(
        "SELECT 1 FROM volume_attachments WHERE volume_id = ? AND %s = ?" % column,
        (volume["id"], value),
    ).fetchone()
    if held is not None:
        _set(db, volume, status="in-use")
        return
    if volume["status"] == "in-use" and not attachments.multiattach(db, volume):
        raise _remote(
            "attaching",
            "InvalidVolume",
            "Invalid volume: volume is already attached and multiple attachments are not enabled",
        )
    row = {
        "id": common.new_uuid(),
        "volume_id": volume["id"],
        "instance_uuid": instance_uuid,
        "attached_host": host_name,
        "mountpoint": mountpoint,
        "attach_mode": mode,
        "attach_status": "attaching",
        "created_at": rows.now(),
    }
    if meta.get("readonly") == "True" and mode != "ro":
        row["attach_status"] = "error_attaching"
        rows.insert(db, "volume_attachments", row)
        raise _remote(
            "attaching",
            "InvalidVolumeAttachMode",
            "Invalid attaching mode '%s' for volume %s." % (mode, volume["id"]),
        )
    row.update(attach_status="attached", attached_at=rows.now())
    rows.insert(db, "volume_attachments", row)
    _set(db, volume, status="in-use", attach_status="attached")
    _set_admin_metadata(db, volume, attached_mode=mode)


def _deletion_allowed(db, volume, attachment_id):
    """Cinder's ``attachment_deletion_allowed`` for a user's request: the
    one attachment (or the named one) must exist and not be Nova's
    connected one (Cinder has no instance to name for a missing one)."""
    held = attachments.of_volume(db, volume["id"])
    if attachment_id is None:
        if not held:
            return
        named = held if len(held) == 1 else []
    else:
        named = [a for a in held if a["id"] == attachment_id]
    if not named:
        raise attachments.nova_using("")
    attachments.check_deletion(db, named[0])


def detach(
    db: sqlite3.Connection,
    volume: dict[str, Any],
    attachment_id: str | None,
    doing="detaching",
    service: bool = False,
) -> None:
    """``os-detach`` (the manager's ``detach_volume``): the named
    attachment (or the only one) goes; ``doing``: the error's verb
    (``force detaching`` for ``os-force_detach``); ``service``: a service's
    request, which Cinder's ``is_service_request`` lets skip the check."""
    if not service:
        _deletion_allowed(db, volume, attachment_id)
    _maintenance(volume, "The volume cannot be detached in maintenance mode.")
    held = attachments.of_volume(db, volume["id"])
    if attachment_id is None:
        if len(held) > 1:
            raise _remote(
                doing,
                "InvalidVolume",
                "Invalid volume: Detach volume failed: More than one attachment, but no"
                " attachment_id provided.",
            )
        if not held:
            _set(db, volume, status="available", attach_status="detached")
            return
        attachment_id = held[0]["id"]
    attachments.finish_detach(db, volume["id"], attachment_id)
    volume.update(volumes.find(db, volume["id"]) or {})
    _set_admin_metadata(db, volume, attached_mode=None)


# -- connections --------------------------------------------------------------------


def initialize_connection(
    db: sqlite3.Connection, volume: Mapping[str, Any], connector: Any
) -> dict[str, Any]:
    """``os-initialize_connection``: the driver's connection info (the
    fake driver's iSCSI one) with the manager's additions."""
    _maintenance(volume, "The volume connection cannot be initialized in maintenance mode.")
    connector = connector if isinstance(connector, dict) else {}
    readonly = admin_metadata(volume).get("readonly") == "True"
    mode = admin_metadata(volume).get("attached_mode") or ("ro" if readonly else "rw")
    multipath = connector.get("enforce_multipath", False)
    data = {
        "access_mode": mode,
        "qos_specs": attachments.connection_qos_specs(db, volume),
        "encrypted": False,
        "cacheable": False,
        "enforce_multipath": multipath,
    }
    return {"driver_volume_type": "iscsi", "data": data, "enforce_multipath": multipath}


def terminate_connection(db: sqlite3.Connection, volume: dict[str, Any]) -> None:
    """``os-terminate_connection``: refused while Nova uses the volume's
    connection, then :func:`unreserve`."""
    _deletion_allowed(db, volume, None)
    unreserve(db, volume)


def force_detach(
    db: sqlite3.Connection, volume: dict[str, Any], attachment_id: str | None
) -> None:
    """The admin's ``os-force_detach``: terminate the connection, then
    detach."""
    terminate_connection(db, volume)
    detach(db, volume, attachment_id, doing="force detaching")


# -- flags and image metadata ------------------------------------------------------


def set_bootable(db: sqlite3.Connection, volume: dict[str, Any], bootable: bool) -> None:
    """``os-set_bootable`` (a volume update)."""
    _maintenance(volume, "The volume cannot be updated during maintenance.")
    _set(db, volume, bootable=int(bootable))


def update_readonly_flag(db: sqlite3.Connection, volume: dict[str, Any], readonly: bool) -> None:
    """``os-update_readonly_flag``: an ``available`` volume's admin
    metadata ``readonly``."""
    if volume["status"] != "available":
        raise rows.invalid(
            "Volume %s status must be available to update readonly flag, but current status"
            " is: %s." % (volume["id"], volume["status"])
        )
    _set_admin_metadata(db, volume, readonly=str(readonly))


def image_metadata(volume: Mapping[str, Any]) -> dict[str, str]:
    return json.loads(volume["image_metadata"] or "{}")


def set_image_metadata(
    db: sqlite3.Connection, volume: dict[str, Any], items: Mapping[str, str]
) -> dict[str, str]:
    """``os-set_image_metadata``: merged; the whole image metadata after."""
    if volume["status"] in ("maintenance", "uploading"):
        raise rows.invalid(
            "Updating volume metadata is not allowed for volumes in %s status." % volume["status"]
        )
    current = dict(image_metadata(volume), **items)
    _set(db, volume, image_metadata=json.dumps(current))
    return current


def unset_image_metadata(db: sqlite3.Connection, volume: dict[str, Any], key: str) -> None:
    """``os-unset_image_metadata``: 404 for a key the volume lacks."""
    current = image_metadata(volume)
    if key not in current:
        raise errors.NotFound(
            "Glance metadata for volume/snapshot %s cannot be found." % volume["id"]
        )
    if volume["status"] in ("maintenance", "uploading"):
        raise rows.invalid(
            "Deleting volume metadata is not allowed for volumes in %s status." % volume["status"]
        )
    del current[key]
    _set(db, volume, image_metadata=json.dumps(current) if current else None)


# -- migration (cinder/volume/api.py migrate_volume, the scheduler's and the manager's) ---

# cinder/volume/api.py AVAILABLE_MIGRATION_STATUS: what a new migration may follow
_MIGRATION_OVER = (None, "deleting", "error", "success")
MIGRATE_REFUSED = (
    "Volume %s status must be available or in-use, must not be migrating, have snapshots,"
    " be replicated, be part of a group and destination host/cluster must be different"
    " than the current one"
)


def migrate(
    db: sqlite3.Connection,
    caller: Any,
    volume: dict[str, Any],
    host: str,
    force_host_copy: bool,
    lock_volume: bool,
) -> None:
    """``os-migrate_volume`` to ``host`` (or a cluster's name: the local
    backend is in none): 400 ``InvalidHost`` unless it names the enabled
    volume backend (``localcloud@lvm``, a pool of it or not), 400 for a
    volume Cinder refuses (its status, a migration under way, snapshots,
    a group, its own host ``localcloud@lvm#lvm``). The volume is
    ``starting`` (an ``available`` one ``maintenance`` with
    ``lock_volume``), then as Cinder's scheduler and the LVM manager take
    it on its one backend: a pool it has not (or a type naming another
    backend) is ``error``; an unattached ``available`` volume without
    ``force_host_copy`` is the driver's to move, which refuses the same
    volume group (``migrating``, then ``error``); else the generic copy
    to a new volume on the backend (``migrating``, then ``success``; an
    attached one keeps the copy's id as its ``name_id``, Nova's swap
    taken as done). ``caller``: an admin (for the type's lookup)."""
    backend = host.split("#")[0]  # volume_utils.extract_host(host, 'backend')
    found = services.listing(db, backend, services.VOLUME)
    if not found or found[0]["disabled"]:
        raise errors.BadRequest("Invalid host: No available service named '%s'" % host)
    if (
        volume["status"] not in ("available", "in-use")
        or volume["migration_status"] not in _MIGRATION_OVER
        or volume.get("group_id")
        or host == pools.POOL
        or volumes.has_snapshots(db, volume["id"])
    ):
        raise rows.invalid(MIGRATE_REFUSED % volume["id"])
    previous = volume["status"]
    locked = lock_volume and previous == "available"
    # the scheduler's backend_passes_filters: a host without a pool matches any
    candidate = pools.POOL if "#" in host else pools.POOL.split("#")[0]
    scheduled = candidate == host and bool(
        pools.pools(db, caller, volume_type=volume["volume_type_id"])
    )
    end: dict[str, Any] = {"migration_status": "error"}
    steps = []
    if scheduled:
        steps = [[0.5, {"migration_status": "migrating"}]]
        held = volumes.attachments(db, volume["id"])
        if held or force_host_copy or locked:
            end = {"migration_status": "success", "name_id": common.new_uuid() if held else None}
    if locked:
        end["status"] = previous
    volume.update(status="maintenance" if locked else previous, migration_status="starting")
    progress.start(volume, end, steps=steps)
    volumes.save(db, volume, ("status", "migration_status", "pending", "task_started_at"))


def migrate_completion(
    db: sqlite3.Connection, volume: dict[str, Any], new_volume: dict[str, Any], error: Any
) -> str:
    """``os-migrate_volume_completion`` (Nova's call after swapping an
    attached volume): with neither volume migrating, the attachments move
    to ``new_volume`` (unless ``error``) and its id is the answer; else
    Cinder's 400s (no volume here is ever a migration's target)."""
    if not (volume["migration_status"] or new_volume["migration_status"]):
        if not error:
            for held in attachments.of_volume(db, volume["id"]):
                detach(db, volume, held["id"])
                attach(
                    db,
                    new_volume,
                    held["instance_uuid"],
                    held["attached_host"],
                    held["mountpoint"],
                    "rw",
                )
        return new_volume["id"]
    if not volume["migration_status"]:
        raise rows.invalid("Source volume not mid-migration.")
    if not new_volume["migration_status"]:
        raise rows.invalid("Destination volume not mid-migration.")
    raise rows.invalid(
        "Destination has migration_status %s, expected target:%s."
        % (new_volume["migration_status"], volume["id"])
    )
