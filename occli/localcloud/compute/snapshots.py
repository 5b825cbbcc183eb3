"""Server snapshots (``createImage``) and backups (``createBackup``) as
nova's compute API makes them.

The image is registered with the image service at once, ``queued``, and
becomes ``active`` when the server's snapshot operation ends (``ready_at``:
the same lazy clock as the server's task states). Its properties are those
nova sets (``compute.utils.create_image``): the properties of the image the
server was built from (its ``image_*`` system metadata), ``base_image_ref``,
``owner_project_name``/``owner_user_name`` (who built the server),
``instance_uuid``, ``user_id`` (who asks), ``image_type``, ``boot_roles``
(the roles of the request that built the server, comma-joined: nova's
compute manager keeps them in its system metadata, which
``get_image_from_system_metadata`` copies whole) and the request's
``metadata``; a backup also has ``backup_type``. Backups rotate: the oldest
of the server's backups of that type beyond ``rotation`` are deleted.
"""

import json

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.compute import build
from occli.localcloud.compute import server_rows
from occli.localcloud.compute import states
from occli.localcloud.compute import volume_attach

SNAPSHOT_VM_STATES = ("active", "stopped", "paused", "suspended")
SNAPSHOT_TASKS = [
    "image_snapshot_pending",
    "image_snapshot",
    "image_pending_upload",
    "image_uploading",
]
BACKUP_TASKS = ["image_backup", "image_pending_upload", "image_uploading"]
# nova's NON_INHERITABLE_IMAGE_PROPERTIES and namespaces
NON_INHERITABLE = frozenset(
    [
        "cinder_encryption_key_id",
        "cinder_encryption_key_deletion_policy",
        "img_signature",
        "img_signature_hash_method",
        "img_signature_key_type",
        "img_signature_certificate_uuid",
    ]
)
NON_INHERITABLE_PREFIXES = ("os_glance",)
# members of a Glance image view that are not properties (also the image
# proxy's: its metadata is the rest)
IMAGE_FIELDS = frozenset(
    [
        "id",
        "name",
        "status",
        "visibility",
        "owner",
        "container_format",
        "disk_format",
        "size",
        "virtual_size",
        "checksum",
        "os_hash_algo",
        "os_hash_value",
        "min_disk",
        "min_ram",
        "protected",
        "os_hidden",
        "tags",
        "created_at",
        "updated_at",
        "self",
        "file",
        "schema",
        "locations",
        "direct_url",
        "stores",
    ]
)


def _inherited(base_image):
    """The base image's properties a snapshot inherits."""
    if base_image is None:
        return {}
    return {
        key: str(value)[:255]
        for key, value in base_image.items()
        if key not in IMAGE_FIELDS
        and key not in NON_INHERITABLE
        and not key.startswith(NON_INHERITABLE_PREFIXES)
        and value is not None
    }


def _image_meta(db, caller, server, images, image_type, extra, owner_names):
    """``(properties, min_disk, min_ram, visibility)`` of a new snapshot."""
    flavor = json.loads(server["flavor"])
    base = images.get_image(db, server["image_ref"]) if server["image_ref"] else None
    properties = _inherited(base)
    properties["base_image_ref"] = server["image_ref"]
    properties["owner_project_name"], properties["owner_user_name"] = owner_names
    roles = server_rows.boot_roles(db, server["id"])
    if roles is not None:
        properties["boot_roles"] = roles
    properties.update(
        {"instance_uuid": server["id"], "user_id": caller.user_id, "image_type": image_type}
    )
    visibility = "private"
    if caller.project_id != server["project_id"]:
        # an admin's snapshot of another project's server is shared with it
        visibility = "shared"
        properties["instance_owner"] = server["project_id"]
    properties.update(extra)
    min_disk = max((base or {}).get("min_disk") or 0, flavor["disk"])
    min_ram = (base or {}).get("min_ram") or 0
    return properties, min_disk, min_ram, visibility


def _create(db, caller, server, images, name, image_type, extra, owner_names, build_time):
    properties, min_disk, min_ram, visibility = _image_meta(
        db, caller, server, images, image_type, extra, owner_names
    )
    flavor = json.loads(server["flavor"])
    return images.create_image(
        db,
        name,
        caller.project_id,
        visibility=visibility,
        size=flavor["disk"] * build.GIB // 64,
        min_disk=min_disk,
        min_ram=min_ram,
        properties=properties,
        ready_at=common.utcnow().timestamp() + max(build_time, 0),
    )["id"]


