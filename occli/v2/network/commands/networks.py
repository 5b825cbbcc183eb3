"""Network, subnet and port commands (Neutron): ``occli network …``,
``occli subnet list``, ``occli port …``, with OpenStackClient's names,
options and columns."""

from cliff import columns as cliff_columns

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.network.commands import options

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
    help="Also list status, project, state, sharing, network and router type and zones.",
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
@options.tag_filters("networks")
@utils.output("list")
def do_network_list(client, args):
    """List networks.

    Example: occli network list --external
    """
    cols = ["id", "name", "subnets"]
    headers = ["ID", "Name", "Subnets"]
    if args.long:
        cols = ["id", "name", "status", "project_id", "admin_state_up", "shared", "subnets"]
        cols += ["provider:network_type", "router:external", "availability_zones", "tags"]
        headers = ["ID", "Name", "Status", "Project", "State", "Shared", "Subnets"]
        headers += ["Network Type", "Router Type", "Availability Zones", "Tags"]
    networks = client.networks.iter(
        external=args.external, name=args.name, **options.tag_filter_values(args)
    )
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
    network = columns.osc_fields(
        client.networks.find_resource(args.network), NETWORK_OSC_NAMES, NETWORK_OSC_FIELDS
    )
    # OSC's network show: admin_state_up and router:external as words
    formatters = {"admin_state_up": StateColumn, "router:external": RouterTypeColumn}
    shown = columns.show(network, formatters=formatters)
    return columns.with_raw_keys(args, shown, NETWORK_OSC_NAMES)


#: Neutron's keys under OSC's names, and the fields OSC always shows
#: (openstacksdk's network/v2/network.py and subnet.py, which OSC prints)
NETWORK_OSC_NAMES = {"tenant_id": "project_id", "vlan_transparent": "is_vlan_transparent"}
NETWORK_OSC_FIELDS = (
    "dns_domain",
    "is_default",
    "is_vlan_qinq",
    "provider:network_type",
    "provider:physical_network",
    "provider:segmentation_id",
    "pvlan",
    "qos_policy_id",
    "segments",
)
SUBNET_OSC_NAMES = {"tenant_id": "project_id"}
SUBNET_OSC_FIELDS = ("dns_publish_fixed_ip", "segment_id")


@utils.arg("--network", metavar="<network>", help="Only the subnets of this network (name or ID).")
@utils.arg("--long", action="store_true", help="Also list project, DHCP, gateway and pools.")
@options.tag_filters("subnets")
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
        cols += ["tags"]
        headers += ["Project", "DHCP", "Gateway", "Allocation Pools", "IP Version", "Tags"]
    subnets = client.subnets.iter(network=network, **options.tag_filter_values(args))
    return columns.table(subnets, cols, headers)


@utils.arg("subnet", metavar="<subnet>", help="Subnet (name or ID).")
@utils.output("show")
def do_subnet_show(client, args):
    """Show a subnet.

    Example: occli subnet show private-subnet
    """
    subnet = columns.osc_fields(
        client.subnets.find_resource(args.subnet), SUBNET_OSC_NAMES, SUBNET_OSC_FIELDS
    )
    return columns.with_raw_keys(args, columns.show(subnet), SUBNET_OSC_NAMES)


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
@utils.arg("--long", action="store_true", help="Also list security groups, device owner and tags.")
@options.tag_filters("ports")
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
        cols += ["security_groups", "device_owner", "device_id", "tags"]
        headers += ["Security Groups", "Device Owner", "Device ID", "Tags"]
    ports = client.ports.iter(
        server=server,
        network=network,
        device_owner=args.device_owner,
        fixed_ip=args.fixed_ip,
        **options.tag_filter_values(args),
    )
    return columns.table(ports, cols, headers, formatters={"fixed_ips": FixedIPsColumn})


@utils.arg("port", metavar="<port>", help="Port (name or ID).")
@utils.output("show")
def do_port_show(client, args):
    """Show a port.

    Example: occli port show 3cb9bc59-5699-4588-a4b1-b87f96708bc6
    """
    return show_port(args, client.ports.find_resource(args.port))


