"""Nova's side of volumes: ``os-volume_attachments`` (attach, detach, update,
swap), the volumes of block device mappings at create, and what a server
delete does to its volumes.

Nova keeps a block device mapping per attached volume; here it is an item
of the server's ``volumes`` column (``id``, ``delete_on_termination``,
``device``, ``tag``, ``root``, ``attachment_id``, ``bdm_uuid``), which the
server views read (``os-extended-volumes:volumes_attached``). Cinder's side
— the volume's status and its attachment record — is changed through
:mod:`occli.localcloud.volume.volumes` in the same transaction.

When no volume service is mounted (its tables absent, as in compute-only
test clouds) volumes stay opaque ids, as before Cinder existed here:
:func:`cinder` is None and nothing is looked up.
"""

import contextlib
import json
import string

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud import progress
from occli.localcloud.compute import block_devices
from occli.localcloud.compute import server_rows
from occli.localcloud.compute import states
from occli.localcloud.compute import values

# nova's attach_volume / detach_volume check_instance_state
ATTACH_STATES = (
    "active",
    "paused",
    "stopped",
    "resized",
    "soft-delete",
    "shelved",
    "shelved_offloaded",
)


def cinder(db):
    """Cinder's interface module when the volume service's tables exist."""
    found = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'volumes'"
    ).fetchone()
    if found is None:
        return None
    from occli.localcloud.volume import interface

    return interface


class _Joined:
    """A store whose transaction is the request's own (compute's volume
    work runs in a write transaction; a create's checks, on a read
    snapshot, pass the cloud's store instead)."""

    def __init__(self, db):
        self.db = db

    @contextlib.contextmanager
    def transaction(self):
        yield self.db


def _lazy(db, config, table="volumes", store=None):
    return progress.Progress(store if store is not None else _Joined(db), config, table)


def items(server):
    return json.loads(server["volumes"] or "[]")


def _save(db, server, attached):
    server["volumes"] = json.dumps(attached)
    db.execute("UPDATE servers SET volumes = ? WHERE seq = ?", (server["volumes"], server["seq"]))


def find(server, volume_id):
    for item in items(server):
        if item["id"] == volume_id:
            return item
    return None


def not_attached(server_id, volume_id):
    return errors.NotFound("Instance %s is not attached to volume %s" % (server_id, volume_id))


def _next_device(attached):
    used = {block_devices.strip_dev(i.get("device") or "") for i in attached}
    used.add(block_devices.ROOT_DEVICE_NAME)
    for letter in string.ascii_lowercase[1:]:
        if "vd" + letter not in used:
            return "/dev/vd" + letter
    raise errors.Forbidden("The maximum allowed number of disk devices (26) to attach to a"
                           " single instance has been exceeded.")  # fmt: skip


def _item(volume_id, device, tag=None, delete=False, root=False, attachment_id=None):
    return {
        "id": volume_id,
        "delete_on_termination": bool(delete),
        "device": device,
        "tag": tag,
        "root": root,
        "attachment_id": attachment_id or common.new_uuid(),
        "bdm_uuid": common.new_uuid(),
    }


# -- os-volume_attachments ----------------------------------------------------------


def attach(db, caller, config, server, volume_id, device=None, tag=None, delete=False):
    """Nova's ``attach_volume``: the server's state (409), the volume
    (404 unless the caller sees it), not attached already (400), Cinder's
    reserve (400: must be available); the device is the next free
    ``/dev/vdX`` unless a free one is asked for (409 if in use)."""
    server_rows.check_state(server, "attach_volume", ATTACH_STATES)
    attached = items(server)
    volume_rules = cinder(db)
    host = server["host"]
    if volume_rules is not None:
        volume = volume_rules.volumes_get(db, caller, volume_id, _lazy(db, config))
        servers = sorted({a["instance_uuid"] for a in volume_rules.attachments(db, volume_id)})
        if servers:
            raise errors.BadRequest(
                "Invalid volume: volume %s is already attached to instances: %s"
                % (volume_id, " ".join(servers))
            )
        volume_rules.reserve_check(volume)
    elif any(i["id"] == volume_id for i in attached):
        raise errors.BadRequest("Invalid volume: volume %s already attached" % volume_id)
    if device and any(i.get("device") == device for i in attached):
        raise errors.Conflict("The supplied device path (%s) is in use." % device)
    device = device or _next_device(attached)
    attachment_id = None
    if volume_rules is not None:
        attachment_id = volume_rules.attach(db, volume, server["id"], device, host)
    item = _item(volume_id, device, tag, delete, attachment_id=attachment_id)
    attached.append(item)
    _save(db, server, attached)
    return item


