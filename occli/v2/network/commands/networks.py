"""Network, subnet and port commands (Neutron): ``occli network …``,
``occli subnet list``, ``occli port …``, with OpenStackClient's names,
options and columns."""

from cliff import columns as cliff_columns

from occli import columns
from occli import exceptions
from occli import utils

_FIXED_IP_KEYS = {"ip-address": "ip_address", "subnet": "subnet_id"}


def _parse_fixed_ip(text):
    """``ip-address=<ip>`` or ``subnet=<id>`` → Neutron's ``fixed_ips`` filter."""
    key, sep, value = text.partition("=")
    if not sep or key not in _FIXED_IP_KEYS or not value:
        raise exceptions.ValidationError(
            "--fixed-ip expects ip-address=<ip> or subnet=<subnet-id>, got %r." % text
        )
    return "%s=%s" % (_FIXED_IP_KEYS[key], value)


class FixedIPsColumn(cliff_columns.FormattableColumn):
    """A port's ``fixed_ips``: ``ip_address='10.0.0.3', subnet_id='…'``
    lines, as OSC shows them; the list in JSON."""

    def human_readable(self):
        return "\n".join(
            ", ".join("%s='%s'" % (k, ip[k]) for k in sorted(ip)) for ip in self._value or ()
        )

    def machine_readable(self):
        return list(self._value or ())


class StateColumn(cliff_columns.FormattableColumn):
    """``admin_state_up`` as ``UP`` or ``DOWN``."""

    def human_readable(self):
        return "UP" if self._value else "DOWN"

    def machine_readable(self):
        return self._value


class RouterTypeColumn(cliff_columns.FormattableColumn):
    """``router:external`` as ``External`` or ``Internal``."""

    def human_readable(self):
        return "External" if self._value else "Internal"

    def machine_readable(self):
        return self._value


@utils.arg(
    "--long",
    action="store_true",
    help="Also list status, project, state, sharing, router type and zones.",
)
@utils.arg(
    "--external",
    dest="external",
    action=utils.Switch,
    const=True,
    other="--internal",
    default=None,
    help="Only external networks (those holding floating IPs).",
)
@utils.arg(
    "--internal",
    dest="external",
    action=utils.Switch,
    const=False,
    other="--external",
    help="Only internal networks.",
)
@utils.arg("--name", metavar="<name>", help="Only the networks of this exact name.")
@utils.output("list")
def do_network_list(client, args):
    """List networks.

    Example: occli network list --external
    """
    cols = ["id", "name", "subnets"]
    headers = ["ID", "Name", "Subnets"]
    if args.long:
        cols = ["id", "name", "status", "project_id", "admin_state_up", "shared", "subnets"]
        cols += ["router:external", "availability_zones"]
        headers = ["ID", "Name", "Status", "Project", "State", "Shared", "Subnets"]
        headers += ["Router Type", "Availability Zones"]
    networks = client.networks.iter(external=args.external, name=args.name)
    return columns.table(
        networks,
        cols,
        headers,
        formatters={"admin_state_up": StateColumn, "router:external": RouterTypeColumn},
    )


@utils.arg("network", metavar="<network>", help="Network (name or ID).")
@utils.output("show")
def do_network_show(client, args):
    """Show a network.

    Example: occli network show private
    """
    return columns.show(client.networks.find_resource(args.network))


@utils.arg("--network", metavar="<network>", help="Only the subnets of this network (name or ID).")
@utils.arg("--long", action="store_true", help="Also list project, DHCP, gateway and pools.")
@utils.output("list")
def do_subnet_list(client, args):
    """List subnets.

    Example: occli subnet list --network private
    """
    network = client.networks.find_resource(args.network) if args.network else None
    cols = ["id", "name", "network_id", "cidr"]
    headers = ["ID", "Name", "Network", "Subnet"]
    if args.long:
        cols += ["project_id", "enable_dhcp", "gateway_ip", "allocation_pools", "ip_version"]
        headers += ["Project", "DHCP", "Gateway", "Allocation Pools", "IP Version"]
    return columns.table(client.subnets.iter(network=network), cols, headers)


@utils.arg("subnet", metavar="<subnet>", help="Subnet (name or ID).")
@utils.output("show")
def do_subnet_show(client, args):
    """Show a subnet.

    Example: occli subnet show private-subnet
    """
    return columns.show(client.subnets.find_resource(args.subnet))


@utils.arg("--server", metavar="<server>", help="Only the ports of this server (name or ID).")
@utils.arg("--network", metavar="<network>", help="Only the ports on this network (name or ID).")
@utils.arg(
    "--device-owner",
    metavar="<owner>",
    help="Only ports of this device owner (compute:nova, network:floatingip, …).",
)
@utils.arg(
    "--fixed-ip",
    metavar="ip-address=<ip>|subnet=<subnet-id>",
    type=utils.arg_type(_parse_fixed_ip, "fixed-ip"),
    help="Only the ports holding this fixed IP address (or one on this subnet).",
)
@utils.arg("--long", action="store_true", help="Also list security groups and device owner.")
@utils.output("list")
def do_port_list(client, args):
    """List ports.

    A server's interfaces are the ports whose device is the server.

    Example: occli port list --server vm1
    """
    server = client.servers.find_resource(args.server) if args.server else None
    network = client.networks.find_resource(args.network) if args.network else None
    cols = ["id", "name", "mac_address", "fixed_ips", "status"]
    headers = ["ID", "Name", "MAC Address", "Fixed IP Addresses", "Status"]
    if args.long:
        cols += ["security_groups", "device_owner", "device_id"]
        headers += ["Security Groups", "Device Owner", "Device ID"]
    ports = client.ports.iter(
        server=server, network=network, device_owner=args.device_owner, fixed_ip=args.fixed_ip
    )
    return columns.table(ports, cols, headers, formatters={"fixed_ips": FixedIPsColumn})


@utils.arg("port", metavar="<port>", help="Port (name or ID).")
@utils.output("show")
def do_port_show(client, args):
    """Show a port.

    Example: occli port show 3cb9bc59-5699-4588-a4b1-b87f96708bc6
    """
    return columns.show(
        client.ports.find_resource(args.port), formatters={"fixed_ips": FixedIPsColumn}
    )
