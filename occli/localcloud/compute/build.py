"""What a server create asks for and what nova's compute API checks first.

:class:`BuildRequest` is the create as plain values (the API layer has
validated the body, counted the instances and parsed the block device
mappings). The checks, in nova's order, are called by
:func:`occli.localcloud.compute.servers.create`: flavor, image and disks
(:func:`disks`), quotas, keypair, networks, availability zone
(:func:`requested_zone`) and requested host; :func:`record` is one new row.
The image service (``images``: ``get_visible_image(db, caller, id)``, or
None when it is not mounted) is passed in.
"""

import dataclasses
import json
import re
import secrets
import string

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud import validation
from occli.localcloud.compute import block_devices
from occli.localcloud.compute import caller as callers
from occli.localcloud.compute import flavors
from occli.localcloud.compute import hosts
from occli.localcloud.compute import keypairs
from occli.localcloud.compute import scheduler
from occli.localcloud.compute import states
from occli.localcloud.compute import values

GIB = 1024**3


@dataclasses.dataclass
class BuildRequest:
    """``POST /servers`` as plain values (names as in nova's compute API)."""

    name: str
    flavor_ref: object
    image_ref: str = ""
    block_devices: list = dataclasses.field(default_factory=list)
    legacy_bdm: bool = False
    min_count: int = 1
    max_count: int = 1
    metadata: dict = dataclasses.field(default_factory=dict)
    personality: list = dataclasses.field(default_factory=list)
    key_name: str | None = None
    networks: object = None  # None, "auto", "none" or a list
    availability_zone: str | None = None  # zone[:host[:node]]
    requested_host: str | None = None  # 2.74 host / hypervisor_hostname
    security_groups: list = dataclasses.field(default_factory=list)
    scheduler_hints: dict = dataclasses.field(default_factory=dict)
    description: str | None = None
    hostname: str | None = None  # None: derived from the name
    user_data: str | None = None
    config_drive: bool = False
    access_ipv4: str | None = None
    access_ipv6: str | None = None
    # None: the image's auto_disk_config property decides (image_disk_config)
    auto_disk_config: bool | None = None
    tags: list = dataclasses.field(default_factory=list)
    trusted_certs: list | None = None


@dataclasses.dataclass
class Plan:
    """What the checks decided, shared by the instances of one create."""

    flavor: object  # the compute_flavors row
    image_ref: str  # '' when volume-backed
    mappings: list  # block device mappings, transformed
    key: object  # the keypair row, or None
    zone: str  # the requested zone (pinned), or None
    reservation_id: str
    count: int  # instances: max_count, then what the quota check allows
    volume_backed: bool = False  # no image: the root disk is a volume
    forced_host: str | None = None  # the host the zone named (admins)
    new_ids: list = dataclasses.field(default_factory=list)  # one per instance
    destinations: list | None = None  # their hosts; None: NoValidHost for all
    host_zones: dict = dataclasses.field(default_factory=dict)  # host → zone
    ports: list = dataclasses.field(default_factory=list)  # networks.requested_ports
    security_groups: list = dataclasses.field(default_factory=list)  # group ids
    server_group: object = None  # the compute_server_groups row of the hint


# -- images -------------------------------------------------------------------


def find_image(db, caller, images, image_id):
    """The image dict as Glance shows it to ``caller`` (None: unknown, not
    visible to the caller, or no image service). Nova asks Glance with the
    user's token: another project's private image is not found."""
    if images is None:
        return None
    return images.get_visible_image(db, caller, image_id)


def resolve_image(db, caller, images, image_id, missing="Can not find requested image"):
    """The image dict of ``image_id``; 400 unless ``caller`` sees it
    (``missing``: nova's text for its ``ImageNotFound``) and it is active."""
    image = find_image(db, caller, images, image_id)
    if image is None:
        raise errors.BadRequest(missing)
    if image.get("status", "active") != "active":
        raise errors.BadRequest("Image %s is not active." % image_id)
    return image