#: Neutron's keys under OSC's names (openstackclient/network/v2/port.py
#: ``_get_columns``, which prints openstacksdk's Port); ``-c`` still takes
#: Neutron's
PORT_OSC_NAMES = {
    "binding:host_id": "binding_host_id",
    "binding:profile": "binding_profile",
    "binding:vif_details": "binding_vif_details",
    "binding:vif_type": "binding_vif_type",
    "binding:vnic_type": "binding_vnic_type",
    "security_groups": "security_group_ids",
    "tenant_id": "project_id",
}
#: OSC's columns of a port, in OSC's order (``_get_columns``)
PORT_OSC_COLUMNS = (
    "admin_state_up",
    "allowed_address_pairs",
    "binding_host_id",
    "binding_profile",
    "binding_vif_details",
    "binding_vif_type",
    "binding_vnic_type",
    "created_at",
    "data_plane_status",
    "description",
    "device_id",
    "device_owner",
    "device_profile",
    "dns_assignment",
    "dns_domain",
    "dns_name",
    "extra_dhcp_opts",
    "fixed_ips",
    "hardware_offload_type",
    "hints",
    "id",
    "ip_allocation",
    "mac_address",
    "name",
    "network_id",
    "numa_affinity_policy",
    "port_security_enabled",
    "project_id",
    "propagate_uplink_status",
    "pvlan_type",
    "pvlan_community",
    "resource_request",
    "revision_number",
    "qos_network_policy_id",
    "qos_policy_id",
    "security_group_ids",
    "status",
    "tags",
    "trunk_details",
    "trusted",
    "updated_at",
)
#: OSC's ``_formatters`` (osc-lib's Dict/ListDict/List columns: {} and []
#: where Neutron gives none)
_PORT_FORMATTERS = {
    "admin_state_up": StateColumn,
    "allowed_address_pairs": columns.ListDictColumn,
    "binding_profile": columns.DictColumn,
    "binding_vif_details": columns.DictColumn,
    "dns_assignment": columns.ListDictColumn,
    "extra_dhcp_opts": columns.ListDictColumn,
    "fixed_ips": FixedIPsColumn,
    "security_group_ids": columns.ListColumn,
    "tags": columns.ListColumn,
}


def show_port(args, port):
    """A port as OSC shows it: OSC's names, columns and order; ``hints``
    an empty string where Neutron has none (openstacksdk's Port lacks the
    field, so OSC prints osc-lib's default)."""
    info = columns.osc_fields(port, PORT_OSC_NAMES)
    info.setdefault("hints", "")
    shown = columns.show(info, PORT_OSC_COLUMNS, formatters=_PORT_FORMATTERS)
    return columns.with_raw_keys(args, shown, PORT_OSC_NAMES)


def _network_attributes(args):
    """The Neutron attributes ``network create``/``set`` options give."""
    attributes = {
        "name": getattr(args, "name", None),
        "description": args.description,
        "admin_state_up": args.admin_state,
        "shared": args.share,
        "mtu": args.mtu,
        "port_security_enabled": args.port_security,
        "router:external": args.external,
        "is_default": args.default,
        "provider:network_type": args.provider_network_type,
        "provider:physical_network": args.provider_physical_network,
        "provider:segmentation_id": args.provider_segment,
        "dns_domain": args.dns_domain,
    }
    return {k: v for k, v in attributes.items() if v is not None}