def detach(db, caller, config, server, volume_id):
    """Nova's volume attachment DELETE: the volume (404), the mapping
    (404), not the root (400), then lock and state (409)."""
    volume_rules = cinder(db)
    if volume_rules is not None:
        volume_rules.volumes_get(db, caller, volume_id, _lazy(db, config))
    item = find(server, volume_id)
    if item is None:
        raise not_attached(server["id"], volume_id)
    if item.get("root"):
        raise errors.BadRequest("Cannot detach a root device volume")
    server_rows.check_lock(caller, server)
    server_rows.check_state(server, "detach_volume", ATTACH_STATES)
    if volume_rules is not None:
        volume_rules.detach(db, volume_id, server["id"])
    _save(db, server, [i for i in items(server) if i["id"] != volume_id])


def update(db, server, volume_id, body):
    """2.85's update of a mapping: only ``delete_on_termination`` may
    change (400 naming an immutable property otherwise)."""
    attached = items(server)
    item = next((i for i in attached if i["id"] == volume_id), None)
    if item is None:
        raise errors.NotFound("No volume Block Device Mapping with id %s." % volume_id)
    for field, value in (
        ("id", volume_id),
        ("serverId", server["id"]),
        ("device", item.get("device")),
        ("tag", item.get("tag")),
    ):
        if field in body and body[field] != value:
            raise errors.BadRequest("The %s property is not mutable" % field)
    if "delete_on_termination" in body:
        item["delete_on_termination"] = values.truthy(body["delete_on_termination"])
    _save(db, server, attached)


def swap(db, caller, config, server, old_volume_id, new_volume_id):
    """Nova's swap (admin): since nova refuses it unless Cinder is migrating
    the old volume, and nothing migrates here, always 409 once the old
    volume is found (404 otherwise)."""
    volume_rules = cinder(db)
    if volume_rules is not None:
        volume_rules.volumes_get(db, caller, old_volume_id, _lazy(db, config))
    raise errors.Conflict(
        "volume %s is not migrating; this API should only be called by Cinder" % old_volume_id
    )


# -- block device mappings ------------------------------------------------------------


def check_mappings(db, caller, config, mappings, image_given=False, store=None):
    """Nova's ``_validate_bdm`` for volumes and snapshots, against Cinder:
    each must exist for the caller (400 ``failed to get volume/snapshot``),
    a volume must be available (Cinder's reserve, 400) and a boot volume
    bootable unless the request names an image (nova's
    ``get_bdm_image_metadata`` checks it only without one). ``store``: the
    cloud's, when ``db`` is a read snapshot (a volume's lazy progress is
    then written in a short transaction of its own)."""
    volume_rules = cinder(db)
    if volume_rules is None or not mappings:
        return
    for bdm in mappings:
        if bdm.get("image_id") is not None:
            continue
        if bdm.get("volume_id") is not None:
            volume_id = bdm["volume_id"]
            try:
                lazy = _lazy(db, config, store=store)
                volume = volume_rules.volumes_get(db, caller, volume_id, lazy)
            except errors.NotFound:
                raise errors.BadRequest(
                    "Block Device Mapping is Invalid: failed to get volume %s." % volume_id
                ) from None
            # nova's get_bdm_image_metadata, before _validate_bdm's reserve
            if bdm.get("boot_index") == 0 and not volume["bootable"] and not image_given:
                raise errors.BadRequest("Block Device %s is not bootable." % volume_id)
            volume_rules.reserve_check(volume)
            bdm["volume_size"] = volume["size"]
        elif bdm.get("snapshot_id") is not None:
            snapshot_id = bdm["snapshot_id"]
            try:
                snap = volume_rules.snapshots_get(
                    db, caller, snapshot_id, _lazy(db, config, "volume_snapshots", store)
                )
            except errors.NotFound:
                raise errors.BadRequest(
                    "Block Device Mapping is Invalid: failed to get snapshot %s." % snapshot_id
                ) from None
            bdm["volume_size"] = bdm.get("volume_size") or snap["size"]


