"""Volumes: Cinder's volume API rules over the ``volumes`` table (create
blank / from an image / from a snapshot / from a volume, lookups, listing,
update, extend, metadata, delete) with Cinder's messages.

``caller`` is anything with ``project_id``, ``user_id`` and ``is_admin``.
Every read goes through :func:`get` or :func:`listing`, which advance the
lazy ``creating`` → ``available`` transition (:mod:`occli.localcloud.progress`).
"""

import ast
import json
import sqlite3
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud import progress
from occli.localcloud import validation
from occli.localcloud.common import Asker
from occli.localcloud.image import interface as glance
from occli.localcloud.volume import groups
from occli.localcloud.volume import list_filters
from occli.localcloud.volume import quotas
from occli.localcloud.volume import rows
from occli.localcloud.volume import snapshots
from occli.localcloud.volume import types

GIB = 1024**3
DELETABLE = ("available", "error", "error_restoring", "error_extending", "error_managing")
DELETE_REFUSED = (
    "Invalid volume: Volume status must be %s and must not be migrating, attached, belong"
    " to a group, have snapshots, awaiting a transfer, or be disassociated from snapshots"
    " after volume transfer." % " or ".join(DELETABLE)
)
# cinder's resource_filters.json "volume" (what a list may filter on)
FILTERS = (
    "name",
    "status",
    "metadata",
    "bootable",
    "migration_status",
    "availability_zone",
    "group_id",
    "size",
    "created_at",
    "updated_at",
    "consumes_quota",
)
SORT_KEYS = ("id", "name", "status", "size", "created_at", "updated_at", "availability_zone")


def not_found(volume_id):
    return errors.NotFound("Volume %s could not be found." % volume_id)


def _step(volume, plan, fraction):
    """A running plan's ``steps`` (``[[fraction, {columns}]]``, a
    migration's ``migrating``): the columns of each step reached."""
    for at, columns in plan.get("steps", ()):
        if fraction >= at:
            volume.update(columns)


def lazy_volumes(store, config):
    return progress.Progress(store, config, "volumes", step=_step)


# -- lookups --------------------------------------------------------------------


def find(db: sqlite3.Connection, volume_id: str) -> dict[str, Any] | None:
    """The stored row ``volume_id`` as a dict (no ownership check), or None."""
    row = db.execute("SELECT * FROM volumes WHERE id = ?", (str(volume_id),)).fetchone()
    return dict(row) if row else None


def get(
    db: sqlite3.Connection, caller: Asker, volume_id: str, progress: progress.Progress
) -> dict[str, Any]:
    """The volume ``caller`` may see, advanced to now; another project's
    volume is not found (admins see every one)."""
    volume = find(db, volume_id)
    if volume is None or (volume["project_id"] != caller.project_id and not caller.is_admin):
        raise not_found(volume_id)
    return progress.advance([volume])[0]


def attachments(db: sqlite3.Connection, volume_id: str) -> list[dict[str, Any]]:
    return attachments_of(db, [volume_id]).get(volume_id, [])


def attachments_of(db, volume_ids):
    """``{volume id: [attachment rows]}`` of ``volume_ids``, in one query."""
    found: dict[str, list[dict[str, object]]] = {}
    for r in db.execute(
        "SELECT * FROM volume_attachments WHERE volume_id IN (SELECT value FROM json_each(?))"
        " ORDER BY attached_at, id",
        (json.dumps(list(volume_ids)),),
    ):
        found.setdefault(r["volume_id"], []).append(dict(r))
    return found


def has_snapshots(db, volume_id):
    return (
        db.execute("SELECT 1 FROM volume_snapshots WHERE volume_id = ?", (volume_id,)).fetchone()
        is not None
    )


# -- create ---------------------------------------------------------------------


def _image_id(db, caller, ref):
    """Cinder's ``_image_uuid_from_ref``: the id at the end of the ref, else
    a unique name; 400 otherwise (also for an image the caller cannot see)."""
    image = glance.get_visible_image(db, caller, ref.split("/").pop())
    if image is not None:
        return image
    matches = glance.page(db, caller, {"name": ref}, None, 1, None)
    if len(matches) > 1:
        raise errors.Conflict(
            "Multiple matches found for '%s', use an ID to be more specific." % ref
        )
    if matches:
        return matches[0]
    raise errors.BadRequest("Invalid image identifier or unable to access requested image.")


