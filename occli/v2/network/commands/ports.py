"""Port write commands (Neutron): ``occli port create|set|unset|delete``,
with OpenStackClient's names and options (``port list``/``show`` are in
:mod:`occli.v2.network.commands.networks`). Subnets and security groups
named in the options are resolved with one request per kind."""

from occli import exceptions
from occli import utils
from occli.v2.network.commands import options
from occli.v2.network.commands.networks import show_port

_FIXED_IP = options.pairs(
    "--fixed-ip",
    (),
    ("subnet", "ip-address"),
    keys={"subnet": "subnet_id", "ip-address": "ip_address"},
)
_ADDRESS = options.pairs(
    "--allowed-address",
    ("ip-address",),
    ("mac-address",),
    keys={"ip-address": "ip_address", "mac-address": "mac_address"},
)


def _port_options(func):
    """The options ``port create`` and ``port set`` share (OSC's)."""
    decorators = [
        utils.arg("--description", metavar="<description>", help="Description."),
        utils.arg("--device", metavar="<device-id>", help="Device ID (a server's, a router's…)."),
        utils.arg("--mac-address", metavar="<mac-address>", help="MAC address (admin)."),
        utils.arg("--device-owner", metavar="<device-owner>",
                  help="Device owner: compute:nova, network:router_interface, …"),
        utils.arg("--vnic-type", metavar="<vnic-type>",
                  help="VNIC type: normal (default), direct, macvtap, baremetal, …"),
        utils.arg("--host", metavar="<host-id>", help="Host to bind the port to (admin)."),
        utils.arg("--dns-name", metavar="<dns-name>", help="Name of the port in DNS."),
        utils.arg("--fixed-ip", dest="fixed_ips", action="append", type=_FIXED_IP,
                  metavar="subnet=<subnet>,ip-address=<ip-address>",
                  help="Fixed IP: a subnet (name or ID), an address or both (repeat)."),
        options.switch("admin_state", "--enable", "--disable", "Enable the port (default).",
                       "Disable the port."),
        utils.arg("--security-group", dest="security_groups", action="append",
                  metavar="<security-group>",
                  help="Security group (name or ID; repeat for several)."),
        utils.arg("--no-security-group", action="store_true", help="No security group."),
        options.switch("port_security", "--enable-port-security", "--disable-port-security",
                       "Enable port security (the default).", "Disable port security."),
        utils.arg("--allowed-address", dest="allowed_addresses", action="append", type=_ADDRESS,
                  metavar="ip-address=<ip-address>[,mac-address=<mac-address>]",
                  help="Address the port may also send from (repeat for several)."),
    ]  # fmt: skip
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


def _port_attributes(args):
    """The scalar Neutron attributes of ``port create``/``set`` options."""
    attributes = {
        "name": getattr(args, "name", None),
        "description": args.description,
        "device_id": args.device,
        "mac_address": args.mac_address,
        "device_owner": args.device_owner,
        "binding:vnic_type": args.vnic_type,
        "binding:host_id": args.host,
        "dns_name": args.dns_name,
        "admin_state_up": args.admin_state,
        "port_security_enabled": args.port_security,
    }
    return {k: v for k, v in attributes.items() if v is not None}


def _fixed_ips(client, fixed_ips):
    """``--fixed-ip`` values with their subnets' ids (one subnet request
    for all the names)."""
    subnets = client.subnets.find_many(ip["subnet_id"] for ip in fixed_ips if "subnet_id" in ip)
    return [
        dict(ip, subnet_id=subnets[ip["subnet_id"]].id) if "subnet_id" in ip else dict(ip)
        for ip in fixed_ips
    ]


def _group_ids(client, groups):
    """The ids of ``groups`` (names or ids), in one request."""
    found = client.security_groups.find_many(groups)
    return [found[g].id for g in groups]


@utils.arg("name", metavar="<name>", help="Name of the new port.")
@utils.arg("--network", required=True, metavar="<network>", help="Network (name or ID).")
@_port_options
@utils.arg("--no-fixed-ip", action="store_true", help="No fixed IP.")
@utils.arg("--project", metavar="<project-id>", help="Owner's project (admin).")
@options.tags("port", "create")
@utils.output("show")
def do_port_create(client, args):
    """Create a port.

    Without --fixed-ip Neutron picks an address on one of the network's
    subnets; without --security-group the project's default group is
    applied.

    Example: occli port create --network private --fixed-ip ip-address=10.0.0.50 p1
    """
    options.not_both(args.fixed_ips, "--fixed-ip", args.no_fixed_ip, "--no-fixed-ip")
    options.not_both(
        args.security_groups, "--security-group", args.no_security_group, "--no-security-group"
    )
    attributes = _port_attributes(args)
    if args.project is not None:
        attributes["project_id"] = args.project
    if args.allowed_addresses:
        attributes["allowed_address_pairs"] = args.allowed_addresses
    network = client.networks.find_resource(args.network)
    fixed_ips: list[dict[str, str]] | None = [] if args.no_fixed_ip else None
    if args.fixed_ips:
        fixed_ips = _fixed_ips(client, args.fixed_ips)
    groups: list[str] | None = [] if args.no_security_group else None
    if args.security_groups:
        groups = _group_ids(client, args.security_groups)
    name = attributes.pop("name")
    # as OSC: the tags in the POST where Neutron takes them there, else after it
    in_post = bool(args.tags) and client.network_extensions.supports(
        "tag-ports-during-bulk-creation"
    )
    if in_post:
        attributes["tags"] = list(dict.fromkeys(args.tags))
    port = client.ports.create(
        network, name=name, fixed_ips=fixed_ips, security_groups=groups, **attributes
    )
    if not in_post:
        options.apply_tags(client.ports, port, args, "create")
    return show_port(args, port)