def boot_volumes(db, caller, config, server, mappings):
    """The volumes of a placed instance (nova's compute manager): an
    existing volume is attached, image/snapshot/blank sources create a
    volume in Cinder (named as nova names them) and attach it. Returns
    the ``volumes`` items, or raises ``errors.Error`` (the build fails)."""
    volume_rules = cinder(db)
    attached: list[dict[str, object]] = []
    for bdm in (m for m in mappings if m.get("destination_type") == "volume"):
        root = bdm.get("boot_index") == 0
        device = bdm.get("device_name")
        device = "/dev/" + block_devices.strip_dev(device) if device else None
        device = device or ("/dev/vda" if root else _next_device(attached))
        delete = bool(bdm.get("delete_on_termination"))
        source = bdm.get("source_type")
        if volume_rules is None:
            volume_id = bdm.get("volume_id") if source == "volume" else common.new_uuid()
            attached.append(_item(volume_id, device, bdm.get("tag"), delete, root))
            continue
        if source == "volume":
            volume = volume_rules.find(db, bdm["volume_id"])
        else:
            spec = {
                "name": server["id"] + "-blank-vol" if source == "blank" else "",
                "size": bdm.get("volume_size"),
                "snapshot_id": bdm.get("snapshot_id") if source == "snapshot" else None,
                "imageRef": bdm.get("image_id") if source == "image" else None,
            }
            volume = volume_rules.volumes_create(db, caller, _Joined(db), config, spec)
            volume.update(status="available", pending=None, task_started_at=None)
            volume_rules.save(db, volume, ("status", "pending", "task_started_at"))
        attachment_id = volume_rules.attach(db, volume, server["id"], device, server["host"])
        attached.append(
            _item(volume["id"], device, bdm.get("tag"), delete, root, attachment_id=attachment_id)
        )
    return attached


def build(db, caller, config, server, mappings):
    """Give a placed instance its volumes; if Cinder refuses one (quota,
    image), the build fails as nova's does: ERROR with a fault."""
    if not any(m.get("destination_type") == "volume" for m in mappings or ()):
        return
    try:
        attached = boot_volumes(db, caller, config, server, mappings)
    except errors.Error as exc:
        states.start(
            server,
            ["block_device_mapping"],
            {"vm_state": "error", "power_state": states.NOSTATE},
            fault={
                "code": 500,
                "message": "Build of instance %s aborted: %s" % (server["id"], exc.message),
            },
        )
        db.execute(
            "UPDATE servers SET task_state = ?, pending = ?, task_started_at = ? WHERE seq = ?",
            (server["task_state"], server["pending"], server["task_started_at"], server["seq"]),
        )
        return
    _save(db, server, attached)


def release(db, server):
    """A deleted server's volumes: detached in Cinder, and deleted when
    their mapping says ``delete_on_termination`` (if Cinder allows it:
    nova only logs a refused delete)."""
    volume_rules = cinder(db)
    if volume_rules is None:
        return
    for item in items(server):
        volume = volume_rules.detach(db, item["id"], server["id"])
        if volume is not None and item.get("delete_on_termination"):
            try:
                volume_rules.volumes_delete(db, volume)
            except errors.Error:
                pass
