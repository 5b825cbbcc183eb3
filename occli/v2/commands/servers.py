"""Server commands: ``occli server …``.

Option values are parsed (and bad syntax refused, exit 2) by argparse
``type=`` functions; checks that need several options together raise
CommandError before any request. Image and flavor names are resolved here;
the manager only sees ids.
"""

import argparse
import contextlib
import logging
import sys

from cliff import columns as cliff_columns

from occli import columns
from occli import exceptions
from occli import strutils
from occli import utils
from occli import waiters
from occli.v2 import servers as servers_api

LOG = logging.getLogger(__name__)

POWER_STATES = {0: "NOSTATE", 1: "Running", 3: "Paused", 4: "Shutdown",
                6: "Crashed", 7: "Suspended"}
# Statuses of a server in the middle of an operation (CONTRACT §3.6).
TRANSITIONAL = frozenset(("BUILD", "REBOOT", "HARD_REBOOT", "REBUILD",
                          "RESIZE", "REVERT_RESIZE", "MIGRATING", "PASSWORD"))
GONE = frozenset(("DELETED", "SOFT_DELETED"))
BOOTED_FROM_VOLUME = "N/A (booted from volume)"


# -- argparse types: malformed syntax is a usage error (exit 2) ------------

def _arg_type(parse, name):
    def convert(text):
        try:
            return parse(text)
        except exceptions.CommandError as exc:
            raise argparse.ArgumentTypeError(str(exc))
    convert.__name__ = name
    return convert


def _key_value(option):
    """``KEY=VALUE`` → ``(key, value)``."""
    def parse(text):
        return next(iter(utils.parse_key_values([text], option).items()))
    return _arg_type(parse, "KEY=VALUE")


def _parse_nic(text):
    if text in ("auto", "none"):
        return text
    nic = utils.parse_options(
        text, ("net-id", "port-id", "v4-fixed-ip", "v6-fixed-ip"), "--nic")
    empty = [k for k, v in nic.items() if not v]
    if empty:
        raise exceptions.CommandError("--nic %s needs a value." % empty[0])
    if ("net-id" in nic) == ("port-id" in nic):
        raise exceptions.CommandError(
            "--nic needs exactly one of net-id and port-id, got %r." % text)
    if "v4-fixed-ip" in nic and "v6-fixed-ip" in nic:
        raise exceptions.CommandError(
            "--nic takes v4-fixed-ip or v6-fixed-ip, not both.")
    if "port-id" in nic and len(nic) > 1:
        raise exceptions.CommandError(
            "--nic port-id cannot be combined with fixed IPs (the port has "
            "them).")
    return nic