def _network_options(func):
    """The options ``network create`` and ``network set`` share (OSC's)."""
    decorators = [
        options.switch("admin_state", "--enable", "--disable", "Enable the network (default).",
                       "Disable the network."),
        options.switch("share", "--share", "--no-share", "Share the network between projects.",
                       "Do not share the network."),
        utils.arg("--description", metavar="<description>", help="Description."),
        utils.arg("--mtu", metavar="<mtu>", type=int, help="Maximum transmission unit."),
        options.switch("port_security", "--enable-port-security", "--disable-port-security",
                       "Enable port security on the network's new ports.",
                       "Disable port security on the network's new ports."),
        options.switch("external", "--external", "--internal",
                       "External network, holding floating IPs (admin).",
                       "Internal network (the default)."),
        options.switch("default", "--default", "--no-default",
                       "The default external network (with --external).",
                       "Not the default external network."),
        utils.arg("--provider-network-type", metavar="<type>",
                  help="Physical mechanism: flat, vlan, vxlan, geneve, … (admin)."),
        utils.arg("--provider-physical-network", metavar="<name>",
                  help="Physical network the network is built on (admin)."),
        utils.arg("--provider-segment", metavar="<id>", type=int,
                  help="VLAN ID or tunnel ID of the network (admin)."),
        utils.arg("--dns-domain", metavar="<dns-domain>", help="DNS domain of the network."),
    ]  # fmt: skip
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


@utils.arg("name", metavar="<name>", help="Name of the new network.")
@_network_options
@utils.arg("--project", metavar="<project-id>", help="Owner's project (admin).")
@utils.arg(
    "--availability-zone-hint",
    dest="availability_zone_hints",
    action="append",
    metavar="<availability-zone>",
    help="Availability zone to place the network in (repeat for several).",
)
@options.tags("network", "create")
@utils.output("show")
def do_network_create(client, args):
    """Create a network.

    Example: occli network create --description "web tier" web-net
    """
    attributes = _network_attributes(args)
    for key, value in (
        ("project_id", args.project),
        ("availability_zone_hints", args.availability_zone_hints),
    ):
        if value is not None:
            attributes[key] = value
    name = attributes.pop("name")
    network = client.networks.create(name, **attributes)
    options.apply_tags(client.networks, network, args, "create")
    return columns.show(network)


@utils.arg("network", metavar="<network>", help="Network to change (name or ID).")
@utils.arg("--name", metavar="<name>", help="New name.")
@_network_options
@options.tags("network", "set")
def do_network_set(client, args):
    """Change a network.

    Example: occli network set --name web --mtu 1400 web-net
    """
    attributes = _network_attributes(args)
    if not attributes and not options.tags_given(args, "set"):
        raise exceptions.ValidationError(
            "Nothing to set: give --name, --description, --enable, --share, --mtu, --tag, …"
        )
    network = client.networks.find_resource(args.network)
    if attributes:
        client.networks.update(network, **attributes)
    options.apply_tags(client.networks, network, args, "set")


@utils.arg("network", metavar="<network>", help="Network to change (name or ID).")
@options.tags("network", "unset")
def do_network_unset(client, args):
    """Remove a network's tags.

    Example: occli network unset --tag blue web-net
    """
    if not options.tags_given(args, "unset"):
        raise exceptions.ValidationError("Nothing to unset: give --tag or --all-tag.")
    network = client.networks.find_resource(args.network)
    options.apply_tags(client.networks, network, args, "unset")


@utils.arg("networks", nargs="+", metavar="<network>", help="Network(s) to delete (name or ID).")
def do_network_delete(client, args):
    """Delete networks.

    A network with ports other than its DHCP port cannot be deleted (409).

    Example: occli network delete web-net
    """

    def delete(ref):
        client.networks.delete(client.networks.find_resource(ref))

    return utils.for_each(args.networks, delete, "delete network")


_POOL = options.pairs("--allocation-pool", ("start", "end"))
_ROUTE = options.pairs("--host-route", ("destination", "gateway"), keys={"gateway": "nexthop"})


def _subnet_options(func):
    """The options ``subnet create`` and ``subnet set`` share (OSC's)."""
    decorators = [
        utils.arg("--description", metavar="<description>", help="Description."),
        options.switch("enable_dhcp", "--dhcp", "--no-dhcp", "Enable DHCP (the default).",
                       "Disable DHCP."),
        utils.arg("--allocation-pool", dest="allocation_pools", action="append", type=_POOL,
                  metavar="start=<ip-address>,end=<ip-address>",
                  help="Range of addresses for ports (repeat for several)."),
        utils.arg("--dns-nameserver", dest="dns_nameservers", action="append",
                  metavar="<dns-nameserver>", help="DNS server (repeat for several)."),
        utils.arg("--host-route", dest="host_routes", action="append", type=_ROUTE,
                  metavar="destination=<subnet>,gateway=<ip-address>",
                  help="Route DHCP gives the subnet's ports (repeat for several)."),
    ]  # fmt: skip
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


