"""Router commands (Neutron): ``occli router …``, with OpenStackClient's
names, options and columns: a router joins subnets (``router add subnet``
or ``port``) and reaches an external network through its gateway
(``--external-gateway``), where floating IPs come from."""

from cliff import columns as cliff_columns

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.network import routers
from occli.v2.network.commands import options
from occli.v2.network.commands.networks import StateColumn

_ROUTE = options.pairs("--route", ("destination", "gateway"), keys={"gateway": "nexthop"})
_FIXED_IP = options.pairs(
    "--fixed-ip",
    (),
    ("subnet", "ip-address"),
    keys={"subnet": "subnet_id", "ip-address": "ip_address"},
)
_ROUTER_ARG = dict(metavar="<router>", help="Router (name or ID).")


class RoutesColumn(cliff_columns.FormattableColumn):
    """A router's ``routes``: ``destination='…', gateway='…'`` lines, as
    OSC shows them (``gateway`` for Neutron's ``nexthop``); the list in JSON."""

    def human_readable(self):
        return "\n".join(
            "destination='%s', gateway='%s'" % (r.get("destination"), r.get("nexthop"))
            for r in self._value or ()
        )

    def machine_readable(self):
        return list(self._value or ())


class GatewayColumn(cliff_columns.FormattableColumn):
    """``external_gateway_info`` as JSON text, ``null`` for none (OSC's
    ``RouterInfoColumn``)."""

    def human_readable(self):
        import json

        return json.dumps(self._value)

    def machine_readable(self):
        return self._value


class InterfacesColumn(cliff_columns.FormattableColumn):
    """``interfaces_info`` as one line of JSON text (as OSC shows it)."""

    def human_readable(self):
        import json

        return json.dumps(self._value)

    def machine_readable(self):
        return self._value


_FORMATTERS = {
    "admin_state_up": StateColumn,
    "external_gateway_info": GatewayColumn,
    "interfaces_info": InterfacesColumn,
    "routes": RoutesColumn,
}


def _show(router):
    return columns.show(router, formatters=_FORMATTERS)


def _router_options(func):
    """The options ``router create`` and ``router set`` share (OSC's)."""
    decorators = [
        options.switch("admin_state", "--enable", "--disable", "Enable the router (default).",
                       "Disable the router."),
        options.switch("distributed", "--distributed", "--centralized",
                       "A distributed router (admin).", "A centralized router (admin)."),
        options.switch("ha", "--ha", "--no-ha", "A highly available router (admin).",
                       "A legacy router (admin)."),
        utils.arg("--description", metavar="<description>", help="Description."),
        utils.arg("--external-gateway", metavar="<network>",
                  help="External network of the router's gateway (name or ID)."),
        utils.arg("--fixed-ip", dest="fixed_ips", action="append", type=_FIXED_IP,
                  metavar="subnet=<subnet>,ip-address=<ip-address>",
                  help="Gateway address on the external network (with --external-gateway)."),
        options.switch("enable_snat", "--enable-snat", "--disable-snat",
                       "SNAT on the gateway (with --external-gateway).",
                       "No SNAT on the gateway (with --external-gateway)."),
    ]  # fmt: skip
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


def _router_attributes(args, updating=False):
    """The Neutron attributes of ``router create``/``set`` options, the
    gateway checked (before any request) and its network and subnets
    resolved."""
    routers.gateway_info(
        "-" if args.external_gateway else None, args.enable_snat, args.fixed_ips, updating
    )
    attributes = {
        "name": getattr(args, "name", None),
        "description": args.description,
        "admin_state_up": args.admin_state,
        "distributed": args.distributed,
        "ha": args.ha,
    }
    return {k: v for k, v in attributes.items() if v is not None}


def _gateway(client, args):
    """The ``external_gateway_info`` the options give: the network and the
    fixed IPs' subnets resolved (one request each), or None."""
    if not args.external_gateway:
        return None
    network = client.networks.find_resource(args.external_gateway)
    fixed_ips = [dict(ip) for ip in args.fixed_ips or ()]
    subnets = client.subnets.find_many(ip["subnet_id"] for ip in fixed_ips if "subnet_id" in ip)
    for ip in fixed_ips:
        if "subnet_id" in ip:
            ip["subnet_id"] = subnets[ip["subnet_id"]].id
    return routers.gateway_info(network, args.enable_snat, fixed_ips)


