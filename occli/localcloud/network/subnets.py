"""Subnets: CIDRs, gateways, allocation pools, and the fixed-IP
allocation ports draw from them (neutron's IPAM)."""

import bisect
import functools
import ipaddress
import itertools
import json
import sqlite3

from occli.localcloud import common as clock
from occli.localcloud import errors
from occli.localcloud.network import attributes as attrs
from occli.localcloud.network import common
from occli.localcloud.network import networks
from occli.localcloud.network import quotas
from occli.localcloud.network import subnet_pools

ATTRIBUTES = (
    "allocation_pools",
    "cidr",
    "created_at",
    "description",
    "dns_nameservers",
    "enable_dhcp",
    "gateway_ip",
    "host_routes",
    "id",
    "ip_version",
    "ipv6_address_mode",
    "ipv6_ra_mode",
    "name",
    "network_id",
    "project_id",
    "revision_number",
    "router:external",
    "service_types",
    "subnetpool_id",
    "tags",
    "tenant_id",
    "updated_at",
)
SORT_KEYS = (
    "cidr",
    "created_at",
    "description",
    "enable_dhcp",
    "gateway_ip",
    "id",
    "ip_version",
    "name",
    "network_id",
    "project_id",
    "revision_number",
    "tenant_id",
    "updated_at",
)

# neutron-lib's IPV6_MODES
IPV6_MODES = ("dhcpv6-stateful", "dhcpv6-stateless", "slaac")

SPEC = {
    "network_id": attrs.Attr(attrs.uuid, put=False, default=attrs.REQUIRED),
    "ip_version": attrs.Attr(attrs.one_of(4, 6), put=False, default=attrs.REQUIRED),
    # absent: allocated from the subnet pool (neutron's subnet_allocation)
    "cidr": attrs.Attr(attrs.subnet_cidr, put=False, default=None),
    "subnetpool_id": attrs.Attr(attrs.uuid_or_none, put=False, default=None),
    "prefixlen": attrs.Attr(subnet_pools.non_negative, put=False, default=None),
    "use_default_subnetpool": attrs.Attr(attrs.boolean, put=False, default=False),
    "name": attrs.Attr(attrs.string(), default=""),
    "description": attrs.Attr(attrs.string(attrs.DESCRIPTION_MAX_LEN), default=""),
    # "first": neutron's default (see _default_gateway)
    "gateway_ip": attrs.Attr(attrs.ip_or_none, default="first"),
    "enable_dhcp": attrs.Attr(attrs.boolean, default=True),
    "dns_nameservers": attrs.Attr(attrs.nameservers, default=list),
    "allocation_pools": attrs.Attr(attrs.list_of(attrs.anything), put=False, default=None),
    "host_routes": attrs.Attr(attrs.host_routes, default=list),
    "ipv6_ra_mode": attrs.Attr(attrs.one_of(*IPV6_MODES, none=True), put=False, default=None),
    "ipv6_address_mode": attrs.Attr(attrs.one_of(*IPV6_MODES, none=True), put=False, default=None),
    # set through /tags only (tagging.py: allow_post, allow_put False)
    "tags": attrs.Attr(attrs.anything, post=False, put=False),
}


def not_found(subnet_id):
    return errors.NotFound("Subnet %s could not be found." % subnet_id, type="SubnetNotFound")


def exists(db: sqlite3.Connection, subnet_id: str) -> bool:
    """Whether any subnet has id ``subnet_id`` (a port's fixed IP naming a
    subnet of no network is neutron's SubnetNotFound, of another network
    its InvalidInput)."""
    found = db.execute("SELECT 1 FROM network_subnets WHERE id = ?", (subnet_id,)).fetchone()
    return found is not None


def get(db, context, subnet_id):
    """The subnet ``context`` may see (its network's visibility)."""
    found = db.execute("SELECT * FROM network_subnets WHERE id = ?", (subnet_id,)).fetchone()
    if found is None:
        raise not_found(subnet_id)
    network = networks.existing(db, found["network_id"])
    if not (common.owns(context, found) or networks.visible(context, network)):
        raise not_found(subnet_id)
    return found