def _boot_snapshot_id(image):
    """The snapshot a Nova snapshot image of a volume-backed server boots
    from: its ``block_device_mapping`` property's ``source_type:
    snapshot`` entry of ``boot_index`` 0 (cinder/api/v3/volumes.py
    ``_get_image_snapshot``), or None."""
    bdms = image.get("block_device_mapping") or []
    if isinstance(bdms, str):
        try:
            bdms = json.loads(bdms)
        except ValueError:
            return None
    boot = [
        b
        for b in bdms
        if isinstance(b, dict) and b.get("source_type") == "snapshot" and b.get("boot_index") == 0
    ]
    return boot[0].get("snapshot_id") if boot else None


def _image_snapshot(db, caller, store, config, snapshot_id):
    """The boot snapshot of a Nova image (3.46), Cinder's 404 when gone."""
    try:
        return snapshots.get(db, caller, snapshot_id, snapshots.lazy_snapshots(store, config))
    except errors.NotFound:
        raise errors.NotFound(
            "Nova specific image is found, but boot volume snapshot id:%s not found." % snapshot_id
        ) from None


def _check_image(image, size):
    """Cinder's ``check_image_metadata``."""
    if image["status"] != "active":
        raise errors.BadRequest("Invalid input received: Image %s is not active." % image["id"])
    image_gb = ((image.get("size") or 0) + GIB - 1) // GIB
    if image_gb > size:
        raise errors.BadRequest(
            "Invalid input received: Size of specified image %sGB is larger than volume size"
            " %sGB." % (image_gb, size)
        )
    min_disk = image.get("min_disk") or 0
    if size < min_disk:
        raise errors.BadRequest(
            "Invalid input received: Volume size %sGB cannot be smaller than the image minDisk"
            " size %sGB." % (size, min_disk)
        )


def _image_metadata(image):
    keys = ("checksum", "container_format", "disk_format", "min_disk", "min_ram", "size")
    meta = {k: str(image.get(k)) for k in keys if image.get(k) is not None}
    meta.update(image_id=image["id"], image_name=image.get("name") or "")
    return meta


def _source_status(resource, name, statuses, exc_prefix):
    if resource is not None and resource["status"] not in statuses:
        raise errors.BadRequest(
            "%s: Originating %s status must be one of '%s' values"
            % (exc_prefix, name, ", ".join(statuses))
        )