@utils.arg("name", metavar="<name>", help="Name of the new router.")
@_router_options
@utils.arg("--project", metavar="<project-id>", help="Owner's project (admin).")
@utils.arg(
    "--availability-zone-hint",
    dest="availability_zone_hints",
    action="append",
    metavar="<availability-zone>",
    help="Availability zone to place the router in (repeat for several).",
)
@options.tags("router", "create")
@utils.option_names(external_gateway="--external-gateway")
@utils.output("show")
def do_router_create(client, args):
    """Create a router.

    Example: occli router create --external-gateway public router2
    """
    attributes = _router_attributes(args)
    for key, value in (
        ("project_id", args.project),
        ("availability_zone_hints", args.availability_zone_hints),
    ):
        if value is not None:
            attributes[key] = value
    gateway = _gateway(client, args)
    if gateway is not None:
        attributes["external_gateway_info"] = gateway
    router = client.routers.create(attributes.pop("name"), **attributes)
    options.apply_tags(client.routers, router, args, "create")
    return _show(router)


@utils.arg("router", **_ROUTER_ARG)
@utils.arg("--name", metavar="<name>", help="New name.")
@_router_options
@utils.arg(
    "--route",
    dest="routes",
    action="append",
    type=_ROUTE,
    metavar="destination=<subnet>,gateway=<ip-address>",
    help="Static route to add (repeat for several).",
)
@utils.arg("--no-route", action="store_true", help="Drop the current routes first.")
@options.tags("router", "set")
@utils.option_names(external_gateway="--external-gateway")
def do_router_set(client, args):
    """Change a router.

    The routes given are added to the current ones (replacing them with
    --no-route); --external-gateway sets its gateway.

    Example: occli router set --external-gateway public --disable-snat router1
    """
    attributes = _router_attributes(args, updating=True)
    changed = attributes or args.routes or args.no_route or args.external_gateway
    if not changed and not options.tags_given(args, "set"):
        raise exceptions.ValidationError(
            "Nothing to set: give --name, --external-gateway, --route, --enable, --tag, …"
        )
    router = client.routers.find_resource(args.router)
    if args.routes or args.no_route:
        current = [] if args.no_route else list(getattr(router, "routes", None) or ())
        attributes["routes"] = list(args.routes or ()) + current
    gateway = _gateway(client, args)
    if gateway is not None:
        attributes["external_gateway_info"] = gateway
    if attributes:
        client.routers.update(router, **attributes)
    options.apply_tags(client.routers, router, args, "set")


@utils.arg("router", **_ROUTER_ARG)
@utils.arg(
    "--route",
    dest="routes",
    action="append",
    type=_ROUTE,
    metavar="destination=<subnet>,gateway=<ip-address>",
    help="Static route to remove (repeat for several).",
)
@utils.arg(
    "--external-gateway",
    action="store_true",
    help="Remove the router's gateway (its floating IPs must go first).",
)
@options.tags("router", "unset")
def do_router_unset(client, args):
    """Remove a router's routes, gateway or tags.

    Example: occli router unset --external-gateway router1
    """
    if not args.routes and not args.external_gateway and not options.tags_given(args, "unset"):
        raise exceptions.ValidationError(
            "Nothing to unset: give --route, --external-gateway or --tag."
        )
    router = client.routers.find_resource(args.router)
    attributes = {}
    if args.routes:
        attributes["routes"] = options.without(router.routes, args.routes, "Router", "route")
    if args.external_gateway:
        attributes["external_gateway_info"] = {}
    if attributes:
        client.routers.update(router, **attributes)
    options.apply_tags(client.routers, router, args, "unset")


@utils.arg("routers", nargs="+", metavar="<router>", help="Router(s) to delete (name or ID).")
def do_router_delete(client, args):
    """Delete routers.

    A router with interfaces cannot be deleted (409): remove its subnets
    and ports first.

    Example: occli router delete router2
    """

    def delete(ref):
        client.routers.delete(client.routers.find_resource(ref))

    return utils.for_each(args.routers, delete, "delete router")


@utils.arg("--name", metavar="<name>", help="Only the routers of this exact name.")
@options.switch(
    "admin_state", "--enable", "--disable", "Only enabled routers.", "Only disabled routers."
)
@utils.arg("--project", metavar="<project-id>", help="Only the routers of this project.")
@utils.arg("--long", action="store_true", help="Also list routes, gateway, zones and tags.")
@options.tag_filters("routers")
@utils.output("list")
def do_router_list(client, args):
    """List routers.

    Example: occli router list --long
    """
    found = list(
        client.routers.iter(
            name=args.name,
            admin_state_up=args.admin_state,
            project_id=args.project,
            **options.tag_filter_values(args),
        )
    )
    cols = ["id", "name", "status", "admin_state_up", "project_id"]
    headers = ["ID", "Name", "Status", "State", "Project"]
    for key, header in (("distributed", "Distributed"), ("ha", "HA")):
        if any(getattr(r, key, None) is not None for r in found):
            cols.append(key)
            headers.append(header)
    if args.long:
        cols += ["routes", "external_gateway_info", "availability_zones", "tags"]
        headers += ["Routes", "External gateway info", "Availability zones", "Tags"]
    return columns.table(found, cols, headers, formatters=_FORMATTERS)