# --block-device key → (API key, value converter)
_BD_KEYS = {
    "source": ("source_type", None), "dest": ("destination_type", None),
    "id": ("uuid", None), "size": ("volume_size", int),
    "boot-index": ("boot_index", int),
    "delete-on-termination": ("delete_on_termination", "bool"),
    "device": ("device_name", None), "type": ("device_type", None),
    "bus": ("disk_bus", None), "format": ("guest_format", None),
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
        elif convert is not None:
            try:
                value = convert(value)
            except ValueError:
                raise exceptions.CommandError(
                    "--block-device %s expects an integer, got %r."
                    % (key, value))
        bdm[api_key] = value
    if bdm.get("source_type", "") not in _BD_SOURCES:
        raise exceptions.CommandError(
            "--block-device source must be one of %s."
            % ", ".join(_BD_SOURCES))
    if "destination_type" in bdm and bdm["destination_type"] not in _BD_DESTS:
        raise exceptions.CommandError(
            "--block-device dest must be one of %s." % ", ".join(_BD_DESTS))
    if bdm["source_type"] != "blank" and not bdm.get("uuid"):
        raise exceptions.CommandError(
            "--block-device source=%s needs id=." % bdm["source_type"])
    return bdm


def _parse_ephemeral(text):
    given = utils.parse_options(text, ("size", "format"), "--ephemeral")
    try:
        size = int(given.get("size", ""))
    except ValueError:
        size = 0
    if size < 1:
        raise exceptions.CommandError(
            "--ephemeral expects size=<GiB>[,format=<format>] with a size of "
            "1 or more, got %r." % text)
    return {"size": size, "format": given.get("format") or None}


def _parse_pair(option, left, right):
    def parse(text):
        key, sep, value = text.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise exceptions.CommandError(
                "%s expects %s=%s, got %r." % (option, left, right, text))
        return key.strip(), value.strip()
    return _arg_type(parse, "%s=%s" % (left, right))


def _parse_sort(text):
    key, _, direction = text.partition(":")
    direction = direction or "desc"
    if not key or direction not in ("asc", "desc"):
        raise exceptions.CommandError(
            "--sort expects KEY[:asc|desc], got %r." % text)
    return key, direction


# -- output ---------------------------------------------------------------

class FlavorColumn(cliff_columns.FormattableColumn):
    """``m1.tiny (vcpus=1, ram=512, disk=1, …)`` or the flavor id (< 2.47)."""

    def human_readable(self):
        flavor = self._value
        if not isinstance(flavor, dict):
            return "" if flavor is None else str(flavor)
        if "original_name" not in flavor:
            return str(flavor.get("id", ""))
        sizes = ", ".join("%s=%s" % (k, flavor[k]) for k in (
            "vcpus", "ram", "disk", "ephemeral", "swap") if k in flavor)
        text = "%s (%s)" % (flavor["original_name"], sizes)
        if flavor.get("extra_specs"):
            text += "\n" + columns.DictColumn(flavor["extra_specs"]) \
                .human_readable()
        return text

    def machine_readable(self):
        return _without_links(self._value)


class ImageColumn(cliff_columns.FormattableColumn):
    """``cirros (70a5…)``, the id, or "booted from volume" (``""``)."""

    def human_readable(self):
        image = self._value
        if image == "":
            return BOOTED_FROM_VOLUME
        if image is None:
            return ""
        if not isinstance(image, dict):
            return str(image)
        if image.get("name"):
            return "%s (%s)" % (image["name"], image.get("id"))
        return str(image.get("id", ""))

    def machine_readable(self):
        return _without_links(self._value) or None


class NamesColumn(cliff_columns.FormattableColumn):
    """``[{"name": "default"}]`` → ``default``."""

    def human_readable(self):
        return ", ".join(str(i.get("name") or i.get("id", i))
                         if isinstance(i, dict) else
                         str(i) for i in self._value or ())

    def machine_readable(self):
        return list(self._value or ())


SHOW_FORMATTERS = {
    "addresses": columns.AddressesColumn, "flavor": FlavorColumn,
    "image": ImageColumn, "metadata": columns.DictColumn,
    "security_groups": NamesColumn, "tags": columns.ListColumn,
}


def _without_links(value):
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if k != "links"}
    return value


def _best_effort(what, func):
    """Names are decoration: a failing lookup shows ids, never fails."""
    try:
        return func()
    except Exception as exc:  # noqa: BLE001 - any service/catalog problem
        LOG.debug("%s lookup failed: %s", what, exc)
        return None


def _show(client, server, extra=None):
    """``(names, values)`` of a server for a ShowOne (``links`` hidden)."""
    info = server.to_dict()
    info.pop("links", None)
    image = info.get("image")
    if isinstance(image, dict) and image.get("id") and "name" not in image:
        found = _best_effort("image", lambda: client.images.find_resource(
            image["id"]))
        if found is not None:
            info["image"] = dict(image, name=getattr(found, "name", None))
    info.update(extra or {})
    return columns.show(info, formatters=SHOW_FORMATTERS)


def _label(server):
    name = getattr(server, "name", None)
    return "%s (%s)" % (name, server.id) if name else str(server.id)


# -- waiting and acting on several servers --------------------------------

def _wait_options(what):
    """``--wait``, ``--wait-timeout`` and the hidden ``--wait-interval``."""
    options = (
        (("--wait",), dict(action="store_true", help="Wait until %s." % what)),
        (("--wait-timeout",), dict(
            type=utils.seconds, default=600, metavar="<seconds>",
            help="Give up waiting after this many seconds (default 600).")),
        (("--wait-interval",), dict(type=utils.seconds, default=2.0,
                                    help=argparse.SUPPRESS)),
    )

    def decorator(func):
        for args, kwargs in reversed(options):
            func = utils.arg(*args, **kwargs)(func)
        return func
    return decorator


def _progress(server):
    text = server.status
    progress = getattr(server, "progress", None)
    if progress is not None and text in TRANSITIONAL:
        text += " %s%%" % progress
    if server.task_state:
        text += " (%s)" % server.task_state
    return text


def _wait(client, server, until, args, pending=(), name=None):
    """Poll until the server settles in a status of ``until``.

    ``until=GONE`` waits for the server to disappear. A server is settled
    when its task_state is null and its status is not transitional (nor in
    ``pending``); settling in ERROR, or in another status than expected,
    stops the wait with ResourceInErrorState. ``name`` labels the server in
    messages (default: its name and id).
    """
    server_id = server.id
    name = name or _label(server)

    def settled(s):
        return (s.task_state is None and s.status not in TRANSITIONAL
                and s.status not in pending)

    def done(s):
        if until is GONE:
            return s is None or s.status in GONE
        return s is not None and s.status in until and settled(s)

    def failed(s):
        if not settled(s):
            return None
        if s.status == "ERROR":
            fault = (getattr(s, "fault", None) or {}).get("message")
            return "Server %s is in ERROR state: %s" % (
                name, fault or "no fault reported")
        if until is not GONE:
            return "Server %s is %s, expected %s." % (
                name, s.status, " or ".join(sorted(until)))
        return None

    return waiters.wait_for(lambda: client.servers.get(server_id), done,
                            failed, timeout=args.wait_timeout,
                            interval=args.wait_interval, describe=_progress,
                            label="server " + name)