def _subnet_attributes(args):
    """The Neutron attributes ``subnet create``/``set`` options give;
    ``--gateway none`` is ``gateway_ip`` None (no gateway)."""
    attributes = {
        key: getattr(args, key)
        for key in (
            "name", "description", "enable_dhcp", "allocation_pools", "dns_nameservers",
            "host_routes",
        )
        if getattr(args, key, None) is not None
    }  # fmt: skip
    gateway = getattr(args, "gateway", None)
    if gateway is not None and gateway.lower() != "auto":
        attributes["gateway_ip"] = None if gateway.lower() == "none" else gateway
    return attributes


@utils.arg("name", metavar="<name>", help="Name of the new subnet.")
@utils.arg("--network", required=True, metavar="<network>", help="Network (name or ID).")
@utils.arg(
    "--subnet-range",
    metavar="<subnet-range>",
    help="Range in CIDR notation (192.168.199.0/24); needed unless --subnet-pool gives one.",
)
@utils.arg("--subnet-pool", metavar="<subnet-pool>", help="Subnet pool to take the range from.")
@utils.arg(
    "--use-default-subnet-pool",
    action="store_true",
    help="Take the range from the default subnet pool of --ip-version.",
)
@utils.arg("--prefix-length", metavar="<prefix-length>", type=int, help="Prefix from the pool.")
@utils.arg("--ip-version", type=int, default=4, choices=(4, 6), help="IP version (default 4).")
@utils.arg(
    "--gateway",
    metavar="<gateway>",
    default="auto",
    help="Gateway: <ip-address>, auto (the range's first address, the default) or none.",
)
@utils.arg("--ipv6-ra-mode", choices=("dhcpv6-stateful", "dhcpv6-stateless", "slaac"))
@utils.arg("--ipv6-address-mode", choices=("dhcpv6-stateful", "dhcpv6-stateless", "slaac"))
@_subnet_options
@options.tags("subnet", "create")
@utils.arg("--project", metavar="<project-id>", help="Owner's project (admin).")
@utils.option_names(cidr="--subnet-range", subnetpool_id="--subnet-pool")
@utils.output("show")
def do_subnet_create(client, args):
    """Create a subnet.

    Example: occli subnet create --network web-net --subnet-range 10.1.0.0/24 web-subnet
    """
    attributes = _subnet_attributes(args)
    options.not_both(args.subnet_pool, "--subnet-pool", args.use_default_subnet_pool,
                     "--use-default-subnet-pool")  # fmt: skip
    extra = {
        "use_default_subnetpool": args.use_default_subnet_pool or None,
        "prefixlen": args.prefix_length,
        "ipv6_ra_mode": args.ipv6_ra_mode,
        "ipv6_address_mode": args.ipv6_address_mode,
        "project_id": args.project,
    }
    attributes.update((k, v) for k, v in extra.items() if v is not None)
    client.subnets.check_create(
        args.subnet_range, args.ip_version, args.subnet_pool, args.use_default_subnet_pool
    )
    network = client.networks.find_resource(args.network)
    if args.subnet_pool is not None:
        attributes["subnetpool_id"] = client.subnet_pools.find_resource(args.subnet_pool).id
    subnet = client.subnets.create(
        network, cidr=args.subnet_range, ip_version=args.ip_version, **attributes
    )
    options.apply_tags(client.subnets, subnet, args, "create")
    return columns.show(subnet)


