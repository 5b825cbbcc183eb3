"""Nova's network API over the local Neutron (``nova/network/neutron.py``).

A server's ports are Neutron ports (``device_id`` = the server id,
``device_owner`` = ``compute:<zone>``, bound to its host). Nova keeps what
it knows of them in the instance's network info cache; here that cache is
the ``servers.ports`` column (JSON, one entry per port: ``network`` (its
name), ``network_id``, ``port_id``, ``addr``, ``mac``, ``floating`` (the
floating addresses), ``preserve`` (a port the user passed in: unbound, not
deleted, when the server goes), ``tag``), refreshed whenever compute
changes a port and when Neutron tells it a server's ports changed
(:func:`refresh`, called by the network service), so server views never
query Neutron.
"""

import ipaddress
import json

from occli.localcloud import errors
from occli.localcloud.compute import values
from occli.localcloud.network import floating_ips as neutron_fips
from occli.localcloud.network import networks as neutron_networks
from occli.localcloud.network import ports as neutron_ports
from occli.localcloud.network import security_groups as neutron_groups
from occli.localcloud.network import seed as neutron_seed

PRIVATE_NETWORK_ID = neutron_seed.PRIVATE_NETWORK_ID
PRIVATE_NETWORK_NAME = "private"


def _available(db, caller, network_ids=None):
    """Nova's ``_get_available_networks``: the caller's project's
    networks and the shared ones, external ones excluded unless asked
    for by id (then they are refused later)."""
    found = []
    for net in db.execute("SELECT * FROM network_networks ORDER BY seq"):
        if network_ids is not None:
            if net["id"] in network_ids and neutron_networks.visible(caller, net):
                found.append(net)
        elif not net["external"] and (net["project_id"] == caller.project_id or net["shared"]):
            found.append(net)
    return found


def _has_subnet(db, network_id):
    return (
        db.execute("SELECT 1 FROM network_subnets WHERE network_id = ?", (network_id,)).fetchone()
        is not None
    )


def requested_ports(db, caller, requested, count):
    """The ports a create asks for, checked as nova's ``validate_networks``:
    ``[{"network_id", "fixed_ip"?, "port_id"?, "tag"?}]``.

    ``requested``: the request's ``networks`` (None, ``"auto"``,
    ``"none"`` or a list of ``{"uuid"?, "port"?, "fixed_ip"?, "tag"?}``);
    ``count``: how many servers the request makes.
    """
    if requested == "none":
        return []
    if requested is None or requested == "auto":
        nets = _available(db, caller)
        if len(nets) > 1:
            raise errors.Conflict(
                "More than one possible network found. Specify network ID(s) to select which "
                "one(s) to connect to."
            )
        if not nets:
            if requested == "auto":
                raise errors.BadRequest(
                    "Unable to automatically allocate a network for project %s" % caller.project_id
                )
            return []
        return [{"network_id": nets[0]["id"]}]
    wanted = []
    for item in requested:
        port_id = item.get("port")
        if port_id:
            wanted.append(_requested_port(db, caller, port_id, count, item.get("tag")))
            continue
        net = item.get("uuid")
        if net is None:
            raise errors.BadRequest("Bad network format: missing 'uuid'")
        if not values.is_uuid(net):
            raise errors.BadRequest(
                "Bad networks format: network uuid is not in proper format (%s)" % net
            )
        entry = {"network_id": net}
        if item.get("tag") is not None:
            entry["tag"] = item["tag"]
        fixed = item.get("fixed_ip")
        if fixed is not None:
            if count > 1:
                raise errors.BadRequest(
                    "max_count cannot be greater than 1 if an fixed_ip is specified."
                )
            entry["fixed_ip"] = fixed
        wanted.append(entry)
    _check_networks(db, caller, [w for w in wanted if "port_id" not in w])
    return wanted


def _requested_port(db, caller, port_id, count, tag):
    port = neutron_ports.row(db, port_id)
    if port is None or not neutron_ports.visible(caller, port):
        raise errors.BadRequest("Port id %s could not be found." % port_id)
    if port["device_id"]:
        raise errors.Conflict("Port %s is still in use." % port_id)
    if not neutron_ports.fixed_ips(db, port_id):
        raise errors.BadRequest("Port %s requires a FixedIP in order to be used." % port_id)
    if count > 1:
        raise errors.BadRequest(
            "Unable to launch multiple instances with a single configured port ID. Please "
            "launch your instance one by one with different ports."
        )
    entry = {"network_id": port["network_id"], "port_id": port_id}
    if tag is not None:
        entry["tag"] = tag
    return entry