def view(subnet, external):
    return common.standard(
        subnet,
        {
            "name": subnet["name"],
            "network_id": subnet["network_id"],
            "cidr": subnet["cidr"],
            "ip_version": subnet["ip_version"],
            "gateway_ip": subnet["gateway_ip"],
            "enable_dhcp": bool(subnet["enable_dhcp"]),
            "allocation_pools": json.loads(subnet["allocation_pools"]),
            "dns_nameservers": json.loads(subnet["dns_nameservers"]),
            "host_routes": json.loads(subnet["host_routes"]),
            "ipv6_address_mode": subnet["ipv6_address_mode"],
            "ipv6_ra_mode": subnet["ipv6_ra_mode"],
            "service_types": [],
            "subnetpool_id": subnet["subnetpool_id"],
            "router:external": external,
        },
    )


def listing(db, context):
    nets = {r["id"]: r for r in db.execute("SELECT * FROM network_networks")}
    return [
        view(r, bool(nets[r["network_id"]]["external"]))
        for r in db.execute("SELECT * FROM network_subnets ORDER BY seq")
        if common.owns(context, r) or networks.visible(context, nets[r["network_id"]])
    ]


def show(db, context, subnet_id):
    subnet = get(db, context, subnet_id)
    return view(subnet, bool(networks.existing(db, subnet["network_id"])["external"]))


def _default_gateway(net):
    """ipam_backend_mixin's ``_gateway_ip_str``: an IPv4 CIDR's first host,
    an IPv6 one's own address (the subnet-router anycast address)."""
    return str(net.network_address + (1 if net.version == 4 else 0))


def default_pool(cidr, gateway):
    """Neutron's default allocation pools (ipam/utils.py's
    ``generate_pools``): the hosts of ``cidr`` but the gateway, split
    around it when it is inside (a v4 network's broadcast address is never
    a host)."""
    net = ipaddress.ip_network(cidr)
    first = int(net.network_address) + 1
    last = int(net.broadcast_address) - (1 if net.version == 4 else 0)
    ranges = [(first, last)]
    if gateway is not None and first <= int(ipaddress.ip_address(gateway)) <= last:
        inside = int(ipaddress.ip_address(gateway))
        ranges = [(first, inside - 1), (inside + 1, last)]
    address = type(net.network_address)  # an int back to the CIDR's family
    return [{"start": str(address(a)), "end": str(address(b))} for a, b in ranges if a <= b]


def insert(
    db, network_id, project_id, name, cidr, gateway="first", pools=None, subnet_id=None, **extra
):
    """Insert a subnet row (seed and create); returns its id."""
    net = ipaddress.ip_network(cidr)
    if gateway == "first":
        gateway = _default_gateway(net)
    subnet_id = subnet_id or clock.new_uuid()
    stamp = common.now()
    db.execute(
        "INSERT INTO network_subnets (id, network_id, project_id, name, description, cidr,"
        " ip_version, gateway_ip, enable_dhcp, allocation_pools, dns_nameservers,"
        " subnetpool_id, ipv6_ra_mode, ipv6_address_mode, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            subnet_id,
            network_id,
            project_id,
            name,
            extra.get("description", ""),
            cidr,
            net.version,
            gateway,
            int(extra.get("enable_dhcp", True)),
            json.dumps(pools if pools is not None else default_pool(cidr, gateway)),
            json.dumps(extra.get("dns_nameservers", [])),
            extra.get("subnetpool_id"),
            extra.get("ipv6_ra_mode"),
            extra.get("ipv6_address_mode"),
            stamp,
            stamp,
        ),
    )
    return subnet_id


