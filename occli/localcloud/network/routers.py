"""Routers (neutron's ``router``, ``extraroute``, ``ext-gw-mode``,
``dvr`` and ``l3-ha`` extensions): an external gateway port on an
external network, interface ports (``network:router_interface``) on
tenant subnets, extra routes; what floating IPs need to reach a port.

Neutron's rules and texts: ``neutron/db/l3_db.py``,
``neutron/db/extraroute_db.py``, ``neutron_lib/exceptions/l3.py``.
"""

import ipaddress
import json
import sqlite3
from typing import Any

from occli.localcloud import common as clock
from occli.localcloud import errors
from occli.localcloud.common import Asker
from occli.localcloud.network import attributes as attrs
from occli.localcloud.network import availability_zones
from occli.localcloud.network import common
from occli.localcloud.network import networks
from occli.localcloud.network import ports
from occli.localcloud.network import quotas
from occli.localcloud.network import subnets

INTERFACE = "network:router_interface"
GATEWAY = "network:router_gateway"

ATTRIBUTES = (
    "admin_state_up",
    "created_at",
    "description",
    "distributed",
    "external_gateway_info",
    "ha",
    "id",
    "name",
    "project_id",
    "revision_number",
    "routes",
    "status",
    "tags",
    "tenant_id",
    "updated_at",
)
SORT_KEYS = (
    "admin_state_up",
    "created_at",
    "id",
    "name",
    "project_id",
    "revision_number",
    "status",
    "tenant_id",
    "updated_at",
)


def _gateway_info(attr, value):
    """``type:dict_or_nodata``: ``network_id`` required, ``enable_snat``
    and ``external_fixed_ips`` optional."""
    if value is None or value == {}:
        return None
    if not isinstance(value, dict):
        raise attrs.bad_request(
            "Invalid input for %s. Reason: '%s' is not a dictionary." % (attr, value)
        )
    unknown = sorted(set(value) - {"network_id", "enable_snat", "external_fixed_ips"})
    if unknown:
        raise attrs.bad_request(
            "Invalid input for %s. Reason: Unexpected keys supplied: %s."
            % (attr, ", ".join(unknown))
        )
    if "network_id" not in value:
        raise attrs.bad_request(
            "Invalid input for %s. Reason: Validation of dictionary's keys failed. Expected "
            "keys: {'network_id'} Provided keys: %s." % (attr, set(value) or "set()")
        )
    checked = {"network_id": attrs.uuid(attr, value["network_id"])}
    if "enable_snat" in value:
        checked["enable_snat"] = attrs.boolean(attr, value["enable_snat"])
    if "external_fixed_ips" in value:
        checked["external_fixed_ips"] = attrs.fixed_ips(attr, value["external_fixed_ips"])
    return checked


def _routes(attr, value):
    """``type:hostroutes``: a list of ``{"destination": cidr, "nexthop": ip}``."""
    if not isinstance(value, list):
        raise attrs.bad_request(
            "Invalid input for %s. Reason: '%s' is not a list." % (attr, value)
        )
    checked = []
    for route in value:
        if not isinstance(route, dict) or set(route) != {"destination", "nexthop"}:
            raise attrs.bad_request(
                "Invalid input for %s. Reason: Invalid data format for hostroute: '%s'."
                % (attr, route)
            )
        destination = attrs.cidr(attr, route["destination"])
        checked.append(
            {"destination": destination, "nexthop": attrs.ip_address(attr, route["nexthop"])}
        )
    return checked


SPEC = {
    "name": attrs.Attr(attrs.string(), default=""),
    "description": attrs.Attr(attrs.string(attrs.DESCRIPTION_MAX_LEN), default=""),
    "admin_state_up": attrs.Attr(attrs.boolean, default=True),
    "external_gateway_info": attrs.Attr(_gateway_info, default=None),
    "routes": attrs.Attr(_routes, post=False, default=None),
    "distributed": attrs.Attr(attrs.boolean, default=False),
    "ha": attrs.Attr(attrs.boolean, default=False),
    # router_availability_zone: the zone is the local cloud's one
    "availability_zone_hints": attrs.Attr(availability_zones.hints, put=False, default=list),
    # set through /tags only (tagging.py: allow_post, allow_put False)
    "tags": attrs.Attr(attrs.anything, post=False, put=False),
}
# what neutron's policy leaves to admins (``rule:<action>_router:<attr>``)
_ADMIN_ONLY = ("distributed", "ha")


