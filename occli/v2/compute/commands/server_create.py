"""``occli server create``: its options, their parsers, and the
reservation view of several servers booted at once.

Option syntax is refused by argparse (exit 2); the manager's checks
(:meth:`occli.v2.compute.servers.ServerManager.check_create`, ValidationError: exit
2 too) run before the image and flavor are looked up.
"""

import logging

from occli import columns
from occli import exceptions
from occli import strutils
from occli import utils
from occli import waiters
from occli.v2.commands import files
from occli.v2.compute import servers as servers_api
from occli.v2.compute.commands import server_cells
from occli.v2.compute.commands import servers

LOG = logging.getLogger(__name__)

# -- argparse types: malformed syntax is a usage error (exit 2) ------------


def _parse_nic(text):
    if text in ("auto", "none"):
        return text
    nic = utils.parse_options(
        text, ("net-id", "port-id", "v4-fixed-ip", "v6-fixed-ip", "tag"), "--nic"
    )
    empty = [k for k, v in nic.items() if not v]
    if empty:
        raise exceptions.ValidationError("--nic %s needs a value." % empty[0])
    if ("net-id" in nic) == ("port-id" in nic):
        raise exceptions.ValidationError(
            "--nic needs exactly one of net-id and port-id, got %r." % text
        )
    if "v4-fixed-ip" in nic and "v6-fixed-ip" in nic:
        raise exceptions.ValidationError("--nic takes v4-fixed-ip or v6-fixed-ip, not both.")
    if "port-id" in nic and len(nic) > 1:
        raise exceptions.ValidationError(
            "--nic port-id cannot be combined with fixed IPs (the port has them)."
        )
    return nic


# --block-device key → (API key, value converter)
_BD_KEYS = {
    "source": ("source_type", None),
    "dest": ("destination_type", None),
    "id": ("uuid", None),
    "size": ("volume_size", int),
    "boot-index": ("boot_index", int),
    "delete-on-termination": ("delete_on_termination", "bool"),
    "device": ("device_name", None),
    "type": ("device_type", None),
    "bus": ("disk_bus", None),
    "format": ("guest_format", None),
}
_BD_SOURCES = ("image", "volume", "snapshot", "blank")
_BD_DESTS = ("local", "volume")


def _parse_block_device(text):
    given = utils.parse_options(text, _BD_KEYS, "--block-device")
    bdm = {}
    for key, value in given.items():
        api_key, convert = _BD_KEYS[key]
        if convert == "bool":
            value = strutils.parse_bool(value, "--block-device " + key)
        elif callable(convert):
            try:
                value = convert(value)
            except ValueError:
                raise exceptions.ValidationError(
                    "--block-device %s expects an integer, got %r." % (key, value)
                ) from None
        bdm[api_key] = value
    if bdm.get("source_type", "") not in _BD_SOURCES:
        raise exceptions.ValidationError(
            "--block-device source must be one of %s." % ", ".join(_BD_SOURCES)
        )
    if "destination_type" in bdm and bdm["destination_type"] not in _BD_DESTS:
        raise exceptions.ValidationError(
            "--block-device dest must be one of %s." % ", ".join(_BD_DESTS)
        )
    if bdm["source_type"] != "blank" and not bdm.get("uuid"):
        raise exceptions.ValidationError(
            "--block-device source=%s needs id=." % bdm["source_type"]
        )
    return bdm


def _parse_ephemeral(text):
    given = utils.parse_options(text, ("size", "format"), "--ephemeral")
    try:
        size = int(given.get("size", ""))
    except ValueError:
        size = 0
    if size < 1:
        raise exceptions.ValidationError(
            "--ephemeral expects size=<GiB>[,format=<format>] with a size of "
            "1 or more, got %r." % text
        )
    return {"size": size, "format": given.get("format") or None}


def _network_nic(text):
    return {"net-id": text}


def _port_nic(text):
    return {"port-id": text}


def _parse_pair(option, left, right):
    def parse(text):
        key, sep, value = text.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise exceptions.ValidationError(
                "%s expects %s=%s, got %r." % (option, left, right, text)
            )
        return key.strip(), value.strip()

    return utils.arg_type(parse, "%s=%s" % (left, right))