def _each(client, refs, verb, action, args, until=None, pending=()):
    """Run ``action(server)`` on every server named in ``refs``.

    With ``--wait`` (and ``until``), wait for each after all were asked.
    Each failure is one line on stderr; returns exit code 1 if any server
    failed.
    """
    acted = []

    def act(ref):
        server = client.servers.find_resource(ref)
        action(server)
        acted.append((ref, server))

    def wait(pair):
        with _accepted("the request was accepted but waiting failed"):
            _wait(client, pair[1], until, args, pending)
    what = verb + " server"
    code = utils.for_each(refs, act, what)
    if until is not None and getattr(args, "wait", False):
        code |= utils.for_each(acted, wait, what, label=lambda pair: pair[0])
    return code


@contextlib.contextmanager
def _accepted(failure):
    """After a request was accepted: a failure says so (``failure: error``).

    Whatever fails then (a poll after its retries, a timeout, a dropped
    connection) becomes one WaitFailed line saying what exists already, so
    that nobody repeats a create. A server found in ERROR (or another
    unexpected status) is reported as it is: that message names it.
    """
    try:
        yield
    except exceptions.ResourceInErrorState:
        raise
    except Exception as exc:  # any failure, named
        raise exceptions.WaitFailed("%s: %s" % (failure, exc)) from exc


_SERVERS_ARG = dict(nargs="+", metavar="<server>",
                    help="Server(s) (name or ID).")


def _action_command(verb, doc, until=None, what=None):
    """A ``do_server_<verb>`` running ``client.servers.<verb>`` on servers."""
    @utils.arg("servers", **_SERVERS_ARG)
    def command(client, args):
        return _each(client, args.servers, verb, getattr(client.servers, verb),
                     args, until)
    if until is not None:
        command = _wait_options(what)(command)
    command.__name__ = "do_server_" + verb
    command.__doc__ = doc
    return command


# -- commands -------------------------------------------------------------

@utils.arg("--long", action="store_true",
           help="Also show task state, power state, availability zone, host "
           "and properties.")
@utils.arg("--name", metavar="<regex>",
           help="Only servers whose name matches this regular expression.")
@utils.arg("--status", metavar="<status>",
           help="Only servers in this status (ACTIVE, SHUTOFF, ERROR, …).")
@utils.arg("--flavor", metavar="<flavor>", help="Only servers of this flavor "
           "(name or ID).")
@utils.arg("--image", metavar="<image>", help="Only servers booted from this "
           "image (name or ID).")
@utils.arg("--host", metavar="<host>", help="Only servers on this host "
           "(admin).")
@utils.arg("--all-projects", action="store_true",
           help="Servers of all projects (admin).")
@utils.arg("--changes-since", metavar="<time>",
           help="Only servers changed since this ISO 8601 time (includes "
           "deleted servers).")
@utils.arg("--sort", action="append", metavar="<key>[:asc|desc]",
           type=_arg_type(_parse_sort, "sort"),
           help="Sort on the server side by a Nova sort key (display_name, "
           "created_at, status, …; repeatable; direction defaults to desc).")
@utils.arg("--limit", type=utils.list_limit, metavar="<n>",
           help="At most this many servers (-1: all, the default).")
@utils.arg("--marker", metavar="<server-id>",
           help="Start after this server.")