def not_found(router_id):
    return errors.NotFound("Router %s could not be found" % router_id, type="RouterNotFound")


def _bad(message):
    return errors.BadRequest("Bad router request: %s." % message, type="BadRequest")


def row(db: sqlite3.Connection, router_id: str) -> sqlite3.Row | None:
    return db.execute("SELECT * FROM network_routers WHERE id = ?", (router_id,)).fetchone()


def get(db, context, router_id):
    """The router ``context`` owns (or any, for an admin); RouterNotFound
    otherwise: neutron hides another project's routers."""
    found = row(db, router_id)
    if found is None or not common.owns(context, found):
        raise not_found(router_id)
    return found


def _ports(db, router_id, owner):
    return db.execute(
        "SELECT * FROM network_ports WHERE device_id = ? AND device_owner = ? ORDER BY seq",
        (router_id, owner),
    ).fetchall()


def view(db, context, router):
    gateway = None
    if router["gw_network_id"]:
        gw_ips = [
            ip
            for port in _ports(db, router["id"], GATEWAY)
            for ip in ports.fixed_ips(db, port["id"])
        ]
        gateway = {
            "network_id": router["gw_network_id"],
            "enable_snat": bool(router["enable_snat"]),
            "external_fixed_ips": [
                {"subnet_id": ip["subnet_id"], "ip_address": ip["ip_address"]} for ip in gw_ips
            ],
        }
    body = common.standard(
        router,
        {
            "name": router["name"],
            "admin_state_up": bool(router["admin_state_up"]),
            "status": router["status"],
            "external_gateway_info": gateway,
            "routes": json.loads(router["routes"]),
            "availability_zone_hints": json.loads(router["availability_zone_hints"]),
            "availability_zones": [availability_zones.ZONE],
            # the L3 plugin's l3-flavors (no flavors here: always null)
            "flavor_id": None,
        },
    )
    if context.is_admin:
        body["distributed"] = bool(router["distributed"])
        body["ha"] = bool(router["ha"])
    return body


def listing(db, context):
    return [
        view(db, context, r)
        for r in db.execute("SELECT * FROM network_routers ORDER BY seq")
        if common.owns(context, r)
    ]


def show(db, context, router_id):
    return view(db, context, get(db, context, router_id))


def _check_policy(context, values, action):
    """Neutron's admin-only attributes: ``distributed``, ``ha``, and the
    gateway's ``enable_snat`` and ``external_fixed_ips``."""
    if context.is_admin:
        return
    for key in _ADMIN_ONLY:
        if key in values and (action == "update" or values[key]):
            raise common.policy_denied(
                "(rule:%s_router and rule:%s_router:%s)" % (action, action, key)
            )
    gateway = values.get("external_gateway_info") or {}
    if any(key in gateway for key in ("enable_snat", "external_fixed_ips")):
        # neutron's rule of a dict attribute: one sub-rule per key given
        # (neutron-29-routers.json)
        base = "rule:%s_router:external_gateway_info" % action
        keys = [k for k in gateway if k in ("network_id", "enable_snat", "external_fixed_ips")]
        raise common.policy_denied(
            "(rule:%s_router and (%s and (%s)))"
            % (action, base, " and ".join("%s:%s" % (base, k) for k in keys))
        )


def insert(
    db: sqlite3.Connection, project_id: str, name: str, router_id: str | None = None
) -> str:
    """Insert a router without gateway nor interfaces (seed and create);
    returns its id."""
    router_id = router_id or clock.new_uuid()
    stamp = common.now()
    db.execute(
        "INSERT INTO network_routers (id, project_id, name, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (router_id, project_id, name, stamp, stamp),
    )
    return router_id


def create(db, context, body):
    values = attrs.parse(body, "router", SPEC, create=True)
    project = common.check_project(context, values, "create_router")
    _check_policy(context, values, "create")
    availability_zones.check_hints(values["availability_zone_hints"])
    quotas.check(db, project, "router")
    router_id = insert(db, project, values["name"])
    db.execute(
        "UPDATE network_routers SET description = ?, admin_state_up = ?, distributed = ?,"
        " ha = ?, availability_zone_hints = ? WHERE id = ?",
        (
            values["description"],
            int(values["admin_state_up"]),
            int(values["distributed"]),
            int(values["ha"]),
            json.dumps(values["availability_zone_hints"]),
            router_id,
        ),
    )
    if values["external_gateway_info"] is not None:
        set_gateway(db, context, router_id, values["external_gateway_info"])
    return show(db, context, router_id)