def _check_networks(db, caller, wanted):
    ids = [w["network_id"] for w in wanted]
    found = {n["id"]: n for n in _available(db, caller, set(ids))}
    lost = [i for i in dict.fromkeys(ids) if i not in found]
    if lost:
        raise errors.BadRequest("Network %s could not be found." % ", ".join(lost))
    for net in found.values():
        if net["external"] and not caller.is_admin:
            raise errors.Forbidden(
                "It is not allowed to create an interface on external network %s" % net["id"]
            )
        if not _has_subnet(db, net["id"]):
            raise errors.BadRequest(
                "Network %s requires a subnet in order to boot instances on." % net["id"]
            )
    for entry in wanted:
        fixed = entry.get("fixed_ip")
        if fixed is None:
            continue
        subnet = next(
            (
                s
                for s in db.execute(
                    "SELECT * FROM network_subnets WHERE network_id = ?", (entry["network_id"],)
                )
                if _in(s["cidr"], fixed)
            ),
            None,
        )
        if subnet is None:
            raise errors.BadRequest(
                "Fixed IP address %s is not valid for network %s." % (fixed, entry["network_id"])
            )
        holder = db.execute(
            "SELECT p.device_id FROM network_port_ips i JOIN network_ports p ON p.id = i.port_id"
            " WHERE i.subnet_id = ? AND i.ip_address = ?",
            (subnet["id"], fixed),
        ).fetchone()
        if holder is not None:
            raise errors.BadRequest(
                "Fixed IP address %s is already in use on instance %s."
                % (fixed, holder["device_id"])
            )


def _in(cidr, address):
    try:
        return ipaddress.ip_address(address) in ipaddress.ip_network(cidr)
    except ValueError:
        return False


def security_groups(db, caller, requested):
    """The ids of the requested groups (``[{"name": name-or-id}]``): nova's
    ``_validate_requested_security_groups``, among the caller's project's
    groups (its ``default`` one made if needed)."""
    ids = []
    for item in requested:
        name = item.get("name") if isinstance(item, dict) else None
        found = neutron_groups.find(db, caller.project_id, name) if name else []
        if not found:
            raise errors.BadRequest("Security group %s not found." % name)
        if len(found) > 1 and name not in found:
            raise errors.Conflict(
                "Multiple security groups found matching '%s'. Use an ID to be more specific."
                % name
            )
        ids.append(name if name in found else found[0])
    return list(dict.fromkeys(ids))


# -- ports of a server ----------------------------------------------------------------


def _owner(server):
    """Nova's ``device_owner``: ``compute:<the server's zone>``."""
    return "compute:%s" % (server["availability_zone"] or "nova")


def allocate(db, caller, server, requests, group_ids):
    """Create (or bind) the ports of a new server placed on its host and
    fill its cache (``server["ports"]``)."""
    tags = {}
    preserve = set()
    for request in requests:
        port_id = request.get("port_id")
        if port_id is not None:
            _bind(db, server, neutron_ports.row(db, port_id))
            preserve.add(port_id)
        else:
            port_id = _create_port(db, caller, server, request, group_ids)
        if request.get("tag") is not None:
            tags[port_id] = request["tag"]
    server["ports"] = json.dumps(_entries(db, server["id"], preserve, tags))
    _cache_groups(db, server)


def _cache_groups(db, server):
    """``servers.security_groups``: the names of the groups of the
    server's ports (nova shows those), when it has ports."""
    ids = []
    for port in neutron_ports.by_device(db, server["id"]):
        ids += neutron_ports.group_ids(db, port["id"])
    if ids:
        names = neutron_groups.names(db, list(dict.fromkeys(ids)))
        server["security_groups"] = json.dumps([{"name": n} for n in dict.fromkeys(names)])


def _create_port(db, caller, server, request, group_ids, fixed_ips=None):
    network = neutron_networks.row(db, request["network_id"])
    if fixed_ips is None and request.get("fixed_ip") is not None:
        fixed_ips = [{"ip_address": request["fixed_ip"]}]
    try:
        return neutron_ports.insert(
            db,
            caller,
            network,
            server["project_id"],
            {
                "device_id": server["id"],
                "device_owner": _owner(server),
                "binding:host_id": server["host"] or "",
                "fixed_ips": fixed_ips,
                "security_groups": group_ids,
            },
        )
    except errors.Conflict as exc:
        if exc.extra.get("type") == "IpAddressAlreadyAllocated":
            address = request.get("fixed_ip") or (fixed_ips or [{}])[0].get("ip_address")
            raise errors.BadRequest("Fixed IP %s is already in use." % address) from None
        raise errors.BadRequest(
            "No fixed IP addresses available for network: %s" % network["id"]
        ) from None


