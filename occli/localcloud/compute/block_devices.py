"""Block device mappings of ``POST /servers``, checked as nova checks them.

Two stages, like nova:

* :func:`from_request` is the API layer (``_process_bdms_for_create`` and
  ``BlockDeviceDict.from_api``): one syntax per request, device uuids,
  image→local only as the ``imageRef`` boot disk, field formats.
* :func:`transform` and :func:`validate` are the compute API
  (``_check_and_transform_bdm`` and ``_validate_bdm``): legacy mappings
  converted, the image / flavor disks added, then boot sequence, images,
  volume sizes, ephemeral and swap sizes against the flavor and the local
  device limit.

There is no Cinder: ``volume``/``snapshot`` uuids are opaque ids (never
looked up); :func:`attached_volumes` lists every mapping with destination
``volume`` the way ``os-extended-volumes:volumes_attached`` shows them.
All errors are ``errors.BadRequest`` (400) with nova's exception texts.
"""

import re

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.compute import values

# nova's [DEFAULT] max_local_block_devices
MAX_LOCAL_BLOCK_DEVICES = 3
# nova assumes this root device name when the image names none
ROOT_DEVICE_NAME = "vda"

BOOT_SEQUENCE = (
    "Block Device Mapping is Invalid: Boot sequence for the "
    "instance and image/block device mapping combination is "
    "not valid."
)
EPHEMERAL_SIZE = (
    "Ephemeral disks requested are larger than the instance "
    "type allows. If no size is given in one block device "
    "mapping, flavor ephemeral size will be used."
)
SWAP_SIZE = "Swap drive requested is larger than instance type allows."
IMAGE_VOLUME_SIZE = "Images with destination_type 'volume' need to have a non-zero size specified"
BLANK_VOLUME_SIZE = "Blank volumes (source: 'blank', dest: 'volume') need to have non-zero size"
MIXED_SYNTAXES = (
    "Using different block_device_mapping syntaxes is not allowed in the same request."
)
MULTIPLE_INSTANCES = "Cannot attach one or more volumes to multiple instances"

_EPHEMERAL_NAME = re.compile(r"^ephemeral(\d|[1-9]\d+)$")


def _invalid(details):
    """nova's ``InvalidBDMFormat``."""
    return errors.BadRequest("Block Device Mapping is Invalid: " + details)


def _int_or_none(value):
    return None if value is None else int(value)


def strip_dev(name):
    return name[5:] if name and name.startswith("/dev/") else name


def _normalize(bdm):
    """``BlockDeviceDict._validate`` plus the object's field coercion."""
    if bdm.get("no_device"):
        return bdm
    if "source_type" not in bdm:
        raise _invalid("Some required fields are missing")
    bdm["delete_on_termination"] = values.truthy(bdm.get("delete_on_termination"))
    name = bdm.get("device_name")
    if name is not None:
        if not 1 <= len(name) <= 255:
            raise _invalid("Device name empty or too long.")
        if " " in name:
            raise _invalid("Device name contains spaces.")
    bdm["volume_size"] = _int_or_none(bdm.get("volume_size"))
    bdm["boot_index"] = _int_or_none(bdm.get("boot_index"))
    return bdm


def _from_api(item, image_specified):
    bdm = dict(item)
    if not bdm.get("no_device"):
        source = bdm.get("source_type")
        device_uuid = bdm.get("uuid")
        if source == "blank" and device_uuid:
            raise _invalid("Invalid device UUID.")
        if source != "blank":
            if not device_uuid:
                raise _invalid("Missing device UUID.")
            if source is None:
                # nova stores it as "None_id", an unknown field
                raise _invalid("Some fields are invalid.")
            bdm[source + "_id"] = device_uuid
        if source == "image" and bdm.get("destination_type") == "local":
            boot_index = bdm.get("boot_index", -1)
            boot_index = -1 if boot_index is None else int(boot_index)
            # only the disk a client adds for imageRef (bug 1433609)
            if not (image_specified and boot_index == 0):
                raise _invalid("Mapping image to local is not supported.")
    bdm.pop("uuid", None)
    return _normalize(bdm)


