"""Floating IP commands (Neutron): ``occli floating ip …``, with
OpenStackClient's names and options. ``server add floating ip``
associates one with a server (:mod:`occli.v2.compute.commands.server_network`)."""

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.network.commands import options

_IP_ARG = dict(metavar="<floating-ip>", help="Floating IP (address or ID).")
#: Neutron's keys under OSC's names, and the fields OSC always shows
#: (openstackclient/network/v2/floating_ip.py ``_get_network_columns``:
#: openstacksdk's FloatingIP, whose ``name`` is the address)
FLOATING_IP_OSC_NAMES = {"tenant_id": "project_id"}
FLOATING_IP_OSC_FIELDS = ("dns_domain", "dns_name", "port_details", "qos_policy_id", "subnet_id")


def _show(args, fip):
    """A floating IP as OSC shows it (``port_details`` {} when none);
    ``-c tenant_id`` still takes Neutron's name."""
    info = columns.osc_fields(fip, FLOATING_IP_OSC_NAMES, FLOATING_IP_OSC_FIELDS)
    info.setdefault("name", info.get("floating_ip_address"))
    shown = columns.show(info, formatters={"port_details": columns.DictColumn})
    return columns.with_raw_keys(args, shown, FLOATING_IP_OSC_NAMES)


@utils.arg("--network", metavar="<network>", help="Only the IPs of this network (name or ID).")
@utils.arg("--port", metavar="<port>", help="Only the IP associated with this port (name or ID).")
@utils.arg("--status", choices=("ACTIVE", "DOWN"), help="Only the IPs in this status.")
@utils.arg("--long", action="store_true", help="Also list status, router, description and tags.")
@options.tag_filters("floating IPs")
@utils.output("list")
def do_floating_ip_list(client, args):
    """List floating IPs.

    Example: occli floating ip list --network public
    """
    network = client.networks.find_resource(args.network) if args.network else None
    port = client.ports.find_resource(args.port) if args.port else None
    fips = client.floating_ips.iter(
        floating_network_id=network.id if network else None,
        port_id=port.id if port else None,
        status=args.status,
        **options.tag_filter_values(args),
    )
    cols = ["id", "floating_ip_address", "fixed_ip_address", "port_id"]
    cols += ["floating_network_id", "project_id"]
    headers = ["ID", "Floating IP Address", "Fixed IP Address", "Port", "Floating Network"]
    headers += ["Project"]
    if args.long:
        cols += ["status", "router_id", "description", "tags"]
        headers += ["Status", "Router", "Description", "Tags"]
    return columns.table(fips, cols, headers)


@utils.arg("floating_ip", **_IP_ARG)
@utils.output("show")
def do_floating_ip_show(client, args):
    """Show a floating IP.

    Example: occli floating ip show 172.24.4.228
    """
    return _show(args, client.floating_ips.find_resource(args.floating_ip))


@utils.arg("network", metavar="<network>", help="External network to allocate from (name or ID).")
@utils.arg("--port", metavar="<port>", help="Associate it with this port (name or ID).")
@utils.arg("--fixed-ip-address", metavar="<ip>", help="The port's fixed IP to associate it with.")
@utils.arg("--floating-ip-address", metavar="<ip>", help="Ask for this address.")
@utils.arg("--description", metavar="<text>", help="Description.")
@options.tags("floating IP", "create")
@utils.output("show")
def do_floating_ip_create(client, args):
    """Allocate a floating IP from an external network.

    Example: occli floating ip create public
    """
    network = client.networks.find_resource(args.network)
    port = client.ports.find_resource(args.port) if args.port else None
    fip = client.floating_ips.create(
        network,
        port=port,
        fixed_ip_address=args.fixed_ip_address,
        floating_ip_address=args.floating_ip_address,
        description=args.description,
    )
    options.apply_tags(client.floating_ips, fip, args, "create")
    return _show(args, fip)


@utils.arg("floating_ip", **_IP_ARG)
@utils.arg("--port", metavar="<port>", help="Associate the IP with this port (name or ID).")
@utils.arg(
    "--fixed-ip-address",
    metavar="<ip-address>",
    help="The port's fixed IP to associate it with (needed only if the port has several).",
)
@utils.arg("--description", metavar="<description>", help="New description.")
@options.tags("floating IP", "set")
def do_floating_ip_set(client, args):
    """Change a floating IP or associate it with a port.

    Neutron refuses a port whose subnet has no router to the floating
    IP's network (404).

    Example: occli floating ip set --port p1 172.24.4.228
    """
    given = {"fixed_ip_address": args.fixed_ip_address, "description": args.description}
    attributes = {k: v for k, v in given.items() if v}
    if not attributes and not args.port and not options.tags_given(args, "set"):
        raise exceptions.ValidationError(
            "Nothing to set: give --port, --fixed-ip-address, --description or --tag."
        )
    fip = client.floating_ips.find_resource(args.floating_ip)
    if args.port:
        attributes["port_id"] = client.ports.find_resource(args.port).id
    if attributes:
        client.floating_ips.update(fip, **attributes)
    options.apply_tags(client.floating_ips, fip, args, "set")


@utils.arg("floating_ip", **_IP_ARG)
@utils.arg("--port", action="store_true", help="Detach the IP from its port.")
@options.tags("floating IP", "unset")
def do_floating_ip_unset(client, args):
    """Detach a floating IP from its port or remove its tags.

    Example: occli floating ip unset --port 172.24.4.228
    """
    if not args.port and not options.tags_given(args, "unset"):
        raise exceptions.ValidationError("Nothing to unset: give --port, --tag or --all-tag.")
    fip = client.floating_ips.find_resource(args.floating_ip)
    if args.port:
        client.floating_ips.update(fip, port_id=None)
    options.apply_tags(client.floating_ips, fip, args, "unset")


@utils.arg(
    "floating_ips", nargs="+", metavar="<floating-ip>", help="Floating IP(s) (address or ID)."
)
def do_floating_ip_delete(client, args):
    """Release floating IPs (an associated IP is detached first by Neutron).

    Example: occli floating ip delete 172.24.4.228
    """

    def delete(ref):
        client.floating_ips.delete(client.floating_ips.find_resource(ref))

    return utils.for_each(args.floating_ips, delete, "delete floating IP")