def _bind(db, server, port):
    neutron_ports.apply_update(
        db,
        None,
        port,
        {
            "device_id": server["id"],
            "device_owner": _owner(server),
            "binding:host_id": server["host"] or "",
        },
    )


def _entries(db, server_id, preserve, tags):
    """The cache of ``server_id`` from its Neutron ports."""
    rows = neutron_ports.by_device(db, server_id)
    floating = neutron_fips.by_port(db, [p["id"] for p in rows])
    names = {}
    entries = []
    for port in rows:
        if port["network_id"] not in names:
            names[port["network_id"]] = neutron_networks.row(db, port["network_id"])["name"]
        for ip in neutron_ports.fixed_ips(db, port["id"]):
            entry = {
                "network": names[port["network_id"]],
                "network_id": port["network_id"],
                "port_id": port["id"],
                "addr": ip["ip_address"],
                "mac": port["mac_address"],
                "floating": floating.pop(port["id"], []),
                "preserve": port["id"] in preserve,
            }
            if port["id"] in tags:
                entry["tag"] = tags[port["id"]]
            entries.append(entry)
    return entries


def cache(server):
    return json.loads(server["ports"])


def refresh(db, server_ids):
    """Rebuild the cache of ``server_ids`` from Neutron (nova's
    ``network-changed`` event), keeping what only nova knows (which ports
    it must not delete, their tags)."""
    for server_id in server_ids:
        row = db.execute(
            "SELECT ports, security_groups FROM servers WHERE id = ? AND deleted = 0",
            (server_id,),
        ).fetchone()
        if row is None:
            continue
        old = json.loads(row["ports"])
        preserve = {e["port_id"] for e in old if e.get("preserve")}
        known = {e.get("port_id") for e in old}
        tags = {e["port_id"]: e["tag"] for e in old if e.get("tag") is not None}
        # a port bound to the server through Neutron is the user's
        preserve |= {p["id"] for p in neutron_ports.by_device(db, server_id)} - known
        server = {"id": server_id, "security_groups": row["security_groups"]}
        _cache_groups(db, server)
        db.execute(
            "UPDATE servers SET ports = ?, security_groups = ? WHERE id = ?",
            (
                json.dumps(_entries(db, server_id, preserve, tags)),
                server["security_groups"],
                server_id,
            ),
        )


def release(db, server):
    """A deleted server's ports: the ones nova made are deleted, the ones
    the user passed in are unbound (nova's ``deallocate_for_instance``)."""
    preserve = {e.get("port_id") for e in cache(server) if e.get("preserve")}
    for port in neutron_ports.by_device(db, server["id"]):
        if port["id"] in preserve:
            _unbind(db, port)
        else:
            neutron_ports.remove(db, port["id"])
    server["ports"] = "[]"


def _unbind(db, port):
    neutron_ports.apply_update(
        db, None, port, {"device_id": "", "device_owner": "", "binding:host_id": ""}
    )


def adopt_legacy(db):
    """Make Neutron ports for servers whose cache predates Neutron (data
    directories of older versions: entries without ``port_id``), keeping
    their addresses and MACs."""
    rows = db.execute(
        "SELECT * FROM servers WHERE deleted = 0 AND ports LIKE '%\"addr\"%'"
        " AND ports NOT LIKE '%\"port_id\"%'"
    ).fetchall()
    network = neutron_networks.row(db, PRIVATE_NETWORK_ID)
    for row in rows:
        server = dict(row)
        for entry in json.loads(server["ports"]):
            taken = db.execute(
                "SELECT 1 FROM network_port_ips WHERE ip_address = ?", (entry["addr"],)
            ).fetchone()
            neutron_ports.insert(
                db,
                _System(),
                network,
                server["project_id"],
                {
                    "device_id": server["id"],
                    "device_owner": _owner(server),
                    "binding:host_id": server["host"] or "",
                    "mac_address": entry["mac"],
                    "fixed_ips": None if taken else [{"ip_address": entry["addr"]}],
                },
            )
        refresh(db, [server["id"]])


class _System:
    """Compute acting for itself (nova's elevated context)."""

    project_id = None
    user_id = None
    is_admin = True