@utils.output("list")
def do_server_list(client, args):
    """List servers."""
    search = {"name": args.name, "host": args.host,
              "status": args.status.upper() if args.status else None,
              "changes-since": args.changes_since,
              "all_tenants": True if args.all_projects else None}
    if args.flavor:
        search["flavor"] = client.flavors.find_resource(args.flavor).id
    if args.image:
        search["image"] = client.images.find_resource(args.image).id
    sort = args.sort or ()
    servers = list(client.servers.list(
        search_opts={k: v for k, v in search.items() if v is not None},
        limit=args.limit, marker=args.marker,
        sort_keys=[k for k, _ in sort] or None,
        sort_dirs=[d for _, d in sort] or None))
    image_names = _image_names(client, servers)
    flavor_names = _flavor_names(client, servers)
    rows = []
    for s in servers:
        info = s.to_dict()
        row = {"id": s.id, "name": info.get("name"),
               "status": info.get("status"),
               "networks": info.get("addresses") or {},
               "image": _image_label(info.get("image"), image_names),
               "flavor": _flavor_label(info.get("flavor"), flavor_names)}
        if args.long:
            power = info.get("OS-EXT-STS:power_state")
            row.update({
                "task_state": info.get("OS-EXT-STS:task_state"),
                "power_state": POWER_STATES.get(power, power),
                "az": info.get("OS-EXT-AZ:availability_zone"),
                "host": info.get("OS-EXT-SRV-ATTR:host"),
                "metadata": info.get("metadata") or {}})
        rows.append(row)
    keys = ["id", "name", "status", "networks", "image", "flavor"]
    headers = ["ID", "Name", "Status", "Networks", "Image", "Flavor"]
    if args.long:
        keys += ["task_state", "power_state", "az", "host", "metadata"]
        headers += ["Task State", "Power State", "Availability Zone", "Host",
                    "Properties"]
    return columns.table(rows, keys, headers, formatters={
        "networks": columns.AddressesColumn, "metadata": columns.DictColumn})


def _image_names(client, servers):
    """``{id: name}`` of the servers' images: one Glance request.

    Asks Glance only for the distinct image ids of ``servers`` (its
    ``id=in:`` filter, chunked by the manager), never for every image
    page. A failing lookup leaves the ids shown.
    """
    ids = [s.image["id"] for s in servers
           if isinstance(getattr(s, "image", None), dict)
           and s.image.get("id") and "name" not in s.image]
    if not ids:
        return {}
    images = _best_effort("image", lambda: {
        i.id: getattr(i, "name", None) for i in client.images.list(ids=ids)})
    return images or {}


def _flavor_names(client, servers):
    """``{id: name}`` for microversions < 2.47 from one flavor list.

    The list stops as soon as every needed flavor was seen, so further
    pages (clouds with more flavors than a page) are only read when needed.
    """
    wanted = {s.flavor.get("id") for s in servers
              if isinstance(getattr(s, "flavor", None), dict)
              and "original_name" not in s.flavor}
    wanted.discard(None)
    if not wanted:
        return {}

    def lookup():
        names = {}
        for flavor in client.flavors.list(detailed=False):
            names[flavor.id] = flavor.name
            if wanted <= names.keys():
                break
        return names
    return _best_effort("flavor", lookup) or {}


def _image_label(image, names):
    if image == "":
        return BOOTED_FROM_VOLUME
    if not image:
        return None  # e.g. a down-cell record (2.69)
    image_id = image.get("id") if isinstance(image, dict) else image
    return names.get(image_id) or image_id


def _flavor_label(flavor, names):
    if not isinstance(flavor, dict):
        return flavor
    if "original_name" in flavor:
        return flavor["original_name"]
    return names.get(flavor.get("id")) or flavor.get("id")


@utils.arg("server", metavar="<server>", help="Server (name or ID).")
@utils.output("show")
def do_server_show(client, args):
    """Show a server."""
    return _show(client, client.servers.find_resource(args.server))


@utils.arg("name", metavar="<name>", help="Name of the new server.")
@utils.arg("--image", metavar="<image>",
           help="Image to boot from (name or ID); not needed when a block "
           "device is the boot disk.")
@utils.arg("--flavor", metavar="<flavor>", required=True,
           help="Flavor (name or ID).")
@utils.arg("--key-name", metavar="<keypair>", help="Keypair to inject.")
@utils.arg("--availability-zone", metavar="<zone>",
           help="Availability zone to boot in.")
@utils.arg("--user-data", metavar="<file>",
           help="File of user data for the metadata service / config drive.")