def from_request(server):
    """``(mappings, legacy)`` from the create body (nova's API layer)."""
    legacy = server.get("block_device_mapping") or []
    v2 = server.get("block_device_mapping_v2") or []
    if legacy and v2:
        raise errors.BadRequest(MIXED_SYNTAXES)
    if legacy:
        return [dict(b) for b in legacy], True
    image_specified = server.get("imageRef") is not None
    return [_from_api(b, image_specified) for b in v2], False


def boot_image_id(mappings, legacy):
    """The image of the boot mapping (no ``imageRef``), or None.

    nova's ``get_bdm_image_metadata``; legacy mappings have no images and
    volumes/snapshots are not looked up here.
    """
    if legacy:
        return None
    for bdm in mappings:
        if bdm.get("boot_index") == 0 and bdm.get("image_id"):
            return bdm["image_id"]
    return None


def _from_legacy(item):
    bdm = {
        k: v
        for k, v in item.items()
        if k
        in (
            "device_name",
            "delete_on_termination",
            "snapshot_id",
            "volume_id",
            "volume_size",
            "no_device",
            "connection_info",
        )
    }
    virtual = item.get("virtual_name")
    if virtual and (virtual == "swap" or _EPHEMERAL_NAME.match(virtual)):
        bdm.update(
            source_type="blank",
            destination_type="local",
            delete_on_termination=True,
            guest_format="swap" if virtual == "swap" else None,
        )
    elif item.get("snapshot_id"):
        bdm.update(source_type="snapshot", destination_type="volume")
    elif item.get("volume_id"):
        bdm.update(source_type="volume", destination_type="volume")
    elif not item.get("no_device"):
        raise _invalid("Unrecognized legacy format.")
    return _normalize(bdm)


def _image_bdm(image_id):
    return {
        "source_type": "image",
        "destination_type": "local",
        "image_id": image_id,
        "boot_index": 0,
        "device_type": "disk",
        "delete_on_termination": True,
        "volume_size": None,
    }


def _blank_bdm(size, guest_format=None):
    return {
        "source_type": "blank",
        "destination_type": "local",
        "guest_format": guest_format,
        "boot_index": -1,
        "device_type": "disk",
        "delete_on_termination": True,
        "volume_size": size,
    }


def is_swap(bdm):
    return (
        bdm.get("source_type") == "blank"
        and bdm.get("destination_type") == "local"
        and bdm.get("guest_format") == "swap"
    )


def is_ephemeral(bdm):
    return (
        bdm.get("source_type") == "blank"
        and bdm.get("destination_type") == "local"
        and bdm.get("guest_format") != "swap"
    )


def transform(mappings, legacy, image_ref, flavor, instance_count):
    """nova's ``_check_and_transform_bdm``: the full mapping list.

    ``flavor`` is a ``compute_flavors`` row; ``instance_count`` the larger
    of min_count and max_count.
    """
    if image_ref:
        for bdm in mappings:
            if (
                bdm.get("destination_type") == "volume"
                and strip_dev(bdm.get("device_name")) == ROOT_DEVICE_NAME
            ):
                raise errors.BadRequest(
                    "The volume cannot be assigned the same device name as "
                    "the root device %s" % ROOT_DEVICE_NAME
                )
    if legacy:
        converted = [_from_legacy(b) for b in mappings]
        volume_backed = False
        for bdm in converted:
            if (
                bdm.get("source_type") in ("volume", "snapshot", "image")
                and strip_dev(bdm.get("device_name")) == ROOT_DEVICE_NAME
            ):
                bdm["boot_index"] = 0
                volume_backed = True
            elif not bdm.get("no_device"):
                bdm["boot_index"] = -1
            else:
                bdm["boot_index"] = None
        if not volume_backed and image_ref:
            converted.insert(0, _image_bdm(image_ref))
        mappings = converted
    else:
        mappings = [dict(b) for b in mappings]
    if instance_count > 1 and any(b.get("source_type") == "volume" for b in mappings):
        raise errors.BadRequest(MULTIPLE_INSTANCES)
    if flavor["ephemeral_gb"] and not any(map(is_ephemeral, mappings)):
        mappings.append(_blank_bdm(flavor["ephemeral_gb"]))
    if flavor["swap"] and not any(map(is_swap, mappings)):
        mappings.append(_blank_bdm(flavor["swap"], "swap"))
    return mappings