@utils.arg("subnet", metavar="<subnet>", help="Subnet to change (name or ID).")
@utils.arg("--name", metavar="<name>", help="New name.")
@utils.arg("--gateway", metavar="<gateway>", help="Gateway: <ip-address> or none.")
@_subnet_options
@utils.arg("--no-allocation-pool", action="store_true", help="Drop the current pools first.")
@utils.arg("--no-dns-nameservers", action="store_true", help="Drop the current DNS servers first.")
@utils.arg("--no-host-route", action="store_true", help="Drop the current host routes first.")
@options.tags("subnet", "set")
def do_subnet_set(client, args):
    """Change a subnet.

    The pools, DNS servers and routes given are added to the current ones
    (replacing them with the --no-… options).

    Example: occli subnet set --dns-nameserver 8.8.8.8 --no-dhcp web-subnet
    """
    if args.gateway is not None and args.gateway.lower() == "auto":
        raise exceptions.ValidationError(
            "Auto option is not available for Subnet Set. Valid options are <ip-address> or none"
        )
    attributes = _subnet_attributes(args)
    clear = {
        "allocation_pools": args.no_allocation_pool,
        "dns_nameservers": args.no_dns_nameservers,
        "host_routes": args.no_host_route,
    }
    if not attributes and not any(clear.values()) and not options.tags_given(args, "set"):
        raise exceptions.ValidationError(
            "Nothing to set: give --name, --gateway, --dhcp, --allocation-pool, "
            "--dns-nameserver, --host-route, --tag, …"
        )
    subnet = client.subnets.find_resource(args.subnet)
    for key, replace in clear.items():
        if key in attributes and not replace:
            attributes[key] = attributes[key] + list(getattr(subnet, key, None) or ())
        elif replace:
            attributes.setdefault(key, [])
    if attributes:
        client.subnets.update(subnet, **attributes)
    options.apply_tags(client.subnets, subnet, args, "set")


@utils.arg("subnet", metavar="<subnet>", help="Subnet to change (name or ID).")
@utils.arg(
    "--allocation-pool",
    dest="allocation_pools",
    action="append",
    type=_POOL,
    metavar="start=<ip-address>,end=<ip-address>",
    help="Pool to remove (repeat for several).",
)
@utils.arg("--gateway", action="store_true", help="Remove the gateway IP.")
@utils.arg(
    "--dns-nameserver",
    dest="dns_nameservers",
    action="append",
    metavar="<dns-nameserver>",
    help="DNS server to remove (repeat for several).",
)
@utils.arg(
    "--host-route",
    dest="host_routes",
    action="append",
    type=_ROUTE,
    metavar="destination=<subnet>,gateway=<ip-address>",
    help="Route to remove (repeat for several).",
)
@options.tags("subnet", "unset")
def do_subnet_unset(client, args):
    """Remove a subnet's gateway, pools, DNS servers, host routes or tags.

    Example: occli subnet unset --dns-nameserver 8.8.8.8 web-subnet
    """
    removed = {
        "dns_nameservers": ("dns-nameserver", args.dns_nameservers),
        "host_routes": ("host-route", args.host_routes),
        "allocation_pools": ("allocation-pool", args.allocation_pools),
    }
    given = args.gateway or any(items for _, items in removed.values())
    if not given and not options.tags_given(args, "unset"):
        raise exceptions.ValidationError(
            "Nothing to unset: give --gateway, --allocation-pool, --dns-nameserver, "
            "--host-route or --tag."
        )
    subnet = client.subnets.find_resource(args.subnet)
    attributes = {"gateway_ip": None} if args.gateway else {}
    for key, (option, items) in removed.items():
        if items:
            attributes[key] = options.without(getattr(subnet, key, None), items, "Subnet", option)
    if attributes:
        client.subnets.update(subnet, **attributes)
    options.apply_tags(client.subnets, subnet, args, "unset")


@utils.arg("subnets", nargs="+", metavar="<subnet>", help="Subnet(s) to delete (name or ID).")
def do_subnet_delete(client, args):
    """Delete subnets.

    A subnet with ports in use, or on a router, cannot be deleted (409).

    Example: occli subnet delete web-subnet
    """

    def delete(ref):
        client.subnets.delete(client.subnets.find_resource(ref))

    return utils.for_each(args.subnets, delete, "delete subnet")