def image_disk_config(db, caller, images, image_ref):
    """nova's ``_inherit_properties_from_image``: without an
    ``OS-DCF:diskConfig`` the image's ``auto_disk_config`` property, read
    as oslo's (lenient) bool, decides: absent means MANUAL."""
    image = find_image(db, caller, images, image_ref) if image_ref else None
    return validation.bool_from_string((image or {}).get("auto_disk_config", ""))


def check_image_fits(image, flavor):
    """Nova's flavor-vs-image disk and memory checks (400)."""
    disk_bytes = flavor["root_gb"] * GIB
    if flavor["root_gb"]:
        if (image.get("min_disk") or 0) > flavor["root_gb"]:
            raise errors.BadRequest(
                "Flavor's disk is too small for requested image. Flavor disk "
                "is %d bytes, minimum required by image is %d bytes."
                % (disk_bytes, image["min_disk"] * GIB)
            )
        if (image.get("size") or 0) > disk_bytes:
            raise errors.BadRequest(
                "Flavor's disk is too small for requested image. Flavor disk "
                "is %d bytes, image is %d bytes." % (disk_bytes, image["size"])
            )
    check_image_memory(image, flavor)


def check_image_memory(image, flavor):
    """Nova's ``FlavorMemoryTooSmall`` (also for volume-backed servers)."""
    if (image.get("min_ram") or 0) > flavor["memory_mb"]:
        raise errors.BadRequest("Flavor's memory is too small for requested image.")


def disks(db, caller, images, build):
    """Flavor, image and block devices: ``(flavor row, image_ref, mappings,
    volume_backed)``; ``image_ref`` is ``''`` for a volume-backed server."""
    bdms = build.block_devices
    flavor = flavors.resolve(db, build.flavor_ref)
    image_ref = build.image_ref or ""
    if not image_ref and not bdms:
        raise errors.BadRequest("Missing imageRef attribute")
    image = resolve_image(db, caller, images, image_ref) if image_ref else None
    if image is None and bdms:
        # nova's get_bdm_image_metadata: the image of the boot mapping
        boot_image = block_devices.boot_image_id(bdms, build.legacy_bdm)
        if boot_image is not None:
            image = find_image(db, caller, images, boot_image)
            if image is None:
                raise errors.BadRequest(
                    "Block Device Mapping is Invalid: failed to get image %s." % boot_image
                )
    volume_backed = False
    if bdms:
        bdms = block_devices.transform(
            bdms, build.legacy_bdm, image_ref, flavor, max(build.min_count, build.max_count)
        )
        volume_backed = block_devices.is_volume_backed(bdms)
    if image is not None:
        if volume_backed:
            check_image_memory(image, flavor)
            block_devices.check_volume_fits_image(bdms, image)
        else:
            check_image_fits(image, flavor)
    if bdms:
        block_devices.validate(
            bdms,
            flavor,
            image_ref,
            lambda image_id: find_image(db, caller, images, image_id) is not None,
        )
    return flavor, "" if volume_backed else image_ref, bdms, volume_backed


# -- the other checks ---------------------------------------------------------


def keypair(db, user_id, key_name):
    """The keypair row named by the request (None if none); 400 if unknown."""
    if key_name is None:
        return None
    key = keypairs.get_keypair(db, user_id, key_name)
    if key is None:
        raise errors.BadRequest("Invalid key_name provided.")
    return key


def requested_zone(db, caller, zone_request):
    """nova's ``_handle_availability_zone``: ``zone[:host[:node]]`` or
    ``zone::node`` → ``(zone or None, forced host or None)``; forcing a
    host is admin-only. The zone must be available (nova's 400) unless a
    host is forced, as nova skips that check then."""
    if not zone_request:
        return None, None
    parts = zone_request.split(":")
    if len(parts) > 3:
        raise errors.BadRequest("Invalid input received: Unable to parse availability_zone")
    zone = parts[0] or None
    # the local cloud's nodes are named like their hosts
    forced = (parts[1] if len(parts) > 1 else "") or (parts[2] if len(parts) > 2 else "") or None
    if forced and not caller.is_admin:
        raise callers.policy_forbidden("os_compute_api:servers:create:forced_host")
    if zone and not forced and zone not in scheduler.available_zones(db):
        raise errors.BadRequest("The requested availability zone is not available")
    return zone, forced