@utils.arg("name", metavar="<name>", help="Name of the new server.")
@utils.arg(
    "--image",
    metavar="<image>",
    help="Image to boot from (name or ID); not needed when a block device is the boot disk.",
)
@utils.arg(
    "--image-property",
    dest="image_properties",
    action="append",
    default=[],
    metavar="<key=value>",
    type=utils.key_value("--image-property"),
    help="Boot from the image having this property (repeatable: all of them), as OSC's.",
)
@utils.arg("--flavor", metavar="<flavor>", required=True, help="Flavor (name or ID).")
@utils.arg("--key-name", metavar="<keypair>", help="Keypair to inject.")
@utils.arg("--availability-zone", metavar="<zone>", help="Availability zone to boot in.")
@utils.arg(
    "--user-data",
    metavar="<file>",
    help="File of user data for the metadata service / config drive.",
)
@utils.arg(
    "--file",
    dest="files",
    action="append",
    default=[],
    metavar="<dest>=<src>",
    type=_parse_pair("--file", "DEST", "SRC"),
    help="Inject local file SRC as DEST (repeatable, at most %d files "
    "of %d KiB; removed from compute API 2.57, so such requests use "
    "2.56)." % (servers_api.MAX_FILES, servers_api.MAX_FILE_BYTES // 1024),
)
@utils.property_option("Metadata property (repeatable).")
@utils.arg(
    "--security-group",
    dest="security_groups",
    action="append",
    metavar="<group>",
    help="Security group (name or ID, resolved through the network service; repeatable).",
)
@utils.arg(
    "--no-security-group",
    action="store_true",
    help="Send an empty security group list, as OSC does (Nova still gives the ports it "
    "creates the project's default group; pass --port to keep a port's own groups).",
)
@utils.arg(
    "--nic",
    dest="nics",
    action="append",
    default=[],
    metavar="<net-id=…,v4-fixed-ip=…,v6-fixed-ip=…,port-id=…,tag=…|auto|none>",
    type=utils.arg_type(_parse_nic, "nic"),
    help="Network interface (repeatable); net-id and port-id take a name or an ID; "
    "'auto' or 'none' alone. Default from compute API 2.37: auto.",
)
@utils.arg(
    "--network",
    dest="nics",
    action="append",
    metavar="<network>",
    type=_network_nic,
    help="An interface on this network (name or ID; repeatable; same as --nic net-id=…).",
)
@utils.arg(
    "--port",
    dest="nics",
    action="append",
    metavar="<port>",
    type=_port_nic,
    help="An interface on this existing port (name or ID; repeatable; same as --nic port-id=…).",
)
@utils.arg(
    "--no-network",
    dest="nics",
    action="append_const",
    const="none",
    help="No network interface: same as --nic none (OSC's name).",
)
@utils.arg(
    "--auto-network",
    dest="nics",
    action="append_const",
    const="auto",
    help="A network allocated automatically: same as --nic auto (OSC's name).",
)
@utils.arg(
    "--block-device-mapping",
    dest="block_device_mappings",
    action="append",
    default=[],
    metavar="<dev>=<id>:<type>:<size>:<delete>",
    type=_parse_pair("--block-device-mapping", "DEV", "ID:TYPE:SIZE:DELETE"),
    help="Legacy block device mapping (repeatable); TYPE 'snap' "
    "means a snapshot id, else a volume id.",
)
@utils.arg(
    "--block-device",
    dest="block_devices",
    action="append",
    default=[],
    type=utils.arg_type(_parse_block_device, "block-device"),
    metavar="<key=value,…>",
    help="Block device (repeatable), keys: source (image, volume, "
    "snapshot or blank), dest (local or volume), id, size (GiB), "
    "boot-index, delete-on-termination, device, type, bus, format.",
)
@utils.arg(
    "--hint",
    dest="hints",
    action="append",
    default=[],
    metavar="<key=value>",
    type=utils.key_value("--hint"),
    help="Scheduler hint (repeatable; a repeated key makes a list).",
)
@utils.arg(
    "--server-group",
    metavar="<server-group>",
    help="Join this server group (name or ID): the scheduler places the server by its "
    "policy (the scheduler hint group).",
)
@utils.arg(
    "--config-drive",
    metavar="<true|false>",
    type=utils.arg_type(lambda v: strutils.parse_bool(v, "--config-drive"), "bool"),
    help="Use a config drive.",
)
@utils.arg(
    "--use-config-drive",
    dest="config_drive",
    action="store_const",
    const=True,
    help="Same as --config-drive true (OSC's name).",
)
@utils.arg(
    "--no-config-drive",
    dest="config_drive",
    action="store_const",
    const=False,
    help="Same as --config-drive false (OSC's name).",
)
@utils.arg(
    "--disk-config",
    type=str.upper,
    choices=("AUTO", "MANUAL"),
    help="Disk partitioning: AUTO or MANUAL.",
)
@utils.arg(
    "--admin-pass",
    "--password",
    metavar="<password>",
    help="Administrator password (--password: OSC's name).",
)
@utils.arg("--access-ipv4", metavar="<ip>", help="IPv4 access address.")
@utils.arg("--access-ipv6", metavar="<ip>", help="IPv6 access address.")
@utils.arg(
    "--min", type=utils.positive_int, metavar="<n>", help="Boot at least this many servers."
)
@utils.arg("--max", type=utils.positive_int, metavar="<n>", help="Boot at most this many servers.")
@utils.arg("--description", metavar="<text>", help="Description (compute API 2.19+).")
@utils.arg(
    "--tag",
    dest="tags",
    action="append",
    metavar="<tag>",
    help="Tag (repeatable; compute API 2.52+).",
)
@utils.arg("--hostname", metavar="<hostname>", help="Hostname in the guest (compute API 2.90+).")
@utils.arg(
    "--volume",
    metavar="<volume>",
    help="Boot from this existing volume (name or ID) instead of an image.",
)
@utils.arg(
    "--snapshot",
    metavar="<snapshot>",
    help="Boot from a new volume made from this volume snapshot (name or ID).",
)
@utils.arg(
    "--boot-from-volume",
    type=utils.positive_int,
    metavar="<GiB>",
    help="Boot from a new volume of this size made from --image "
    "(the image is not sent as imageRef).",
)
@utils.arg(
    "--delete-on-termination",
    action="store_true",
    help="With --boot-from-volume: delete the volume with the server (Nova keeps it by default).",
)
@utils.arg(
    "--swap", type=utils.positive_int, metavar="<MiB>", help="Add a swap disk of this size."
)
@utils.arg(
    "--ephemeral",
    dest="ephemerals",
    action="append",
    default=[],
    type=utils.arg_type(_parse_ephemeral, "ephemeral"),
    metavar="size=<GiB>[,format=<format>]",
    help="Add an ephemeral disk (repeatable).",
)
@utils.arg(
    "--trusted-image-cert",
    dest="trusted_image_certs",
    action="append",
    metavar="<cert-id>",
    help="Trusted certificate id for image signature validation (repeatable; compute API 2.63+).",
)
@utils.arg("--host", metavar="<host>", help="Compute host to boot on (admin; compute API 2.74+).")
@utils.arg(
    "--hypervisor-hostname",
    metavar="<hypervisor>",
    help="Hypervisor to boot on (admin; compute API 2.74+).",
)
@utils.arg(
    "--return-reservation-id",
    action="store_true",
    help="Show the reservation id of the request (with --wait, also the servers).",
)
@utils.wait_options("the server is ACTIVE (with --max/--min above 1: every server)")
@utils.output("show")
@utils.option_names(
    files="--file",
    metadata="--property",
    min_count="--min",
    max_count="--max",
    user_data="--user-data",
    block_device_mapping="--block-device-mapping",
)
def do_server_create(client, args):
    """Create (boot) a server, or several with --min/--max.

    With --min/--max the servers are named <name>-1, <name>-2, … and
    shown as their reservation ID and a list of the servers, without an
    admin password.

    Example: occli server create --flavor m1.tiny --image cirros --wait vm1
    """
    nics = _nics(args.nics)
    boot_sources = [
        option
        for option, value in (
            ("--image", args.image),
            ("--image-property", args.image_properties),
            ("--volume", args.volume),
            ("--snapshot", args.snapshot),
        )
        if value
    ]
    if len(boot_sources) > 1:
        raise exceptions.ValidationError(
            "%s and %s cannot be combined: give one boot source." % tuple(boot_sources[:2])
        )
    if args.no_security_group and args.security_groups:
        raise exceptions.ValidationError(
            "--no-security-group cannot be combined with --security-group."
        )
    hints: dict[str, str | list[str]] = {}
    for key, value in args.hints:
        if key in hints:
            old = hints[key]
            hints[key] = (old if isinstance(old, list) else [old]) + [value]
        else:
            hints[key] = value
    if args.server_group and "group" in hints:
        raise exceptions.ValidationError("--server-group cannot be combined with --hint group=….")
    boots_from_device = args.block_device_mappings or any(
        b.get("boot_index") == 0 for b in args.block_devices
    )
    if args.boot_from_volume is not None:
        if not (args.image or args.image_properties):
            raise exceptions.ValidationError(
                "--boot-from-volume makes the boot volume from --image; give --image."
            )
        if boots_from_device:
            raise exceptions.ValidationError(
                "--boot-from-volume cannot be combined with another boot "
                "disk (--block-device …,boot-index=0 or "
                "--block-device-mapping)."
            )
    elif args.delete_on_termination:
        raise exceptions.ValidationError(
            "--delete-on-termination only applies to --boot-from-volume."
        )
    if (args.volume or args.snapshot) and boots_from_device:
        raise exceptions.ValidationError(
            "%s cannot be combined with another boot disk (--block-device …,boot-index=0 "
            "or --block-device-mapping)." % boot_sources[0]
        )
    if not boot_sources and not boots_from_device:
        raise exceptions.ValidationError(
            "Give --image, --volume or --snapshot, or a boot disk with "
            "--block-device …,boot-index=0 or --block-device-mapping."
        )
    injected = {
        dest: files.read_bytes(src, "--file", servers_api.MAX_FILE_BYTES)
        for dest, src in args.files
    }
    several = max(args.min or 1, args.max or 1) > 1
    by_reservation = several or args.return_reservation_id
    options = dict(
        key_name=args.key_name,
        availability_zone=args.availability_zone,
        user_data=(files.read_bytes(args.user_data, "--user-data") if args.user_data else None),
        files=injected or None,
        metadata=dict(args.properties) or None,
        security_groups=[] if args.no_security_group else args.security_groups,
        nics=nics,
        block_device_mapping=dict(args.block_device_mappings) or None,
        scheduler_hints=hints or None,
        config_drive=args.config_drive,
        disk_config=args.disk_config,
        admin_pass=args.admin_pass,
        access_ip_v4=args.access_ipv4,
        access_ip_v6=args.access_ipv6,
        min_count=args.min,
        max_count=args.max,
        description=args.description,
        tags=args.tags,
        hostname=args.hostname,
        trusted_image_certificates=args.trusted_image_certs,
        host=args.host,
        hypervisor_hostname=args.hypervisor_hostname,
        return_reservation_id=by_reservation,
    )
    # the manager's checks before any lookup (no request when pinned)
    client.servers.check_create(**options)

    image = client.images.find_resource(args.image) if args.image else None
    if args.image_properties:
        image = _image_with(client, dict(args.image_properties))
    found_image = image
    flavor = client.flavors.find_resource(args.flavor)
    options["nics"] = _resolve_nics(client, nics)
    if args.server_group:
        group = client.server_groups.find_resource(args.server_group)
        options["scheduler_hints"] = dict(hints, group=group.id)
    if args.security_groups:
        options["security_groups"] = _resolve_groups(client, args.security_groups)
    bdms = list(args.block_devices)
    if args.volume:
        volume = client.volumes.find_resource(args.volume)
        bdms.insert(0, servers_api.boot_source_bdm(volume, "volume"))
    if args.snapshot:
        snapshot = client.volume_snapshots.find_resource(args.snapshot)
        bdms.insert(0, servers_api.boot_source_bdm(snapshot, "snapshot"))
    if args.boot_from_volume is not None and image is not None:  # --image checked above
        bdms.insert(
            0,
            servers_api.boot_volume_bdm(
                image,
                args.boot_from_volume,
                delete_on_termination=True if args.delete_on_termination else None,
            ),
        )
        image = None
    if args.swap:
        bdms.append(servers_api.swap_bdm(args.swap))
    bdms += [servers_api.ephemeral_bdm(e["size"], e["format"]) for e in args.ephemerals]
    created = client.servers.create(
        args.name, image, flavor, block_device_mapping_v2=bdms or None, **options
    )
    if by_reservation:
        return _show_reservation(client, created, args, with_servers=several or args.wait)
    extra = {}
    if "adminPass" in created:
        extra["adminPass"] = created.adminPass
    name = "%s (%s)" % (args.name, created.id)
    if args.wait:
        with waiters.accepted(
            "Server %s (id %s) was created but waiting failed" % (args.name, created.id)
        ):
            server = waiters.wait_for_server(
                client.servers, created, {"ACTIVE"}, name=name, **utils.wait_args(args)
            )
    else:
        with waiters.accepted(
            "Server %s (id %s) was created but showing it failed" % (args.name, created.id)
        ):
            server = client.servers.get(created)
    return servers.show_server(client, server, extra, images=[found_image])


def _launch_order(server):
    """Nova names the servers of one request <name>-1, <name>-2, …"""
    name = getattr(server, "name", None) or ""
    base_name, _, index = name.rpartition("-")
    return (base_name, int(index) if index.isdigit() else 0, name, server.id)


def _reservation_servers(client, reservation_id):
    return sorted(
        client.servers.list(search_opts={"reservation_id": reservation_id}), key=_launch_order
    )


def _show_reservation(client, reservation_id, args, with_servers):
    """The reservation id, and (``with_servers``) its servers, waited for
    with ``--wait`` (exit 1 naming each server that did not become
    ACTIVE)."""
    if not reservation_id:
        raise exceptions.ClientException(
            "The cloud answered the create request without a reservation id."
        )
    info = {"reservation_id": reservation_id}
    if not with_servers:
        return columns.show(info, columns=["reservation_id"])
    with waiters.accepted(
        "The servers of reservation %s were created but listing them failed" % reservation_id
    ):
        found = _reservation_servers(client, reservation_id)
    if not found:
        raise exceptions.NotFound(
            "No servers found with reservation id %s." % reservation_id, code=404
        )
    if args.wait:
        with waiters.accepted(
            "%d servers of reservation %s were created "
            "(%s) but waiting failed"
            % (len(found), reservation_id, ", ".join(waiters.server_label(s) for s in found))
        ):
            found = waiters.wait_for_servers(
                lambda: _reservation_servers(client, reservation_id),
                len(found),
                "servers of reservation %s" % reservation_id,
                **utils.wait_args(args),
            )
    info["servers"] = [
        {"id": s.id, "name": getattr(s, "name", None), "status": getattr(s, "status", None)}
        for s in found
    ]
    return columns.show(
        info,
        columns=["reservation_id", "servers"],
        formatters={"servers": server_cells.ServersColumn},
    )


def _image_with(client, wanted):
    """The image having every property of ``wanted``, as OSC's
    ``--image-property`` finds it (openstackclient/compute/v2/server.py
    ``_match_image``: the image's fields and properties compared as they
    are; of several, the first, with OSC's warning)."""
    matched = [
        image
        for image in client.images.list()
        if all(k in image.to_dict() and image.to_dict()[k] == v for k, v in wanted.items())
    ]
    if not matched:
        raise exceptions.CommandError("No images match the property expected by --image-property")
    if len(matched) > 1:
        LOG.warning(
            "Multiple matching images: %s\nUsing image: %s",
            [str(image.id) for image in matched],
            matched[0].id,
        )
    return matched[0]


def _nics(nics):
    """``--nic`` values → ``nics`` for the manager (None: the default)."""
    if not nics:
        return None
    special = [n for n in nics if isinstance(n, str)]
    if special and len(nics) > 1:
        raise exceptions.ValidationError(
            "--nic %s cannot be combined with other --nic, --network or --port options."
            % special[0]
        )
    return special[0] if special else nics


def _resolve_nics(client, nics):
    """``nics`` with the names in net-id and port-id replaced by ids: one
    network request for all the network names, one port request for all
    the port names; ids are left to Nova to check."""
    if not isinstance(nics, list):
        return nics
    resolved = [dict(n) for n in nics]
    for key, manager in (("net-id", client.networks), ("port-id", client.ports)):
        names = [n[key] for n in resolved if key in n and not servers_api.is_uuid(n[key])]
        if names:
            found = manager.find_many(names)
            for nic in resolved:
                if nic.get(key) in found:
                    nic[key] = found[nic[key]].id
    return resolved


def _resolve_groups(client, groups):
    """Security group names → ids through the network service (one
    request), as OSC sends them: a name two projects share is no longer
    ambiguous, and an unknown one fails before the boot."""
    names = [g for g in groups if not servers_api.is_uuid(g)]
    found = client.security_groups.find_many(names) if names else {}
    return [found[g].id if g in found else g for g in groups]