def update(db, context, router_id, body):
    values = attrs.parse(body, "router", SPEC, create=False)
    router = get(db, context, router_id)
    _check_policy(context, values, "update")
    for key in ("name", "description", "admin_state_up", "distributed", "ha"):
        if key in values:
            value = values[key]
            db.execute(
                "UPDATE network_routers SET %s = ? WHERE id = ?" % key,
                (int(value) if isinstance(value, bool) else value, router_id),
            )
    if "external_gateway_info" in values:
        info = values["external_gateway_info"]
        if info is None:
            clear_gateway(db, router)
        else:
            set_gateway(db, context, router_id, info)
    if "routes" in values:
        _check_routes(db, router_id, values["routes"])
        db.execute(
            "UPDATE network_routers SET routes = ? WHERE id = ?",
            (json.dumps(values["routes"]), router_id),
        )
    common.bump(db, "network_routers", router_id)
    return show(db, context, router_id)


def delete(db, context, router_id):
    router = get(db, context, router_id)
    # by port id, the order of neutron's routerports key (router, port)
    attached = sorted(p["id"] for p in _ports(db, router_id, INTERFACE))
    if attached:
        raise errors.Conflict(
            "Router %s has ports still attached: %s" % (router_id, ", ".join(attached)),
            type="RouterInUse",
        )
    clear_gateway(db, router)
    db.execute("DELETE FROM network_routers WHERE id = ?", (router_id,))


# -- the external gateway -----------------------------------------------------------------


def set_gateway(
    db: sqlite3.Connection, context: Asker, router_id: str, info: dict[str, Any]
) -> None:
    """Set (or move) the router's gateway to ``info["network_id"]``: a
    ``network:router_gateway`` port on it (neutron's ``_update_router_gw_info``)."""
    router = existing(db, router_id)
    network = networks.get(db, context, info["network_id"])
    if not network["external"]:
        raise _bad("Network %s is not an external network" % network["id"])
    fixed = info.get("external_fixed_ips")
    if router["gw_network_id"] != network["id"] or fixed is not None:
        clear_gateway(db, router, keep=network["id"])
        if not _ports(db, router_id, GATEWAY):
            ports.insert(
                db,
                context,
                network,
                "",
                {"device_id": router_id, "device_owner": GATEWAY, "fixed_ips": fixed or None},
            )
    db.execute(
        "UPDATE network_routers SET gw_network_id = ?, enable_snat = ? WHERE id = ?",
        (network["id"], int(info.get("enable_snat", True)), router_id),
    )


def clear_gateway(db: sqlite3.Connection, router: sqlite3.Row, keep: str | None = None) -> None:
    """Remove the router's gateway port; refused (409) while floating IPs
    on its external network go through the router, unless it stays on
    ``keep`` (the same network)."""
    if not router["gw_network_id"]:
        return
    if router["gw_network_id"] != keep:
        used = db.execute(
            "SELECT 1 FROM network_floating_ips WHERE router_id = ?", (router["id"],)
        ).fetchone()
        if used is not None:
            raise errors.Conflict(
                "Gateway cannot be updated for router %s, since a gateway to external network "
                "%s is required by one or more floating IPs."
                % (router["id"], router["gw_network_id"]),
                type="RouterExternalGatewayInUseByFloatingIp",
            )
    for port in _ports(db, router["id"], GATEWAY):
        ports.remove(db, port["id"])
    db.execute("UPDATE network_routers SET gw_network_id = NULL WHERE id = ?", (router["id"],))


def existing(db: sqlite3.Connection, router_id: str) -> sqlite3.Row:
    found = row(db, router_id)
    if found is None:
        raise LookupError("no router %s" % router_id)
    return found


# -- interfaces -----------------------------------------------------------------------------


def _interface_subnets(db, router_id):
    """The subnet rows the router's interface ports have addresses on."""
    return db.execute(
        "SELECT s.*, i.port_id AS port_id FROM network_subnets s"
        " JOIN network_port_ips i ON i.subnet_id = s.id"
        " JOIN network_ports p ON p.id = i.port_id"
        " WHERE p.device_id = ? AND p.device_owner = ? ORDER BY p.seq",
        (router_id, INTERFACE),
    ).fetchall()