def _volume_mappings(db, caller, server, name):
    """Nova's image mappings of a volume-backed server's volumes: each
    volume Cinder has is snapshotted (``snapshot for <image name>``, an
    in-use volume forced) and mapped by its snapshot; a volume Cinder does
    not know (no volume service) is mapped by its id."""
    cinder = volume_attach.cinder(db)
    mappings: list[dict[str, object]] = []
    for item in volume_attach.items(server):
        mapping = {
            "boot_index": 0 if item.get("root", not mappings) else None,
            "delete_on_termination": bool(item.get("delete_on_termination")),
            "destination_type": "volume",
            "device_name": item.get("device"),
            "device_type": None,
            "disk_bus": None,
            "guest_format": None,
            "image_id": None,
            "no_device": None,
            "snapshot_id": None,
            "source_type": "volume",
            "tag": item.get("tag"),
            "volume_id": item["id"],
            "volume_size": None,
            "volume_type": None,
        }
        volume = cinder.find(db, item["id"]) if cinder is not None else None
        if volume is not None:
            snap = cinder.snapshots_create(
                db, caller, volume, "snapshot for %s" % name, None, {}, allow_in_use=True
            )
            mapping.update(
                source_type="snapshot",
                snapshot_id=snap["id"],
                volume_id=None,
                volume_size=volume["size"],
            )
        mappings.append(mapping)
    return mappings


def _volume_backed_image(db, caller, server, images, name, extra):
    """``snapshot_volume_backed``: an image without data (size 0, no
    formats) mapping snapshots of the server's volumes (see
    :func:`_volume_mappings`), the root device named; active at once."""
    properties, min_disk, min_ram, visibility = _image_meta(
        db, caller, server, images, "snapshot", extra, (None, None)
    )
    for key in ("owner_project_name", "owner_user_name", "image_type", "user_id"):
        properties.pop(key, None)
    properties["bdm_v2"] = True
    properties["root_device_name"] = server["root_device_name"] or "/dev/vda"
    properties["block_device_mapping"] = json.dumps(_volume_mappings(db, caller, server, name))
    properties.update(extra)
    return images.create_image(
        db,
        name,
        caller.project_id,
        visibility=visibility,
        container_format=None,
        disk_format=None,
        size=0,
        min_disk=min_disk,
        min_ram=min_ram,
        properties=properties,
    )["id"]


def snapshot(db, caller, server, images, name, metadata, owner_names, build_time):
    """``createImage``: the new image's id. ``owner_names``: the project and
    user names of the server's owner; ``images``: the image service (None:
    an id is made up and nothing registered)."""
    server_rows.check_state(server, "createImage", SNAPSHOT_VM_STATES)
    if images is None:
        image_id = common.new_uuid()
    elif not server["image_ref"]:
        return _volume_backed_image(db, caller, server, images, name, metadata)
    else:
        image_id = _create(
            db, caller, server, images, name, "snapshot", metadata, owner_names, build_time
        )
    _start(db, server, SNAPSHOT_TASKS)
    return image_id


def backup(
    db, caller, server, images, name, backup_type, rotation, metadata, owner_names, build_time
):
    """``createBackup``: the new image's id; the server's backups of
    ``backup_type`` beyond the newest ``rotation`` are deleted (0: all of
    them, this one included, as nova's rotation does after the upload)."""
    server_rows.check_state(server, "createBackup", SNAPSHOT_VM_STATES)
    if not server["image_ref"]:
        raise errors.BadRequest("Backup is not supported for volume-backed instances.")
    extra = dict(metadata, backup_type=backup_type)
    if images is None:
        image_id = common.new_uuid()
    else:
        image_id = _create(
            db, caller, server, images, name, "backup", extra, owner_names, build_time
        )
        found = images.find_by_properties(
            db,
            caller.project_id,
            image_type="backup",
            backup_type=backup_type,
            instance_uuid=server["id"],
        )
        for old in found[rotation:]:
            images.delete_image(db, old)
    _start(db, server, BACKUP_TASKS)
    return image_id


def _start(db, server, tasks):
    states.start(server, tasks, {})
    server_rows.touch(server)
    server_rows.save(db, server)