@utils.arg("router", **_ROUTER_ARG)
@utils.output("show")
def do_router_show(client, args):
    """Show a router.

    OSC adds 'interfaces_info': the router's ports but its gateway, one
    entry per fixed IP (openstackclient/network/v2/router.py ShowRouter).

    Example: occli router show router1
    """
    router = client.routers.find_resource(args.router)
    interfaces = [
        {"port_id": port.id, "ip_address": ip.get("ip_address"), "subnet_id": ip.get("subnet_id")}
        for port in client.ports.list(device_id=router.id)
        if port.device_owner != "network:router_gateway"
        for ip in port.fixed_ips
    ]
    info = columns.osc_fields(
        dict(router.to_dict(), interfaces_info=interfaces),
        ROUTER_OSC_NAMES,
        ("enable_ndp_proxy",),  # openstacksdk's Router, which OSC prints
    )
    return columns.with_raw_keys(args, _show(info), ROUTER_OSC_NAMES)


#: Neutron's keys under OSC's names (``-c`` still takes Neutron's)
ROUTER_OSC_NAMES = {"tenant_id": "project_id"}


@utils.arg("router", **_ROUTER_ARG)
@utils.arg("subnet", metavar="<subnet>", help="Subnet to add (name or ID).")
def do_router_add_subnet(client, args):
    """Add a subnet to a router.

    Neutron gives the router the subnet's gateway address.

    Example: occli router add subnet router1 private-subnet
    """
    router = client.routers.find_resource(args.router)
    client.routers.add_interface(router, subnet=client.subnets.find_resource(args.subnet))


@utils.arg("router", **_ROUTER_ARG)
@utils.arg("subnet", metavar="<subnet>", help="Subnet to remove (name or ID).")
def do_router_remove_subnet(client, args):
    """Remove a subnet from a router (refused while floating IPs use it).

    Example: occli router remove subnet router1 private-subnet
    """
    router = client.routers.find_resource(args.router)
    client.routers.remove_interface(router, subnet=client.subnets.find_resource(args.subnet))


@utils.arg("router", **_ROUTER_ARG)
@utils.arg("port", metavar="<port>", help="Port to add (name or ID).")
def do_router_add_port(client, args):
    """Add a port to a router (the port's fixed IP becomes an interface).

    Example: occli router add port router1 p1
    """
    router = client.routers.find_resource(args.router)
    client.routers.add_interface(router, port=client.ports.find_resource(args.port))


@utils.arg("router", **_ROUTER_ARG)
@utils.arg("port", metavar="<port>", help="Port to remove (name or ID).")
def do_router_remove_port(client, args):
    """Remove a port from a router.

    Example: occli router remove port router1 p1
    """
    router = client.routers.find_resource(args.router)
    client.routers.remove_interface(router, port=client.ports.find_resource(args.port))


_ROUTES_ARG = dict(
    dest="routes",
    action="append",
    default=[],
    type=_ROUTE,
    metavar="destination=<subnet>,gateway=<ip-address>",
)


@utils.arg("router", **_ROUTER_ARG)
@utils.arg("--route", help="Static route to add (repeat for several).", **_ROUTES_ARG)
@utils.output("show")
def do_router_add_route(client, args):
    """Add static routes to a router, atomically.

    A route already there is kept.

    Example: occli router add route --route destination=10.8.0.0/16,gateway=10.0.0.9 router1
    """
    router = client.routers.find_resource(args.router)
    return _show(client.routers.add_routes(router, args.routes))


@utils.arg("router", **_ROUTER_ARG)
@utils.arg("--route", help="Static route to remove (repeat for several).", **_ROUTES_ARG)
@utils.output("show")
def do_router_remove_route(client, args):
    """Remove static routes from a router, atomically.

    A route not there is ignored.

    Example: occli router remove route --route destination=10.8.0.0/16,gateway=10.0.0.9 router1
    """
    router = client.routers.find_resource(args.router)
    return _show(client.routers.remove_routes(router, args.routes))