def _interface_info(body):
    """``(port_id, subnet_id)`` of an add/remove body (neutron's
    ``_validate_interface_info``)."""
    if not isinstance(body, dict) or not ({"port_id", "subnet_id"} & set(body)):
        raise _bad("Either subnet_id or port_id must be specified")
    for key in ("port_id", "subnet_id"):
        if key in body and not attrs.is_uuid(body[key]):
            raise _bad("'%s' is not a valid UUID" % (body[key],))
    return body.get("port_id"), body.get("subnet_id")


def _check_new_subnets(db, router_id, new):
    """Neutron's ``_check_for_dup_router_subnets``: one port per subnet,
    no overlapping CIDRs among the router's subnets."""
    for subnet in new:
        for other in _interface_subnets(db, router_id):
            if other["id"] == subnet["id"]:
                raise _bad("Router already has a port on subnet %s" % subnet["id"])
            if ipaddress.ip_network(other["cidr"]).overlaps(ipaddress.ip_network(subnet["cidr"])):
                raise _bad(
                    "Cidr %s of subnet %s overlaps with cidr %s of subnet %s"
                    % (subnet["cidr"], subnet["id"], other["cidr"], other["id"])
                )


def _answer(db, router_id, port):
    """Neutron's ``_make_router_interface_info`` of the interface ``port``."""
    subnet_ids = [ip["subnet_id"] for ip in ports.fixed_ips(db, port["id"])]
    return {
        "id": router_id,
        "project_id": port["project_id"],
        "port_id": port["id"],
        "network_id": port["network_id"],
        "subnet_id": subnet_ids[0] if subnet_ids else None,
        "subnet_ids": subnet_ids,
    }


def add_interface(db, context, router_id, body):
    router = get(db, context, router_id)
    port_id, subnet_id = _interface_info(body)
    if port_id is not None and subnet_id is not None:
        raise _bad("Cannot specify both subnet-id and port-id")
    if port_id is not None:
        port = ports.get(db, context, port_id)
        if port["device_id"] or port["device_owner"]:
            raise errors.Conflict(
                "Unable to complete operation on port %s for network %s. Port already has an "
                "attached device %s." % (port_id, port["network_id"], port["device_id"]),
                type="PortInUse",
            )
        ips = ports.fixed_ips(db, port_id)
        if not ips:
            raise _bad("Router port must have at least one fixed IP")
        new = [subnets.get(db, context, ip["subnet_id"]) for ip in ips]
        _check_new_subnets(db, router_id, new)
        db.execute(
            "UPDATE network_ports SET device_id = ?, device_owner = ?, status = 'ACTIVE'"
            " WHERE id = ?",
            (router_id, INTERFACE, port_id),
        )
        common.bump(db, "network_ports", port_id)
    else:
        subnet = subnets.get(db, context, subnet_id)
        if not subnet["gateway_ip"]:
            raise _bad("Subnet for router interface must have a gateway IP")
        # a globally shared network's subnet is its owner's to route (no RBAC here)
        if subnet["project_id"] != context.project_id and not context.is_admin:
            raise _bad(
                "Cannot add interface to router because subnet %s is not owned by project "
                "making the request" % subnet["id"]
            )
        _check_new_subnets(db, router_id, [subnet])
        port_id = _gateway_port(db, context, router, subnet)
    common.bump(db, "network_routers", router["id"])
    return _answer(db, router_id, ports.get(db, context, port_id))


def _gateway_port(db, context, router, subnet):
    """The interface port (the router's project's) holding ``subnet``'s
    gateway address, which no other port may take (the IPAM keeps it out
    of the pools)."""
    address = subnet["gateway_ip"]
    taken = db.execute(
        "SELECT 1 FROM network_port_ips WHERE subnet_id = ? AND ip_address = ?",
        (subnet["id"], address),
    ).fetchone()
    if taken is not None:
        raise errors.Conflict(
            "IP address %s already allocated in subnet %s" % (address, subnet["id"]),
            type="IpAddressAlreadyAllocated",
        )
    port_id = ports.insert(
        db,
        context,
        networks.existing(db, subnet["network_id"]),
        router["project_id"],
        {
            "device_id": router["id"],
            "device_owner": INTERFACE,
            "fixed_ips": [],
            "binding:host_id": "host1",
        },
    )
    db.execute(
        "INSERT INTO network_port_ips (port_id, subnet_id, ip_address) VALUES (?, ?, ?)",
        (port_id, subnet["id"], address),
    )
    return port_id