@utils.arg("port", metavar="<port>", help="Port to change (name or ID).")
@utils.arg("--name", metavar="<name>", help="New name.")
@_port_options
@utils.arg("--no-fixed-ip", action="store_true", help="Drop the current fixed IPs first.")
@utils.arg(
    "--no-allowed-address",
    action="store_true",
    help="Drop the current allowed addresses first.",
)
@options.tags("port", "set")
def do_port_set(client, args):
    """Change a port.

    The fixed IPs, security groups and allowed addresses given are added
    to the current ones (replacing them with the --no-… options).

    Example: occli port set --security-group web --device-owner compute:nova p1
    """
    attributes = _port_attributes(args)
    lists = {
        "fixed_ips": (args.fixed_ips, args.no_fixed_ip),
        "security_groups": (args.security_groups, args.no_security_group),
        "allowed_address_pairs": (args.allowed_addresses, args.no_allowed_address),
    }
    changed = attributes or any(added or clear for added, clear in lists.values())
    if not changed and not options.tags_given(args, "set"):
        raise exceptions.ValidationError(
            "Nothing to set: give --name, --fixed-ip, --security-group, --allowed-address, "
            "--device-owner, --tag, …"
        )
    port = client.ports.find_resource(args.port)
    for key, (added, clear) in lists.items():
        if not added and not clear:
            continue
        current = [] if clear else [v for v in getattr(port, key, None) or () if v]
        if key == "fixed_ips" and added:
            added = _fixed_ips(client, added)
        elif key == "security_groups" and added:
            added = _group_ids(client, added)
        attributes[key] = current + list(added or ())
    if attributes:
        client.ports.update(port, **attributes)
    options.apply_tags(client.ports, port, args, "set")


@utils.arg("port", metavar="<port>", help="Port to change (name or ID).")
@utils.arg(
    "--fixed-ip",
    dest="fixed_ips",
    action="append",
    type=_FIXED_IP,
    metavar="subnet=<subnet>,ip-address=<ip-address>",
    help="Fixed IP to remove (repeat for several).",
)
@utils.arg(
    "--security-group",
    dest="security_groups",
    action="append",
    metavar="<security-group>",
    help="Security group to remove (name or ID; repeat for several).",
)
@utils.arg(
    "--allowed-address",
    dest="allowed_addresses",
    action="append",
    type=_ADDRESS,
    metavar="ip-address=<ip-address>[,mac-address=<mac-address>]",
    help="Allowed address to remove (repeat for several).",
)
@utils.arg("--device", action="store_true", help="Clear the device ID.")
@utils.arg("--device-owner", action="store_true", help="Clear the device owner.")
@utils.arg("--host", action="store_true", help="Clear the host binding (admin).")
@options.tags("port", "unset")
def do_port_unset(client, args):
    """Remove a port's fixed IPs, security groups, addresses, device, host or tags.

    Example: occli port unset --security-group web p1
    """
    cleared = {"device_id": args.device, "device_owner": args.device_owner}
    attributes: dict[str, object] = {k: "" for k, v in cleared.items() if v}
    if args.host:
        attributes["binding:host_id"] = None
    lists = args.fixed_ips or args.security_groups or args.allowed_addresses
    if not attributes and not lists and not options.tags_given(args, "unset"):
        raise exceptions.ValidationError(
            "Nothing to unset: give --fixed-ip, --security-group, --allowed-address, "
            "--device, --device-owner, --host or --tag."
        )
    port = client.ports.find_resource(args.port)
    if args.fixed_ips:
        removed = _fixed_ips(client, args.fixed_ips)
        attributes["fixed_ips"] = _without_fixed_ips(port.fixed_ips, removed)
    if args.security_groups:
        attributes["security_groups"] = options.without(
            port.security_groups, _group_ids(client, args.security_groups),
            "Port", "security group",
        )  # fmt: skip
    if args.allowed_addresses:
        attributes["allowed_address_pairs"] = options.without(
            _pairs_as_given(port.allowed_address_pairs, args.allowed_addresses),
            args.allowed_addresses, "Port", "allowed-address-pair",
        )  # fmt: skip
    if attributes:
        client.ports.update(port, **attributes)
    options.apply_tags(client.ports, port, args, "unset")


def _without_fixed_ips(current, removed):
    """The port's fixed IPs less each of ``removed``: one matches every
    key it gives (an address, a subnet or both)."""
    kept = list(current or ())
    for ip in removed:
        match = [c for c in kept if all(c.get(k) == v for k, v in ip.items())]
        if not match:
            raise exceptions.CommandError("Port does not contain fixed-ip %s" % ip)
        kept.remove(match[0])
    return kept


def _pairs_as_given(current, given):
    """The port's address pairs, each without its MAC address when the
    matching removal gives none (Neutron fills in the port's own)."""
    addresses = {a["ip_address"] for a in given if "mac_address" not in a}
    return [
        {"ip_address": p["ip_address"]} if p.get("ip_address") in addresses else p
        for p in current or ()
    ]


@utils.arg("ports", nargs="+", metavar="<port>", help="Port(s) to delete (name or ID).")
def do_port_delete(client, args):
    """Delete ports.

    Example: occli port delete p1
    """

    def delete(ref):
        client.ports.delete(client.ports.find_resource(ref))

    return utils.for_each(args.ports, delete, "delete port")