def create(
    db: sqlite3.Connection, caller: Asker, store: Any, config: Any, spec: Mapping[str, Any]
) -> dict[str, Any]:
    """Cinder's volume create: ``spec`` holds the request's ``size``,
    ``name``, ``description``, ``volume_type``, ``metadata``,
    ``snapshot_id``, ``source_volid``, ``imageRef``, ``availability_zone``,
    ``group_id`` (each optional); ``nova_images`` (3.46): an image of a
    volume snapshot made by Nova is its snapshot. Returns the new row, ``creating``."""
    type_ref = spec.get("volume_type")
    vtype = (
        types.by_name_or_id(db, caller, type_ref)
        if type_ref
        else types.default(db, caller.project_id)
    )
    group = None
    if spec.get("group_id") is not None:
        group = groups.get_group(db, caller, spec["group_id"])
        groups.check_volume_type(group, vtype)
    snapshot = source = image = None
    if spec.get("snapshot_id") is not None:
        snapshot = snapshots.get(
            db, caller, spec["snapshot_id"], snapshots.lazy_snapshots(store, config)
        )
    if spec.get("source_volid") is not None:
        source = get(db, caller, spec["source_volid"], lazy_volumes(store, config))
    if spec.get("imageRef") is not None:
        image = _image_id(db, caller, spec["imageRef"])
        boot_snapshot = _boot_snapshot_id(image) if spec.get("nova_images") else None
        if boot_snapshot is not None:
            snapshot, image = _image_snapshot(db, caller, store, config, boot_snapshot), None
    size = spec.get("size")
    if size is None and snapshot is not None:
        size = snapshot["size"]
    elif size is None and source is not None:
        size = source["size"]
    if size is None and image is None:
        # webob's own 400 text, as Cinder 29 answers a volume of no size
        raise errors.BadRequest(
            "The server could not comply with the request since it is either malformed or"
            " otherwise incorrect."
        )
    size = _as_int(size)
    if not isinstance(size, int) or not 0 < size <= quotas.DB_MAX_INT:
        raise errors.BadRequest(
            "Invalid input received: Volume size '%s' must be an integer and greater than 0" % size
        )
    if source is not None and size < source["size"]:
        raise errors.BadRequest(
            "Invalid input received: Volume size '%s'GB cannot be smaller than original volume"
            " size  %sGB. They must be >= original volume size." % (size, source["size"])
        )
    if source is None and snapshot is not None and size < snapshot["size"]:
        raise errors.BadRequest(
            "Invalid input received: Volume size '%s'GB cannot be smaller than the snapshot size"
            " %sGB. They must be >= original snapshot size." % (size, snapshot["size"])
        )
    _source_status(snapshot, "snapshot", ("available",), "Invalid snapshot")
    _source_status(source, "source volume", ("available", "in-use"), "Invalid volume")
    if image is not None:
        _check_image(image, size)
    snapshot_volume = snapshot and find(db, snapshot["volume_id"])
    zone = spec.get("availability_zone")
    if zone is None:
        zone = (snapshot_volume or source or {}).get("availability_zone", rows.ZONE)
    if zone != rows.ZONE:
        raise errors.BadRequest("Availability zone '%s' is invalid." % zone)
    quotas.check_volume(db, caller.project_id, vtype["name"], size)
    bootable = bool(image)
    image_meta = _image_metadata(image) if image else None
    origin = source or snapshot_volume
    if origin:
        bootable = bool(origin["bootable"])
        image_meta = origin["image_metadata"] and json.loads(origin["image_metadata"])
    row = {
        "id": common.new_uuid(),
        "project_id": caller.project_id,
        "user_id": caller.user_id,
        "name": spec.get("name"),
        "description": spec.get("description"),
        "size": size,
        "status": "creating",
        "attach_status": "detached",
        "availability_zone": zone,
        "bootable": int(bootable),
        "volume_type_id": vtype["id"],
        "snapshot_id": snapshot["id"] if snapshot else None,
        "source_volid": source["id"] if source else None,
        "image_id": image["id"] if image else None,
        "image_metadata": json.dumps(image_meta) if image_meta else None,
        "metadata": json.dumps(spec.get("metadata") or {}),
        "created_at": rows.now(),
        "updated_at": None,
        "group_id": group["id"] if group else None,
    }
    # a blank volume is made at once (an LVM volume takes a moment, so a
    # script's `volume create` then `server add volume` works, as with a
    # real Cinder); copying an image or a snapshot takes the build time
    blank = not (image or snapshot or source)
    progress.start(row, {"status": "available"}, duration=0 if blank else None)
    rows.insert(db, "volumes", row)
    return row


def _as_int(value):
    """cinder's ``utils.as_int`` (quiet): the int, else the value itself."""
    if isinstance(value, bool):
        return value
    try:
        return int(value)
    except (TypeError, ValueError):
        return value


# -- listing ----------------------------------------------------------------------