def check_requested_host(db, caller, host):
    """2.74 ``host``/``hypervisor_hostname``: admin only, an existing host."""
    if host is None:
        return
    caller.require_admin("compute:servers:create:requested_destination")
    if host not in hosts.compute_hosts(db):
        raise errors.BadRequest("Compute host %s could not be found." % host)


# -- the rows -----------------------------------------------------------------


def sanitize_hostname(name, default):
    """Nova's ``utils.sanitize_hostname``."""
    hostname = name.encode("latin-1", "ignore").decode("latin-1")
    hostname = re.sub(r"[ _\.]", "-", hostname)
    hostname = re.sub(r"[^\w.-]+", "", hostname)
    hostname = hostname.lower().strip(".-")[:63]
    return hostname or default


def new_admin_password():
    """A random 12-character password, as nova generates them."""
    alphabet = string.ascii_letters + string.digits
    return "".join(secrets.choice(alphabet) for _ in range(12))


def reservation_id():
    alphabet = string.ascii_lowercase + string.digits
    return "r-" + "".join(secrets.choice(alphabet) for _ in range(8))


def record(caller, build, plan, index, new_id, host, zone):
    """The columns of instance ``index`` of ``plan.count``, its build plan
    started: on ``host`` (None: unplaced, it ends in ERROR) in ``zone``
    (the host's, else the requested one)."""
    count = plan.count
    name = build.name if count == 1 else "%s-%d" % (build.name, index + 1)
    if build.hostname is not None and count == 1:
        hostname = build.hostname
    else:
        hostname = sanitize_hostname(name, "server-" + new_id)
    key = plan.key
    now = common.iso_naive_micro(common.utcnow())
    row = {
        "id": new_id,
        "project_id": caller.project_id,
        "user_id": caller.user_id,
        "name": name,
        "description": build.description,
        "hostname": hostname,
        "host": host,
        "node": host,
        "availability_zone": zone,
        "pinned_availability_zone": plan.zone,
        "flavor": json.dumps(flavors.snapshot(plan.flavor)),
        "image_ref": plan.image_ref,
        "key_name": build.key_name,
        "key_data": key["public_key"] if key else None,
        "user_data": build.user_data,
        "config_drive": "True" if build.config_drive else "",
        "access_ipv4": build.access_ipv4,
        "access_ipv6": values.ipv6(build.access_ipv6),
        "auto_disk_config": int(build.auto_disk_config),
        "metadata": json.dumps(build.metadata),
        "tags": json.dumps(build.tags),
        "security_groups": json.dumps(build.security_groups),
        # each instance gets its own volumes made from images etc.
        "volumes": json.dumps(block_devices.attached_volumes(plan.mappings)),
        "scheduler_hints": json.dumps(build.scheduler_hints),
        "trusted_certs": (json.dumps(build.trusted_certs) if build.trusted_certs else None),
        "vm_state": "building",
        "power_state": states.NOSTATE,
        "progress": 0,
        "reservation_id": plan.reservation_id,
        "launch_index": index,
        "root_device_name": "/dev/vda" if host else None,
        "created_at": now,
        "updated_at": now,
    }
    if host:
        states.start(
            row,
            states.BUILD_TASKS,
            {
                "vm_state": "active",
                "power_state": states.RUNNING,
                "launched_at": states.LAUNCH_NOW,
            },
            progress=True,
        )
    else:
        states.start(
            row,
            states.SCHEDULING_TASKS,
            {"vm_state": "error", "power_state": states.NOSTATE},
            fault=scheduler.no_valid_host_fault(),
        )
    return row