@utils.arg("--file", dest="files", action="append", default=[],
           metavar="<dest>=<src>",
           type=_parse_pair("--file", "DEST", "SRC"),
           help="Inject local file SRC as DEST (repeatable, at most %d files "
           "of %d KiB; removed from compute API 2.57, so such requests use "
           "2.56)." % (servers_api.MAX_FILES,
                       servers_api.MAX_FILE_BYTES // 1024))
@utils.arg("--property", dest="properties", action="append", default=[],
           metavar="<key=value>", type=_key_value("--property"),
           help="Metadata property (repeatable).")
@utils.arg("--security-group", dest="security_groups", action="append",
           metavar="<name>", help="Security group (repeatable).")
@utils.arg("--nic", dest="nics", action="append", default=[],
           metavar="<net-id=…,v4-fixed-ip=…,v6-fixed-ip=…,port-id=…"
           "|auto|none>",
           type=_arg_type(_parse_nic, "nic"),
           help="Network interface (repeatable); 'auto' or 'none' alone. "
           "Default from compute API 2.37: auto.")
@utils.arg("--block-device-mapping", dest="block_device_mappings",
           action="append", default=[], metavar="<dev>=<id>:<type>:<size>:"
           "<delete>", type=_parse_pair("--block-device-mapping", "DEV",
                                        "ID:TYPE:SIZE:DELETE"),
           help="Legacy block device mapping (repeatable); TYPE 'snap' "
           "means a snapshot id, else a volume id.")
@utils.arg("--block-device", dest="block_devices", action="append",
           default=[], type=_arg_type(_parse_block_device, "block-device"),
           metavar="<key=value,…>",
           help="Block device (repeatable), keys: source (image, volume, "
           "snapshot or blank), dest (local or volume), id, size (GiB), "
           "boot-index, delete-on-termination, device, type, bus, format.")
@utils.arg("--hint", dest="hints", action="append", default=[],
           metavar="<key=value>", type=_key_value("--hint"),
           help="Scheduler hint (repeatable; a repeated key makes a list).")
@utils.arg("--config-drive", metavar="<true|false>",
           type=_arg_type(lambda v: strutils.parse_bool(v, "--config-drive"),
                          "bool"),
           help="Use a config drive.")
@utils.arg("--disk-config", type=str.upper, choices=("AUTO", "MANUAL"),
           help="Disk partitioning: AUTO or MANUAL.")
@utils.arg("--admin-pass", metavar="<password>",
           help="Administrator password.")
@utils.arg("--access-ipv4", metavar="<ip>", help="IPv4 access address.")
@utils.arg("--access-ipv6", metavar="<ip>", help="IPv6 access address.")
@utils.arg("--min", type=utils.positive_int, metavar="<n>",
           help="Boot at least this many servers.")
@utils.arg("--max", type=utils.positive_int, metavar="<n>",
           help="Boot at most this many servers.")
@utils.arg("--description", metavar="<text>",
           help="Description (compute API 2.19+).")
@utils.arg("--tag", dest="tags", action="append", metavar="<tag>",
           help="Tag (repeatable; compute API 2.52+).")
@utils.arg("--hostname", metavar="<hostname>",
           help="Hostname in the guest (compute API 2.90+).")
@utils.arg("--boot-from-volume", type=utils.positive_int, metavar="<GiB>",
           help="Boot from a new volume of this size made from --image "
           "(the image is not sent as imageRef).")
@utils.arg("--delete-on-termination", action="store_true",
           help="With --boot-from-volume: delete the volume with the server "
           "(Nova keeps it by default).")
@utils.arg("--swap", type=utils.positive_int, metavar="<MiB>",
           help="Add a swap disk of this size.")
@utils.arg("--ephemeral", dest="ephemerals", action="append", default=[],
           type=_arg_type(_parse_ephemeral, "ephemeral"),
           metavar="size=<GiB>[,format=<format>]",
           help="Add an ephemeral disk (repeatable).")
@utils.arg("--trusted-image-cert", dest="trusted_image_certs",
           action="append", metavar="<cert-id>",
           help="Trusted certificate id for image signature validation "
           "(repeatable; compute API 2.63+).")
@utils.arg("--host", metavar="<host>",
           help="Compute host to boot on (admin; compute API 2.74+).")
@utils.arg("--hypervisor-hostname", metavar="<hypervisor>",
           help="Hypervisor to boot on (admin; compute API 2.74+).")
@utils.arg("--return-reservation-id", action="store_true",
           help="Show the reservation id of the request (with --wait, also "
           "the servers).")
@_wait_options("the server is ACTIVE (with --max/--min above 1: every "
               "server)")
@utils.output("show")
@utils.option_names(files="--file", metadata="--property",
                    min_count="--min", max_count="--max",
                    user_data="--user-data",
                    block_device_mapping="--block-device-mapping")
def do_server_create(client, args):
    """Create (boot) a server, or several with --min/--max.

    Several servers (named <name>-1, <name>-2, … by Nova) are shown as
    their reservation id and a list of the servers; Nova returns no admin
    password for such a request.
    """
    nics = _nics(args.nics)
    hints = {}
    for key, value in args.hints:
        if key in hints:
            old = hints[key]
            hints[key] = (old if isinstance(old, list) else [old]) + [value]
        else:
            hints[key] = value
    boots_from_device = args.block_device_mappings or any(
        b.get("boot_index") == 0 for b in args.block_devices)
    if args.boot_from_volume is not None:
        if not args.image:
            raise exceptions.CommandError(
                "--boot-from-volume makes the boot volume from --image; give "
                "--image.")
        if boots_from_device:
            raise exceptions.CommandError(
                "--boot-from-volume cannot be combined with another boot "
                "disk (--block-device …,boot-index=0 or "
                "--block-device-mapping).")
    elif args.delete_on_termination:
        raise exceptions.CommandError(
            "--delete-on-termination only applies to --boot-from-volume.")
    if not args.image and not boots_from_device:
        raise exceptions.CommandError(
            "Give --image, or a boot disk with --block-device …,boot-index=0 "
            "or --block-device-mapping.")
    files = {dest: _read_file(src, "--file", servers_api.MAX_FILE_BYTES)
             for dest, src in args.files}
    several = max(args.min or 1, args.max or 1) > 1
    by_reservation = several or args.return_reservation_id
    options = dict(
        key_name=args.key_name, availability_zone=args.availability_zone,
        user_data=(_read_file(args.user_data, "--user-data")
                   if args.user_data else None),
        files=files or None, metadata=dict(args.properties) or None,
        security_groups=args.security_groups, nics=nics,
        block_device_mapping=dict(args.block_device_mappings) or None,
        scheduler_hints=hints or None, config_drive=args.config_drive,
        disk_config=args.disk_config, admin_pass=args.admin_pass,
        access_ip_v4=args.access_ipv4, access_ip_v6=args.access_ipv6,
        min_count=args.min, max_count=args.max,
        description=args.description, tags=args.tags,
        hostname=args.hostname,
        trusted_image_certificates=args.trusted_image_certs,
        host=args.host, hypervisor_hostname=args.hypervisor_hostname,
        return_reservation_id=by_reservation)
    # the manager's checks before any lookup (no request when pinned)
    client.servers.check_create(**options)

    image = client.images.find_resource(args.image) if args.image else None
    flavor = client.flavors.find_resource(args.flavor)
    bdms = list(args.block_devices)
    if args.boot_from_volume is not None:
        bdms.insert(0, servers_api.boot_volume_bdm(
            image, args.boot_from_volume,
            delete_on_termination=True if args.delete_on_termination
            else None))
        image = None
    if args.swap:
        bdms.append(servers_api.swap_bdm(args.swap))
    bdms += [servers_api.ephemeral_bdm(e["size"], e["format"])
             for e in args.ephemerals]
    created = client.servers.create(args.name, image, flavor,
                                    block_device_mapping_v2=bdms or None,
                                    **options)
    if by_reservation:
        return _show_reservation(client, created, args,
                                 with_servers=several or args.wait)
    extra = {}
    if "adminPass" in created:
        extra["adminPass"] = created.adminPass
    name = "%s (%s)" % (args.name, created.id)
    if args.wait:
        with _accepted("Server %s (id %s) was created but waiting failed"
                       % (args.name, created.id)):
            server = _wait(client, created, {"ACTIVE"}, args, name=name)
    else:
        with _accepted("Server %s (id %s) was created but showing it failed"
                       % (args.name, created.id)):
            server = client.servers.get(created)
    return _show(client, server, extra)


class ServersColumn(cliff_columns.FormattableColumn):
    """Servers as ``name (id) STATUS`` lines; id/name/status in JSON."""

    def human_readable(self):
        return "\n".join("%s (%s) %s" % (s["name"], s["id"], s["status"])
                         for s in self._value or ())

    def machine_readable(self):
        return list(self._value or ())


def _launch_order(server):
    """Nova names the servers of one request <name>-1, <name>-2, …"""
    name = getattr(server, "name", None) or ""
    base_name, _, index = name.rpartition("-")
    return (base_name, int(index) if index.isdigit() else 0, name, server.id)


def _reservation_servers(client, reservation_id):
    return sorted(client.servers.list(
        search_opts={"reservation_id": reservation_id}), key=_launch_order)


def _show_reservation(client, reservation_id, args, with_servers):
    """The reservation id, and (``with_servers``) its servers, waited for
    with ``--wait`` (exit 1 naming each server that did not become
    ACTIVE)."""
    if not reservation_id:
        raise exceptions.ClientException(
            "The cloud answered the create request without a reservation id.")
    info = {"reservation_id": reservation_id}
    if not with_servers:
        return columns.show(info, columns=["reservation_id"])
    with _accepted("The servers of reservation %s were created but listing "
                   "them failed" % reservation_id):
        servers = _reservation_servers(client, reservation_id)
    if not servers:
        raise exceptions.NotFound(
            "No servers found with reservation id %s." % reservation_id,
            code=404)
    if args.wait:
        with _accepted("%d servers of reservation %s were created (%s) but "
                       "waiting failed" % (
                           len(servers), reservation_id,
                           ", ".join(_label(s) for s in servers))):
            servers = _wait_all(client, reservation_id, servers, args)
    info["servers"] = [{"id": s.id, "name": getattr(s, "name", None),
                        "status": getattr(s, "status", None)}
                       for s in servers]
    return columns.show(info, columns=["reservation_id", "servers"],
                        formatters={"servers": ServersColumn})


def _wait_all(client, reservation_id, servers, args):
    """Poll the reservation's servers (one list request per poll) until
    every one has settled; any not ACTIVE then fails the command."""
    expected = len(servers)

    def settled(s):
        return s.task_state is None and s.status not in TRANSITIONAL

    def done(found):
        return len(found) >= expected and all(settled(s) for s in found)

    def describe(found):
        counts = {}
        for s in found:
            text = _progress(s)
            counts[text] = counts.get(text, 0) + 1
        return ", ".join("%d %s" % (n, text)
                         for text, n in sorted(counts.items()))

    servers = waiters.wait_for(
        lambda: _reservation_servers(client, reservation_id), done,
        timeout=args.wait_timeout, interval=args.wait_interval,
        describe=describe,
        label="%d servers of reservation %s" % (expected, reservation_id))
    failed = [s for s in servers if s.status != "ACTIVE"]
    if failed:
        reasons = []
        for s in failed:
            if s.status == "ERROR":
                fault = (getattr(s, "fault", None) or {}).get("message")
                reasons.append("%s is in ERROR state: %s" % (
                    _label(s), fault or "no fault reported"))
            else:
                reasons.append("%s is %s, expected ACTIVE" % (
                    _label(s), s.status))
        message = "%d of %d servers of reservation %s failed: %s" % (
            len(failed), len(servers), reservation_id, "; ".join(reasons))
        raise exceptions.ResourceInErrorState(
            message if message.endswith(".") else message + ".")
    return servers


def _nics(nics):
    """``--nic`` values → ``nics`` for the manager (None: the default)."""
    if not nics:
        return None
    special = [n for n in nics if isinstance(n, str)]
    if special and len(nics) > 1:
        raise exceptions.CommandError(
            "--nic %s cannot be combined with other --nic options."
            % special[0])
    return special[0] if special else nics


def _read_file(path, option, limit=None):
    """The bytes of ``path`` (CommandError if unreadable or over ``limit``)."""
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1 if limit is not None else -1)
    except OSError as exc:
        raise exceptions.CommandError("%s: cannot read %s: %s"
                                      % (option, path, exc.strerror or exc))
    if limit is not None and len(data) > limit:
        raise exceptions.CommandError(
            "%s: %s is larger than %d bytes." % (option, path, limit))
    return data


@utils.arg("servers", **_SERVERS_ARG)
@_wait_options("the servers are gone")
def do_server_delete(client, args):
    """Delete servers."""
    return _each(client, args.servers, "delete", client.servers.delete, args,
                 until=GONE)


@utils.arg("server", metavar="<server>", help="Server (name or ID).")
@utils.arg("--name", metavar="<name>", help="New name.")
@utils.arg("--description", metavar="<text>",
           help="New description (compute API 2.19+).")
@utils.arg("--hostname", metavar="<hostname>",
           help="New hostname in the guest (compute API 2.90+).")
@utils.arg("--property", dest="properties", action="append", default=[],
           metavar="<key=value>", type=_key_value("--property"),
           help="Set a metadata property (repeatable; others are kept).")
@utils.option_names(metadata="--property")
def do_server_set(client, args):
    """Change a server's name, description, hostname or properties."""
    metadata = dict(args.properties)
    changes = {"name": args.name, "description": args.description,
               "hostname": args.hostname}
    if all(v is None for v in changes.values()) and not metadata:
        raise exceptions.CommandError(
            "Nothing to set: give --name, --description, --hostname or "
            "--property.")
    # the manager's checks before the server lookup
    client.servers.check_update(**changes)
    client.servers.check_metadata(metadata)
    server = client.servers.find_resource(args.server)
    if any(v is not None for v in changes.values()):
        client.servers.update(server, **changes)
    if metadata:
        client.servers.set_meta(server, metadata)


@utils.arg("server", metavar="<server>", help="Server (name or ID).")
@utils.arg("--property", dest="properties", action="append", default=[],
           metavar="<key>", help="Remove this metadata property (repeatable).")
@utils.arg("--description", action="store_true",
           help="Remove the description (compute API 2.19+).")
def do_server_unset(client, args):
    """Remove properties or the description from a server."""
    if not args.properties and not args.description:
        raise exceptions.CommandError(
            "Nothing to unset: give --property or --description.")
    if args.description:
        client.servers.check_update(description=servers_api.CLEAR)
    server = client.servers.find_resource(args.server)
    if args.description:
        client.servers.update(server, description=servers_api.CLEAR)
    if args.properties:
        client.servers.delete_meta(server, args.properties)


@utils.arg("servers", **_SERVERS_ARG)
@utils.arg("--hard", action="store_true",
           help="Hard reboot (power cycle) instead of a soft one.")
@_wait_options("the servers are ACTIVE again")
def do_server_reboot(client, args):
    """Reboot servers."""
    return _each(client, args.servers, "reboot",
                 lambda s: client.servers.reboot(s, hard=args.hard), args,
                 until={"ACTIVE"})


do_server_start = _action_command(
    "start", "Start stopped servers.", {"ACTIVE"}, "the servers are ACTIVE")
do_server_stop = _action_command(
    "stop", "Stop (power off) servers.", {"SHUTOFF"},
    "the servers are SHUTOFF")
do_server_pause = _action_command(
    "pause", "Pause servers.", {"PAUSED"}, "the servers are PAUSED")
do_server_unpause = _action_command(
    "unpause", "Unpause paused servers.", {"ACTIVE"},
    "the servers are ACTIVE")
do_server_suspend = _action_command(
    "suspend", "Suspend servers.", {"SUSPENDED"}, "the servers are SUSPENDED")
do_server_resume = _action_command(
    "resume", "Resume suspended servers.", {"ACTIVE"},
    "the servers are ACTIVE")
do_server_unlock = _action_command("unlock", "Unlock servers.")


@utils.arg("servers", **_SERVERS_ARG)
@utils.arg("--reason", metavar="<text>",
           help="Why the servers are locked (compute API 2.73+).")
def do_server_lock(client, args):
    """Lock servers: non-admin users can no longer change them."""
    return _each(client, args.servers, "lock",
                 lambda s: client.servers.lock(s, reason=args.reason), args)


@utils.arg("server", metavar="<server>", help="Server (name or ID).")
@utils.arg("--image", metavar="<image>", required=True,
           help="Image to rebuild from (name or ID).")
@utils.arg("--name", metavar="<name>", help="New name.")
@utils.arg("--admin-pass", metavar="<password>",
           help="New administrator password.")
@utils.arg("--description", metavar="<text>",
           help="New description (compute API 2.19+).")
@_wait_options("the rebuild is done")
@utils.output("show")
def do_server_rebuild(client, args):
    """Rebuild a server from an image (its disk is replaced)."""
    server = client.servers.find_resource(args.server)
    image = client.images.find_resource(args.image)
    rebuilt = client.servers.rebuild(server, image, name=args.name,
                                     admin_pass=args.admin_pass,
                                     description=args.description)
    extra = {}
    if "adminPass" in rebuilt:
        extra["adminPass"] = rebuilt.adminPass
    if args.wait:
        with _accepted("Server %s (id %s) is being rebuilt but waiting "
                       "failed" % (server.name, server.id)):
            rebuilt = _wait(client, rebuilt, {"ACTIVE", "SHUTOFF"}, args)
    return _show(client, rebuilt, extra)


@utils.arg("server", metavar="<server>", help="Server (name or ID).")
@utils.arg("--flavor", metavar="<flavor>", required=True,
           help="New flavor (name or ID).")
@_wait_options("the resize waits for confirmation (VERIFY_RESIZE)")
def do_server_resize(client, args):
    """Resize a server to another flavor (then confirm or revert it)."""
    flavor = client.flavors.find_resource(args.flavor)
    return _each(client, [args.server], "resize",
                 lambda s: client.servers.resize(s, flavor), args,
                 until={"VERIFY_RESIZE"})


@utils.arg("servers", **_SERVERS_ARG)
@_wait_options("the servers are ACTIVE (or SHUTOFF)")
def do_server_resize_confirm(client, args):
    """Confirm a resize (the server keeps its new flavor)."""
    # nova leaves the status VERIFY_RESIZE (task_state null) until done
    return _each(client, args.servers, "confirm the resize of",
                 client.servers.confirm_resize, args,
                 until={"ACTIVE", "SHUTOFF"}, pending={"VERIFY_RESIZE"})


@utils.arg("servers", **_SERVERS_ARG)
@_wait_options("the servers are ACTIVE (or SHUTOFF)")
def do_server_resize_revert(client, args):
    """Revert a resize (back to the old flavor)."""
    return _each(client, args.servers, "revert the resize of",
                 client.servers.revert_resize, args,
                 until={"ACTIVE", "SHUTOFF"})


@utils.arg("server", metavar="<server>", help="Server (name or ID).")
@utils.arg("--lines", type=utils.positive_int, metavar="<n>",
           help="Only the last N lines.")
def do_server_console_log(client, args):
    """Print a server's console log."""
    server = client.servers.find_resource(args.server)
    text = client.servers.get_console_output(server, length=args.lines)
    sys.stdout.write(text if not text or text.endswith("\n") else text + "\n")