def _metadata_filter(value):
    if isinstance(value, dict):
        return value
    try:
        parsed = ast.literal_eval(value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        parsed = None
    if not isinstance(parsed, dict):
        raise errors.BadRequest("Invalid input received: Invalid metadata filter %s" % value)
    return parsed


def _bool(value):
    """cinder's ``strutils.bool_from_string(strict=True)``, with its text."""
    try:
        return validation.bool_from_string(value, strict=True)
    except ValueError:
        raise errors.BadRequest(
            "Invalid input received: Invalid boolean value %s" % value
        ) from None


def _matches(volume, filters):
    for key, value in filters.items():
        if key == "metadata":
            stored = json.loads(volume["metadata"])
            if any(stored.get(k) != str(v) for k, v in value.items()):
                return False
        elif key == "bootable":
            if bool(volume["bootable"]) != value:
                return False
        elif key == "size":
            if str(volume["size"]) != str(value):
                return False
        elif key in ("name", "status", "availability_zone"):
            if volume[key] != value:
                return False
        elif key == "migration_status":
            if value not in (None, "", "None"):
                return False
        elif key == "group_id":
            if volume.get("group_id") != value:
                return False
        elif key == "consumes_quota" and not _bool(value):
            return False
        elif key == list_filters.GLANCE_METADATA:
            if not list_filters.glance_matches(volume["image_metadata"], value):
                return False
        elif key in list_filters.TIMES:
            if not list_filters.time_matches(volume[key], value):
                return False
        elif (
            key.endswith("~")
            and key[:-1] in list_filters.LIKE_COLUMNS
            and not list_filters.like_matches(volume.get(key[:-1]), value)
        ):
            return False
    return True


def parse_filters(params):
    """Filters from query ``params`` (a dict of last values), checked."""
    filters = {}
    for key, value in params.items():
        if key == "metadata":
            filters[key] = _metadata_filter(value)
        elif key == "bootable":
            filters[key] = _bool(value)
        elif key == list_filters.GLANCE_METADATA:
            filters[key] = list_filters.literal_dict(value)
        elif key in list_filters.TIMES:
            filters[key] = list_filters.time_comparisons(value)
        else:
            filters[key] = value
    return filters


def sort_order(sort_keys: Sequence[str], sort_dirs: Sequence[str]) -> list[tuple[str, bool]]:
    return rows.sort_order(sort_keys, sort_dirs, SORT_KEYS)


def listing(
    db: sqlite3.Connection,
    caller: Asker,
    progress: progress.Progress,
    project_id: str | None,
    filters: Mapping[str, Any],
    order: list[tuple[str, bool]],
    marker: str | None,
    limit: int | None,
) -> list[dict[str, Any]]:
    """The volumes of ``project_id`` (None: all) matching ``filters`` in
    ``order``, after the ``marker`` volume, at most ``limit``."""
    if project_id is None:
        stored = db.execute("SELECT * FROM volumes").fetchall()
    else:
        stored = db.execute("SELECT * FROM volumes WHERE project_id = ?", (project_id,)).fetchall()
    volumes = progress.advance([dict(r) for r in stored])
    found = rows.sort([v for v in volumes if _matches(v, filters)], order)
    return rows.page(found, volumes, marker, limit)


# -- changes ----------------------------------------------------------------------


def save(db: sqlite3.Connection, volume: dict[str, Any], columns: Iterable[str]) -> None:
    """Write ``columns`` of ``volume``, ``updated_at`` now."""
    rows.save(db, "volumes", volume, columns)


def update(db, volume, changes):
    """Set ``name``/``description``/``metadata`` (a dict) and save."""
    if "metadata" in changes:
        changes = dict(changes, metadata=json.dumps(changes["metadata"]))
    volume.update(changes)
    save(db, volume, changes)
    return volume


def delete(db: sqlite3.Connection, volume: Mapping[str, Any], force: bool = False) -> None:
    """Cinder's delete conditions (400 with its text), then the row goes."""
    if (
        (not force and volume["status"] not in DELETABLE)
        or volume["attach_status"] == "attached"
        or has_snapshots(db, volume["id"])
        or volume.get("group_id")
    ):
        raise errors.BadRequest(DELETE_REFUSED)
    db.execute("DELETE FROM volumes WHERE id = ?", (volume["id"],))


def extend(db, volume, new_size, attached_ok):
    """``os-extend``: larger only, ``available`` (``in-use`` from 3.42),
    within quota; the size changes at once, the status goes ``extending``
    then back."""
    new_size = _as_int(new_size)
    if not isinstance(new_size, int) or not volume["size"] < new_size <= quotas.DB_MAX_INT:
        raise errors.BadRequest(
            "Invalid input received: New size for extend must be greater than current size."
            " (current: %s, extended: %s)." % (volume["size"], new_size)
        )
    expected = "in-use" if attached_ok and volume["status"] == "in-use" else "available"
    if volume["status"] != expected:
        raise rows.invalid(
            "Volume %s status must be '%s' to extend, currently %s."
            % (volume["id"], str({"status": expected}), volume["status"])
        )
    vtype = types.names(db).get(volume["volume_type_id"], "")
    quotas.check_extend(db, volume["project_id"], vtype, new_size, new_size - volume["size"])
    volume["size"] = new_size
    volume["status"] = "extending"
    progress.start(volume, {"status": expected})
    save(db, volume, ("size", "status", "pending", "task_started_at"))


# cinder/objects/fields.py VolumeStatus.ALL, VolumeAttachStatus
STATUSES = ("creating", "available", "deleting", "error", "error_deleting", "error_managing",
            "managing", "attaching", "in-use", "detaching", "maintenance", "restoring-backup",
            "error_restoring", "reserved", "awaiting-transfer", "backing-up",
            "error_backing-up", "error_extending", "downloading", "uploading", "retyping",
            "extending")  # fmt: skip
ATTACH_STATUSES = ["attached", "detached"]
RETYPE_REFUSED = (
    "Retype needs volume to be in available or in-use state, not be part of an active"
    " migration or a consistency group, requested type has to be different that the one"
    " from the volume, and for in-use volumes front-end qos specs cannot change."
)


def revert(
    db: sqlite3.Connection,
    volume: dict[str, Any],
    snapshot_id: str | None,
    lazy: progress.Progress,
) -> None:
    """Cinder's ``revert`` (3.40): only to the volume's latest snapshot,
    of its size (400s), both ``available`` (409s); the volume goes
    ``reverting`` and the snapshot ``restoring``, then both back.
    ``lazy``: the snapshots' progress."""
    found = db.execute(
        "SELECT * FROM volume_snapshots WHERE volume_id = ? ORDER BY created_at DESC, seq DESC",
        (volume["id"],),
    ).fetchall()
    if not found:
        raise errors.BadRequest("Volume %s doesn't have any snapshots." % volume["id"])
    latest = lazy.advance([dict(found[0])])[0]
    if snapshot_id is None or snapshot_id != latest["id"]:
        raise errors.BadRequest(
            "Specified snapshot %s is None or not the latest one of volume %s."
            % (snapshot_id, volume["id"])
        )
    head = "Can't revert volume %s to its latest snapshot %s." % (volume["id"], latest["id"])
    if volume["size"] != latest["size"]:
        raise errors.BadRequest(head + " The volume size must be equal to the snapshot size.")
    if volume["status"] != "available":
        raise errors.Conflict("Invalid volume: %s Volume's status must be 'available'." % head)
    if latest["status"] != "available":
        raise errors.Conflict("Invalid snapshot: %s Snapshot's status must be 'available'." % head)
    volume["status"] = "reverting"
    progress.start(volume, {"status": "available"})
    save(db, volume, ("status", "pending", "task_started_at"))
    latest["status"] = "restoring"
    progress.start(latest, {"status": "available"})
    rows.save(db, "volume_snapshots", latest, ("status", "pending", "task_started_at"))


def summary(
    db: sqlite3.Connection, project_id: str | None
) -> tuple[int, int, dict[str, list[str]]]:
    """Cinder's ``get_volume_summary``: the count and total size of
    ``project_id``'s volumes (None: every project's) and the distinct
    values of each metadata key."""
    if project_id is None:
        found = db.execute("SELECT size, metadata FROM volumes").fetchall()
    else:
        found = db.execute(
            "SELECT size, metadata FROM volumes WHERE project_id = ?", (project_id,)
        ).fetchall()
    values: dict[str, list[str]] = {}
    for row in found:
        for key, value in json.loads(row["metadata"]).items():
            if value not in values.setdefault(key, []):
                values[key].append(value)
    return len(found), sum(r["size"] for r in found), values


def retype(db: sqlite3.Connection, volume: dict[str, Any], new_type: Mapping[str, Any]) -> None:
    """Cinder's ``retype`` to ``new_type`` (found as Cinder finds it, with
    an elevated context): within the new type's own quotas, an
    ``available`` or ``in-use`` volume of another type. One backend serves
    every type here, so the driver retypes in place and no migration is
    ever needed: ``migration_policy`` changes nothing. The volume is
    ``retyping``, then back to its status."""
    type_name = new_type["name"]
    limit, used = quotas.limits(db, volume["project_id"]), quotas.usage(db, volume["project_id"])
    gigabytes, count = "gigabytes_" + type_name, "volumes_" + type_name
    if (
        limit.get(gigabytes, -1) >= 0
        and used.get(gigabytes, 0) + volume["size"] > limit[gigabytes]
    ):
        raise quotas.QuotaExceeded(
            "Requested volume or snapshot exceeds allowed %s quota. Requested %sG, quota is"
            " %sG and %sG has been consumed."
            % (gigabytes, volume["size"], limit[gigabytes], used[gigabytes])
        )
    if limit.get(count, -1) >= 0 and used.get(count, 0) + 1 > limit[count]:
        raise quotas.QuotaExceeded(
            "Maximum number of volumes allowed (%d) exceeded for quota '%s'."
            % (limit[count], count)
        )
    if (
        volume["status"] not in ("available", "in-use")
        or volume["volume_type_id"] == new_type["id"]
    ):
        raise rows.invalid(RETYPE_REFUSED)
    previous = volume["status"]
    volume.update(status="retyping", volume_type_id=new_type["id"])
    progress.start(volume, {"status": previous})
    save(db, volume, ("status", "volume_type_id", "pending", "task_started_at"))


def reset_status(
    db: sqlite3.Connection, volume: dict[str, Any], update: Mapping[str, Any]
) -> None:
    """The admin's ``os-reset_status`` (cinder/api/contrib/admin_actions.py):
    ``status`` and ``attach_status`` (lower case, checked) as given, no
    transition left pending; ``detached`` drops the attachments. Cinder
    refuses ``deleting`` and ``in-use`` without an attachment."""
    if not any(update.get(k) for k in ("status", "attach_status", "migration_status")):
        raise errors.BadRequest(
            "Must specify 'status', 'attach_status' or 'migration_status' for update."
        )
    status, attach_status = update.get("status"), update.get("attach_status")
    if status and status.lower() not in STATUSES:
        raise errors.BadRequest(
            "Volume status: %s is invalid, valid statuses are: %s." % (status, STATUSES)
        )
    if attach_status and attach_status.lower() not in ATTACH_STATUSES:
        raise errors.BadRequest(
            "Volume attach status: %s is invalid, valid statuses are: %s."
            % (attach_status, ATTACH_STATUSES)
        )
    changes = {}
    if status:
        changes["status"] = status.lower()
    if attach_status:
        changes["attach_status"] = attach_status.lower()
    # Cinder's tuple lacks a comma: 'error_deleting' and 'detaching' pass
    if changes.get("status") in ("deleting", "error_deletingdetaching"):
        raise errors.BadRequest("Cannot reset-state to %s" % changes["status"])
    if changes.get("status") == "in-use" and not attachments(db, volume["id"]):
        raise errors.BadRequest(
            "Cannot reset-state to in-use because volume does not have any attachments."
        )
    volume.update(changes, pending=None, task_started_at=None)
    save(db, volume, [*changes, "pending", "task_started_at"])
    if changes.get("attach_status") == "detached":
        db.execute("DELETE FROM volume_attachments WHERE volume_id = ?", (volume["id"],))


# -- metadata ---------------------------------------------------------------------


def metadata(volume: Mapping[str, Any]) -> dict[str, str]:
    return json.loads(volume["metadata"])


def set_metadata(db, volume, items, replace=False):
    current = {} if replace else metadata(volume)
    current.update({k: str(v) if not isinstance(v, str) else v for k, v in items.items()})
    update(db, volume, {"metadata": current})
    return current


def delete_metadata(db, volume, key):
    current = metadata(volume)
    if key not in current:
        raise errors.NotFound("Volume %s has no metadata with key %s." % (volume["id"], key))
    del current[key]
    update(db, volume, {"metadata": current})


# -- attachments (Nova's side calls these) ---------------------------------------


def reserve_check(volume: Mapping[str, Any]) -> None:
    """Cinder's ``_attachment_reserve`` status check (non-multiattach)."""
    if volume["status"] not in ("available", "downloading"):
        raise rows.invalid(
            "Volume %s status must be available or downloading to reserve, but the current"
            " status is %s." % (volume["id"], volume["status"])
        )


# -- upload to image (cinder/volume/api.py copy_volume_to_image) -----------------


def upload_to_image(
    db: sqlite3.Connection,
    caller: Asker,
    volume: dict[str, Any],
    image: Mapping[str, Any],
    force: bool,
    build_time: float,
) -> dict[str, Any]:
    """``os-volume_upload_image``: the volume ``available`` (or ``in-use``
    with ``force``), else Cinder's 400; it goes ``uploading`` and back to
    its status after the build time, when the image Glance made for it
    (``image``: name, disk and container formats, visibility, protected)
    becomes ``active``. Returns the action's answer, as Cinder's (its
    ``volume_type`` the type's view).

    The local volume holds no bytes: the image has the size a raw upload
    of the whole volume has (its size in GiB) and no data, as Nova's
    snapshots here (a download is Glance's 204).
    """
    expected = ("available", "in-use") if force else ("available",)
    if volume["status"] not in expected:
        raise rows.invalid("Volume %s status must be %s" % (volume["id"], " or ".join(expected)))
    previous = volume["status"]
    volume["status"] = "uploading"
    progress.start(volume, {"status": previous})
    save(db, volume, ("status", "pending", "task_started_at"))
    made = glance.create_uploaded_image(
        db,
        caller,
        image,
        size=volume["size"] * GIB,
        ready_at=volume["task_started_at"] + max(build_time, 0),
    )
    # Cinder answers with the volume's VolumeType object, a dict in JSON
    vtype = types.find(db, volume["volume_type_id"])
    return {
        "id": volume["id"],
        "updated_at": volume["updated_at"],
        "status": "uploading",
        "display_description": volume["description"],
        "size": volume["size"],
        "volume_type": vtype and types.view(vtype),
        "image_id": made["id"],
        "container_format": image["container_format"],
        "disk_format": image["disk_format"],
        "image_name": image["name"],
        "protected": made["protected"],
        "visibility": made["visibility"],
    }


def reimage(
    db: sqlite3.Connection,
    caller: Asker,
    volume: dict[str, Any],
    image_id: str,
    reserved: bool,
) -> None:
    """``os-reimage`` (3.68, cinder/volume/api.py ``reimage``): the volume
    written anew from image ``image_id`` (its image metadata that image's,
    bootable), back in its status at once as the LVM manager ends it.
    Cinder's 404 for an image the caller cannot see, 400 for a boot
    snapshot larger than the volume, 409 for a volume attached to several
    servers, 400 unless ``available`` or ``error`` (or ``reserved`` with
    ``reserved``), 400 for an inactive or larger image."""
    image = glance.get_visible_image(db, caller, image_id)
    if image is None:
        raise errors.NotFound("Image %s could not be found." % image_id)
    boot = _boot_snapshot_id(image)
    bdms = image.get("block_device_mapping")
    if boot is not None and isinstance(bdms, str):
        size = next(b.get("volume_size") for b in json.loads(bdms) if b.get("snapshot_id") == boot)
        if isinstance(size, int) and size > volume["size"]:
            raise errors.BadRequest(
                "Volume size must be greater than the image size. (Image: %s, Volume: %s)."
                % (size, volume["size"])
            )
    if len(attachments(db, volume["id"])) > 1:
        raise errors.Conflict(
            "Cannot re-image a volume which is attached to more than one server."
        )
    allowed = ("available", "error", "reserved") if reserved else ("available", "error")
    if volume["status"] not in allowed:
        raise rows.invalid(
            "Volume %s status must be %s, but current status is %s."
            % (volume["id"], " or ".join(allowed), volume["status"])
        )
    _check_image(image, volume["size"])
    volume["image_id"], volume["bootable"] = image["id"], 1
    volume["image_metadata"] = json.dumps(_image_metadata(image))
    save(db, volume, ("image_id", "bootable", "image_metadata"))
