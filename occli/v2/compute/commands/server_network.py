"""A server's network interfaces, addresses and security groups:
``occli server add|remove port|network|fixed ip|floating ip|security
group``, with OpenStackClient's names and options.

Ports and networks are attached through Nova (os-interface); a floating
IP is associated through Neutron, with a port of the server, as OSC does.
"""

from occli import exceptions
from occli import utils

_SERVER_ARG = dict(metavar="<server>", help="Server (name or ID).")
_TAG_ARG = dict(metavar="<tag>", help="Device tag for the guest (compute API 2.49+).")


@utils.arg("server", **_SERVER_ARG)
@utils.arg("port", metavar="<port>", help="Port to attach (name or ID).")
@utils.arg("--tag", **_TAG_ARG)
def do_server_add_port(client, args):
    """Attach a port to a server as a new interface.

    Example: occli server add port vm1 my-port
    """
    client.interface_attachments.check_create(port="-", tag=args.tag)
    server = client.servers.find_resource(args.server)
    port = client.ports.find_resource(args.port)
    client.interface_attachments.create(server, port=port, tag=args.tag)


@utils.arg("server", **_SERVER_ARG)
@utils.arg("port", metavar="<port>", help="Port to detach (name or ID).")
def do_server_remove_port(client, args):
    """Detach a port from a server (the port is kept).

    Example: occli server remove port vm1 my-port
    """
    server = client.servers.find_resource(args.server)
    port = client.ports.find_resource(args.port)
    client.interface_attachments.delete(server, port)


@utils.arg("server", **_SERVER_ARG)
@utils.arg("network", metavar="<network>", help="Network to attach (name or ID).")
@utils.arg("--tag", **_TAG_ARG)
def do_server_add_network(client, args):
    """Attach a server to a network: Nova makes a new port on it.

    Example: occli server add network vm1 private
    """
    client.interface_attachments.check_create(network="-", tag=args.tag)
    server = client.servers.find_resource(args.server)
    network = client.networks.find_resource(args.network)
    client.interface_attachments.create(server, network=network, tag=args.tag)


@utils.arg("server", **_SERVER_ARG)
@utils.arg("network", metavar="<network>", help="Network to detach (name or ID).")
def do_server_remove_network(client, args):
    """Detach a server from a network: every port of the server on it.

    Example: occli server remove network vm1 private
    """
    server = client.servers.find_resource(args.server)
    network = client.networks.find_resource(args.network)
    ports = list(client.ports.list(server=server, network=network, fields=["id"]))
    if not ports:
        raise exceptions.NotFound(
            "Server %s has no port on network %s." % (args.server, args.network), code=404
        )
    for port in ports:
        client.interface_attachments.delete(server, port)


@utils.arg("server", **_SERVER_ARG)
@utils.arg("network", metavar="<network>", help="Network of the new address (name or ID).")
@utils.arg("--fixed-ip-address", metavar="<ip>", help="The address (default: any free one).")
@utils.arg("--tag", **_TAG_ARG)
def do_server_add_fixed_ip(client, args):
    """Give a server a fixed IP on a network (through a new interface).

    Example: occli server add fixed ip --fixed-ip-address 10.0.0.50 vm1 private
    """
    client.interface_attachments.check_create(
        network="-", fixed_ip=args.fixed_ip_address, tag=args.tag
    )
    server = client.servers.find_resource(args.server)
    network = client.networks.find_resource(args.network)
    client.interface_attachments.create(
        server, network=network, fixed_ip=args.fixed_ip_address, tag=args.tag
    )


@utils.arg("server", **_SERVER_ARG)
@utils.arg("ip_address", metavar="<ip-address>", help="Fixed IP address to remove.")
def do_server_remove_fixed_ip(client, args):
    """Remove a fixed IP from a server.

    The address is dropped from its port; a port left without any address
    is detached.

    Example: occli server remove fixed ip vm1 10.0.0.50
    """
    server = client.servers.find_resource(args.server)
    port = _port_holding(client, server, args.ip_address, args.server)
    kept = [ip for ip in port.fixed_ips if ip.get("ip_address") != args.ip_address]
    if kept:
        client.ports.update(port, fixed_ips=kept)
    else:
        client.interface_attachments.delete(server, port)


@utils.arg("server", **_SERVER_ARG)
@utils.arg("ip_address", metavar="<ip-address>", help="Floating IP address to associate.")
@utils.arg(
    "--fixed-ip-address",
    metavar="<ip>",
    help="The server's fixed IP to associate it with (default: its first port that can be).",
)
def do_server_add_floating_ip(client, args):
    """Associate a floating IP with a server.

    Example: occli server add floating ip vm1 172.24.4.228
    """
    server = client.servers.find_resource(args.server)
    fip = client.floating_ips.find_resource(args.ip_address)
    if args.fixed_ip_address:
        port = _port_holding(client, server, args.fixed_ip_address, args.server)
        client.floating_ips.associate(fip, port, fixed_ip_address=args.fixed_ip_address)
        return
    ports = list(client.ports.list(server=server))
    if not ports:
        raise exceptions.NotFound(
            "Server %s has no port to associate %s with." % (args.server, args.ip_address),
            code=404,
        )
    # as OSC: the first port whose network reaches the floating IP's
    for index, port in enumerate(ports):
        try:
            client.floating_ips.associate(fip, port)
            return
        except exceptions.NotFound:
            if index == len(ports) - 1:
                raise


@utils.arg("server", **_SERVER_ARG)
@utils.arg("ip_address", metavar="<ip-address>", help="Floating IP address to disassociate.")
def do_server_remove_floating_ip(client, args):
    """Disassociate a floating IP from a server (the IP stays allocated).

    Example: occli server remove floating ip vm1 172.24.4.228
    """
    server = client.servers.find_resource(args.server)
    fip = client.floating_ips.find_resource(args.ip_address)
    port_id = getattr(fip, "port_id", None)
    if port_id is None or port_id not in {
        p.id for p in client.ports.list(server=server, fields=["id"])
    }:
        raise exceptions.NotFound(
            "Floating IP %s is not associated with server %s." % (args.ip_address, args.server),
            code=404,
        )
    client.floating_ips.disassociate(fip)


@utils.arg("server", **_SERVER_ARG)
@utils.arg("group", metavar="<group>", help="Security group (name or ID).")
def do_server_add_security_group(client, args):
    """Add a security group to a server (to all its ports).

    Example: occli server add security group vm1 web
    """
    server = client.servers.find_resource(args.server)
    group = client.security_groups.find_resource(args.group)
    client.servers.add_security_group(server, group)


@utils.arg("server", **_SERVER_ARG)
@utils.arg("group", metavar="<group>", help="Security group (name or ID).")
def do_server_remove_security_group(client, args):
    """Remove a security group from a server.

    Example: occli server remove security group vm1 web
    """
    server = client.servers.find_resource(args.server)
    group = client.security_groups.find_resource(args.group)
    client.servers.remove_security_group(server, group)


def _port_holding(client, server, ip_address, server_ref):
    """The port of ``server`` holding ``ip_address`` (NotFound if none)."""
    ports = list(client.ports.list(server=server, fixed_ip="ip_address=%s" % ip_address))
    if not ports:
        raise exceptions.NotFound(
            "Server %s has no fixed IP %s." % (server_ref, ip_address), code=404
        )
    return ports[0]