def _pools(values, cidr, gateway):
    net = ipaddress.ip_network(cidr)
    pools = values.get("allocation_pools")
    if pools is None:
        return default_pool(cidr, gateway)
    checked = []
    for pool in pools:
        if not isinstance(pool, dict) or set(pool) != {"start", "end"}:
            raise attrs.bad_request(
                "Invalid input for allocation_pools. Reason: Invalid data format for IP "
                "pool: '%s'." % (pool,)
            )
        try:
            start, end = ipaddress.ip_address(pool["start"]), ipaddress.ip_address(pool["end"])
        except (TypeError, ValueError):
            raise attrs.bad_request(
                "Invalid input for allocation_pools. Reason: Invalid data format for IP "
                "pool: '%s'." % (pool,)
            ) from None
        # neutron's validate_allocation_pools: a reversed range is the
        # request's pool, one of the wrong family or outside the CIDR's
        # hosts (v4 without its broadcast) the range
        if start.version != end.version or int(start) > int(end):
            raise errors.BadRequest(
                "The allocation pool %s is not valid." % (pool,), type="InvalidAllocationPool"
            )
        if start.version != net.version:
            raise errors.BadRequest(
                "The allocation pool %s-%s is not valid." % (start, end),
                type="InvalidAllocationPool",
            )
        last = int(net.broadcast_address) - (1 if net.version == 4 else 0)
        if int(start) <= int(net.network_address) or int(end) > last:
            raise errors.BadRequest(
                "The allocation pool %s-%s spans beyond the subnet cidr %s." % (start, end, cidr),
                type="OutOfBoundsAllocationPool",
            )
        checked.append({"start": str(start), "end": str(end)})
    ranges = sorted(
        (ipaddress.ip_address(p["start"]), ipaddress.ip_address(p["end"])) for p in checked
    )
    for (start, end), (next_start, next_end) in itertools.pairwise(ranges):
        if int(next_start) <= int(end):
            raise errors.Conflict(
                "Found overlapping allocation pools: %s-%s %s-%s for subnet %s."
                % (start, end, next_start, next_end, cidr),
                type="OverlappingAllocationPools",
            )
    if gateway is not None:
        address = ipaddress.ip_address(gateway)
        for start, end in ranges:
            if int(start) <= int(address) <= int(end):
                raise errors.Conflict(
                    "Gateway ip %s conflicts with allocation pool %s-%s." % (gateway, start, end),
                    type="GatewayConflictWithAllocationPools",
                )
    return checked


def create(db, context, body):
    values = attrs.parse(body, "subnet", SPEC, create=True)
    project = common.check_project(context, values, "create_subnet")
    network = networks.get(db, context, values["network_id"])
    if network["project_id"] != project and not context.is_admin:
        raise common.policy_denied("rule:create_subnet")
    pool = subnet_pools.requested(db, context, values)
    cidr = values["cidr"]
    if cidr is not None:
        net = ipaddress.ip_network(cidr)
        if net.version != values["ip_version"]:
            raise attrs.invalid_input(
                "cidr '%s' does not match the ip_version '%s'" % (cidr, values["ip_version"])
            )
        # neutron's _validate_subnet_cidr (db/ipam_backend_mixin.py): no /0
        if net.prefixlen == 0:
            raise attrs.invalid_input("0 is not allowed as CIDR prefix length")
    _check_ipv6_modes(values)
    subnet_pools.check_affinity(db, network["id"], values["ip_version"], pool)
    if pool is not None:
        cidr = subnet_pools.subnet_cidr(db, pool, values)
    net = ipaddress.ip_network(cidr)
    for other in db.execute(
        "SELECT cidr FROM network_subnets WHERE network_id = ?", (network["id"],)
    ):
        if ipaddress.ip_network(other["cidr"]).overlaps(net):
            raise attrs.invalid_input(
                "Requested subnet with cidr: %s for network: %s overlaps with another subnet"
                % (cidr, network["id"])
            )
    quotas.check(db, project, "subnet")
    gateway = values["gateway_ip"]
    if gateway == "first":
        gateway = _default_gateway(net)
    elif gateway is not None and ipaddress.ip_address(gateway) not in net:
        raise errors.BadRequest(
            "Invalid input for operation: Gateway is not valid on subnet.", type="InvalidInput"
        )
    subnet_id = insert(
        db,
        network["id"],
        project,
        values["name"],
        cidr,
        gateway=gateway,
        pools=_pools(values, cidr, gateway),
        description=values["description"],
        enable_dhcp=values["enable_dhcp"],
        dns_nameservers=values["dns_nameservers"],
        subnetpool_id=None if pool is None else pool["id"],
        ipv6_ra_mode=values["ipv6_ra_mode"],
        ipv6_address_mode=values["ipv6_address_mode"],
    )
    _set_host_routes(db, subnet_id, values["host_routes"], values["ip_version"], "new subnet")
    return show(db, context, subnet_id)


