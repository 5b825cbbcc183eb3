"""Floating IP commands (Neutron): ``occli floating ip …``, with
OpenStackClient's names and options. ``server add floating ip``
associates one with a server (:mod:`occli.v2.compute.commands.server_network`)."""

from occli import columns
from occli import utils

_IP_ARG = dict(metavar="<floating-ip>", help="Floating IP (address or ID).")


@utils.arg("--network", metavar="<network>", help="Only the IPs of this network (name or ID).")
@utils.arg("--port", metavar="<port>", help="Only the IP associated with this port (name or ID).")
@utils.arg("--status", choices=("ACTIVE", "DOWN"), help="Only the IPs in this status.")
@utils.arg("--long", action="store_true", help="Also list status, router and description.")
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
    )
    cols = ["id", "floating_ip_address", "fixed_ip_address", "port_id"]
    cols += ["floating_network_id", "project_id"]
    headers = ["ID", "Floating IP Address", "Fixed IP Address", "Port", "Floating Network"]
    headers += ["Project"]
    if args.long:
        cols += ["status", "router_id", "description"]
        headers += ["Status", "Router", "Description"]
    return columns.table(fips, cols, headers)


@utils.arg("floating_ip", **_IP_ARG)
@utils.output("show")
def do_floating_ip_show(client, args):
    """Show a floating IP.

    Example: occli floating ip show 172.24.4.228
    """
    return columns.show(client.floating_ips.find_resource(args.floating_ip).to_dict())


@utils.arg("network", metavar="<network>", help="External network to allocate from (name or ID).")
@utils.arg("--port", metavar="<port>", help="Associate it with this port (name or ID).")
@utils.arg("--fixed-ip-address", metavar="<ip>", help="The port's fixed IP to associate it with.")
@utils.arg("--floating-ip-address", metavar="<ip>", help="Ask for this address.")
@utils.arg("--description", metavar="<text>", help="Description.")
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
    return columns.show(fip.to_dict())


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