def root(mappings):
    for bdm in mappings:
        if bdm.get("boot_index") == 0:
            return bdm
    return None


def is_volume_backed(mappings):
    bdm = root(mappings)
    return bdm is not None and bdm.get("destination_type") == "volume"


def validate(mappings, flavor, image_ref, image_exists):
    """nova's ``_validate_bdm``; ``image_exists(id) -> bool``."""
    boot_indexes = sorted(
        b["boot_index"]
        for b in mappings
        if b.get("boot_index") is not None and b["boot_index"] >= 0
    )
    if not boot_indexes or any(i != v for i, v in enumerate(boot_indexes)):
        raise errors.BadRequest(BOOT_SEQUENCE)
    for bdm in mappings:
        image_id = bdm.get("image_id")
        if image_id is not None:
            if image_id != image_ref and not image_exists(image_id):
                raise errors.BadRequest(
                    "Block Device Mapping is Invalid: failed to get image %s." % image_id
                )
            if (
                bdm.get("source_type") == "image"
                and bdm.get("destination_type") == "volume"
                and not bdm.get("volume_size")
            ):
                raise errors.BadRequest(IMAGE_VOLUME_SIZE)
        elif bdm.get("volume_id") is not None:
            pass  # no Cinder: an opaque id
        elif bdm.get("snapshot_id") is not None:
            pass
        elif (
            bdm.get("source_type") == "blank"
            and bdm.get("destination_type") == "volume"
            and not bdm.get("volume_size")
        ):
            raise errors.BadRequest(BLANK_VOLUME_SIZE)
    ephemeral = sum(
        b.get("volume_size") or flavor["ephemeral_gb"] for b in mappings if is_ephemeral(b)
    )
    if ephemeral > flavor["ephemeral_gb"]:
        raise errors.BadRequest(EPHEMERAL_SIZE)
    swaps = [b for b in mappings if is_swap(b)]
    if len(swaps) > 1:
        raise _invalid("More than one swap drive requested.")
    if swaps and (swaps[0].get("volume_size") or 0) > flavor["swap"]:
        raise errors.BadRequest(SWAP_SIZE)
    local = [b for b in mappings if b.get("destination_type") == "local"]
    if len(local) > MAX_LOCAL_BLOCK_DEVICES:
        raise _invalid("You specified more local devices than the limit allows")


def check_volume_fits_image(mappings, image):
    """nova's ``VolumeSmallerThanMinDisk`` for a volume-backed root."""
    bdm = root(mappings)
    size = bdm.get("volume_size") if bdm else None
    if image is None or size is None:
        return
    min_disk = (image.get("min_disk") or 0) * 1024**3
    if min_disk > size * 1024**3:
        raise errors.BadRequest(
            "Volume is smaller than the minimum size specified in image "
            "metadata. Volume size is %d bytes, minimum size is %d bytes."
            % (size * 1024**3, min_disk)
        )


def attached_volumes(mappings):
    """``[{"id", "delete_on_termination"}]`` of the volume destinations.

    A ``volume`` source keeps its (unchecked) uuid; image, snapshot and
    blank sources get the uuid of the volume nova would have created.
    """
    volumes = []
    for bdm in mappings:
        if bdm.get("destination_type") != "volume":
            continue
        volume_id = bdm.get("volume_id") if bdm.get("source_type") == "volume" else None
        volumes.append(
            {
                "id": volume_id or common.new_uuid(),
                "delete_on_termination": bool(bdm.get("delete_on_termination")),
            }
        )
    return volumes