def _check_ipv6_modes(values):
    """neutron's ``_validate_subnet`` and ``_validate_ipv6_attributes`` for
    the modes of a new subnet."""
    ra_mode, address_mode = values["ipv6_ra_mode"], values["ipv6_address_mode"]
    if values["ip_version"] == 4:
        for attr in ("ipv6_ra_mode", "ipv6_address_mode"):
            if values[attr] is not None:
                raise attrs.invalid_input("%s is not valid when ip_version is 4" % attr)
        return
    if (ra_mode or address_mode) and not values["enable_dhcp"]:
        raise attrs.invalid_input(
            "ipv6_ra_mode or ipv6_address_mode cannot be set when enable_dhcp is set to False"
        )
    if ra_mode and address_mode and ra_mode != address_mode:
        raise attrs.invalid_input(
            "ipv6_ra_mode set to '%s' with ipv6_address_mode set to '%s' is not valid. If both"
            " attributes are set, they must be the same value" % (ra_mode, address_mode)
        )


# neutron's max_subnet_host_routes (neutron/conf/common.py)
MAX_HOST_ROUTES = 20


def _set_host_routes(db, subnet_id, routes, version, name):
    """Store ``routes`` (checked by :func:`.attributes.host_routes`) after
    neutron's ``_validate_subnet``: at most 20, of the subnet's IP version;
    ``name`` is how the limit's text names the subnet."""
    if len(routes) > MAX_HOST_ROUTES:
        raise errors.BadRequest(
            "Unable to complete operation for %s. The number of host routes exceeds the "
            "limit %d." % (name, MAX_HOST_ROUTES),
            type="HostRoutesExhausted",
        )
    for route in routes:
        for key in ("nexthop", "destination"):
            if ipaddress.ip_network(route[key], strict=False).version != version:
                raise attrs.invalid_input(
                    "%s '%s' does not match the ip_version '%s'" % (key, route[key], version)
                )
    db.execute(
        "UPDATE network_subnets SET host_routes = ? WHERE id = ?",
        (
            json.dumps(
                [{"destination": r["destination"], "nexthop": r["nexthop"]} for r in routes]
            ),
            subnet_id,
        ),
    )


def _writable(db, context, subnet_id, action):
    """The subnet ``context`` may change: NotFound when it cannot even
    see it, neutron's 403 when it sees it (its network shared, external) only."""
    found = get(db, context, subnet_id)
    if not common.owns(context, found):
        raise common.policy_denied("rule:%s_subnet" % action)
    return found


def update(db, context, subnet_id, body):
    values = attrs.parse(body, "subnet", SPEC, create=False)
    subnet = _writable(db, context, subnet_id, "update")
    if "host_routes" in values:
        _set_host_routes(db, subnet_id, values["host_routes"], subnet["ip_version"], subnet_id)
    for key in ("name", "description", "enable_dhcp", "dns_nameservers", "gateway_ip"):
        if key in values:
            value = values[key]
            if key == "dns_nameservers":
                value = json.dumps(value)
            elif isinstance(value, bool):
                value = int(value)
            db.execute("UPDATE network_subnets SET %s = ? WHERE id = ?" % key, (value, subnet_id))
    common.bump(db, "network_subnets", subnet_id)
    return show(db, context, subnet_id)


def delete(db, context, subnet_id):
    _writable(db, context, subnet_id, "delete")
    used = db.execute(
        "SELECT 1 FROM network_port_ips i JOIN network_ports p ON p.id = i.port_id"
        " WHERE i.subnet_id = ? AND p.device_owner != 'network:dhcp'",
        (subnet_id,),
    ).fetchone()
    if used is not None:
        raise errors.Conflict(
            "Unable to complete operation on subnet %s: One or more ports have an IP "
            "allocation from this subnet." % subnet_id,
            type="SubnetInUse",
        )
    db.execute("DELETE FROM network_port_ips WHERE subnet_id = ?", (subnet_id,))
    db.execute("DELETE FROM network_subnets WHERE id = ?", (subnet_id,))


# -- IPAM ---------------------------------------------------------------------------


def auto_address(subnet: sqlite3.Row) -> bool:
    """Whether ports take their address from the prefix (SLAAC or
    DHCPv6-stateless: ``ipv6_utils.is_auto_address_subnet``)."""
    modes = ("slaac", "dhcpv6-stateless")
    return subnet["ipv6_address_mode"] in modes or subnet["ipv6_ra_mode"] in modes