def remove_interface(db, context, router_id, body):
    router = get(db, context, router_id)
    port_id, subnet_id = _interface_info(body)
    on_router = _interface_subnets(db, router_id)
    if port_id is not None:
        found = [s for s in on_router if s["port_id"] == port_id]
        if not found:
            raise errors.NotFound(
                "Router %s does not have an interface with id %s" % (router_id, port_id),
                type="RouterInterfaceNotFound",
            )
        if subnet_id is not None and subnet_id not in {s["id"] for s in found}:
            raise errors.BadRequest(
                "Subnet %s does not match with Port %s." % (subnet_id, port_id),
                type="SubnetMismatchForPort",
            )
    else:
        found = [s for s in on_router if s["id"] == subnet_id]
        if not found:
            raise errors.NotFound(
                "Router %s has no interface on subnet %s" % (router_id, subnet_id),
                type="RouterInterfaceNotFoundForSubnet",
            )
        port_id = found[0]["port_id"]
    for subnet in found:
        _check_unused(db, router_id, subnet)
    answer = _answer(db, router_id, ports.get(db, context, port_id))
    ports.remove(db, port_id)
    common.bump(db, "network_routers", router["id"])
    return answer


def _check_unused(db, router_id, subnet):
    """409 while floating IPs (their fixed address in ``subnet``) or
    extra routes (their nexthop in it) need the interface."""
    net = ipaddress.ip_network(subnet["cidr"])
    for fip in db.execute(
        "SELECT fixed_ip_address FROM network_floating_ips WHERE router_id = ?", (router_id,)
    ):
        if fip["fixed_ip_address"] and ipaddress.ip_address(fip["fixed_ip_address"]) in net:
            raise errors.Conflict(
                "Router interface for subnet %s on router %s cannot be deleted, as it is "
                "required by one or more floating IPs." % (subnet["id"], router_id),
                type="RouterInterfaceInUseByFloatingIP",
            )
    for route in json.loads(existing(db, router_id)["routes"]):
        if ipaddress.ip_address(route["nexthop"]) in net:
            raise errors.Conflict(
                "Router interface for subnet %s on router %s cannot be deleted, as it is "
                "required by one or more routes." % (subnet["id"], router_id),
                type="RouterInterfaceInUseByRoute",
            )


def _check_routes(db, router_id, routes):
    """Neutron's ``_validate_routes``: each nexthop on one of the
    router's interface subnets, and not one of the router's own addresses."""
    nets = [ipaddress.ip_network(s["cidr"]) for s in _interface_subnets(db, router_id)]
    own = {
        ip["ip_address"]
        for port in _ports(db, router_id, INTERFACE)
        for ip in ports.fixed_ips(db, port["id"])
    }
    for route in routes:
        nexthop = ipaddress.ip_address(route["nexthop"])
        if not any(nexthop in net for net in nets):
            raise errors.BadRequest(
                "Invalid format for routes: %s, the nexthop is not connected with router"
                % (route,),
                type="InvalidRoutes",
            )
        if route["nexthop"] in own:
            raise errors.BadRequest(
                "Invalid format for routes: %s, the nexthop is used by router" % (route,),
                type="InvalidRoutes",
            )


# -- floating IPs ---------------------------------------------------------------------------


def for_floating_ip(
    db: sqlite3.Connection, internal_port: sqlite3.Row, fixed_address: str, external_id: str
) -> str:
    """The router through which ``fixed_address`` of ``internal_port``
    reaches the external network ``external_id`` (neutron's
    ``_get_router_for_floatingip``: any project's router); 404 if none."""
    subnet_id = next(
        (
            ip["subnet_id"]
            for ip in ports.fixed_ips(db, internal_port["id"])
            if ip["ip_address"] == fixed_address
        ),
        None,
    )
    found = db.execute(
        "SELECT r.id FROM network_routers r"
        " JOIN network_ports p ON p.device_id = r.id AND p.device_owner = ?"
        " JOIN network_port_ips i ON i.port_id = p.id"
        " WHERE r.gw_network_id = ? AND i.subnet_id = ? ORDER BY r.seq",
        (INTERFACE, external_id, subnet_id),
    ).fetchone()
    if found is None:
        raise errors.NotFound(
            "External network %s is not reachable from subnet %s.  Therefore, cannot associate "
            "Port %s with a Floating IP." % (external_id, subnet_id, internal_port["id"]),
            type="ExternalGatewayForFloatingIPNotFound",
        )
    return found["id"]