def eui64(subnet: sqlite3.Row, mac: str) -> str:
    """The EUI-64 address of ``mac`` in ``subnet``'s /64 (RFC 4291: ff:fe
    in the middle, the universal/local bit flipped)."""
    octets = [int(o, 16) for o in mac.split(":")]
    octets[0] ^= 0x02
    interface = int.from_bytes(bytes(octets[:3] + [0xFF, 0xFE] + octets[3:]), "big")
    net = ipaddress.ip_network(subnet["cidr"])
    return str(net.network_address + interface)


def in_subnet(subnet, address):
    try:
        return ipaddress.ip_address(address) in ipaddress.ip_network(subnet["cidr"])
    except ValueError:
        return False


def allocate(db, subnet, port_id, address=None):
    """Allocate ``address`` (or a free one of the pools) on
    ``subnet`` to ``port_id``; neutron's errors when it is taken, outside
    the subnet, or none is left."""
    if address is not None:
        if not in_subnet(subnet, address) or address == subnet["gateway_ip"]:
            raise errors.BadRequest(
                "IP address %s is not a valid IP for the specified subnet." % address,
                type="InvalidIpForSubnet",
            )
        if _taken(db, subnet, address):
            raise errors.Conflict(
                "IP address %s already allocated in subnet %s" % (address, subnet["id"]),
                type="IpAddressAlreadyAllocated",
            )
    else:
        address = _free_address(db, subnet)
    db.execute(
        "INSERT INTO network_port_ips (port_id, subnet_id, ip_address) VALUES (?, ?, ?)",
        (port_id, subnet["id"], address),
    )
    return address


def _free_address(db, subnet):
    """A free address of ``subnet``'s pools: the one just past the
    allocated ones when allocation has been dense (one indexed lookup, so
    booting thousands of servers stays linear), else the lowest free one
    (neutron itself promises no order: it picks among the first free)."""
    gateway = subnet["gateway_ip"]
    pools = _parsed_pools(subnet)
    # the gateway (a router interface's address) is outside the pools
    count = db.execute(
        "SELECT COUNT(*) FROM network_port_ips WHERE subnet_id = ? AND ip_address IS NOT ?",
        (subnet["id"], gateway),
    ).fetchone()[0]
    candidate = pools.nth(count)
    if candidate not in (None, gateway) and not _taken(db, subnet, candidate):
        return candidate
    used = {
        r[0]
        for r in db.execute(
            "SELECT ip_address FROM network_port_ips WHERE subnet_id = ?", (subnet["id"],)
        )
    }
    for start, end in zip(pools.starts, pools.ends, strict=True):
        for value in range(start, end + 1):
            address = str(pools.address(value))
            if address not in used and address != gateway:
                return address
    raise errors.Conflict(
        "No more IP addresses available on network %s." % subnet["network_id"],
        type="IpAddressGenerationFailure",
    )


class _Pools:
    """A subnet's allocation pools as integers, in their order, with how
    many addresses precede each (``before``) for the n-th address."""

    def __init__(self, version, pools):
        self.address = ipaddress.IPv4Address if version == 4 else ipaddress.IPv6Address
        self.starts = [int(self.address(p["start"])) for p in pools]
        self.ends = [int(self.address(p["end"])) for p in pools]
        self.before = list(
            itertools.accumulate(
                (end - start + 1 for start, end in zip(self.starts, self.ends, strict=True)),
                initial=0,
            )
        )

    def nth(self, index):
        """The ``index``-th address (from 0) of the pools; None past their end."""
        if index >= self.before[-1]:
            return None
        pool = bisect.bisect_right(self.before, index) - 1
        return str(self.address(self.starts[pool] + index - self.before[pool]))


def _parsed_pools(subnet):
    return _parse_pools(subnet["id"], subnet["ip_version"], subnet["allocation_pools"])


@functools.lru_cache(maxsize=64)
def _parse_pools(subnet_id, version, pools):
    """Parsed once per subnet and pools' JSON: a port create on a subnet of
    thousands of pools does not re-parse them all in its write transaction."""
    return _Pools(version, json.loads(pools))


def _taken(db, subnet, address):
    return (
        db.execute(
            "SELECT 1 FROM network_port_ips WHERE subnet_id = ? AND ip_address = ?",
            (subnet["id"], address),
        ).fetchone()
        is not None
    )
