"""What a boot asks of the local Neutron, checked before the server is
made (``nova/network/neutron.py``'s ``validate_networks``): the requested
networks (with a subnet, usable by the caller), ports (free, the caller's)
and fixed addresses, and the security groups. Used by
:mod:`occli.localcloud.compute.networks`, which allocates the ports.
"""

import ipaddress

from occli.localcloud import errors
from occli.localcloud import validation
from occli.localcloud.network import interface as neutron


def available(db, caller, network_ids=None):
    """Nova's ``_get_available_networks``: the caller's project's
    networks and the shared ones, external ones excluded unless asked
    for by id (then they are refused later)."""
    found = []
    for net in db.execute("SELECT * FROM network_networks ORDER BY seq"):
        if network_ids is not None:
            if net["id"] in network_ids and neutron.networks_visible(caller, net):
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
    ``count``: how many servers the request makes. The caller releases
    the ports of deleted servers first (:func:`networks.reap`).
    """
    if requested == "none":
        return []
    if requested is None or requested == "auto":
        nets = available(db, caller)
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
        if not validation.is_uuid(net):
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
    port = neutron.ports_row(db, port_id)
    if port is None or not neutron.ports_visible(caller, port):
        raise errors.BadRequest("Port id %s could not be found." % port_id)
    if port["device_id"]:
        raise errors.Conflict("Port %s is still in use." % port_id)
    if not neutron.fixed_ips(db, port_id):
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


def check_usable(port, project_id, server_id):
    """Nova's ``_validate_requested_port_ids``: a port of another project
    is not usable for the server (``PortNotUsable``)."""
    if port["project_id"] != project_id:
        raise errors.BadRequest("Port %s not usable for instance %s." % (port["id"], server_id))


def _check_networks(db, caller, wanted):
    ids = [w["network_id"] for w in wanted]
    found = {n["id"]: n for n in available(db, caller, set(ids))}
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
    """The ids of the requested groups (``[{"name": name-or-id}]``), looked
    up as nova does through neutronclient's ``find_resourceid_by_name_or_id``
    among the caller's project's groups (its ``default`` one made if
    needed)."""
    ids = []
    for item in requested:
        name = item.get("name") if isinstance(item, dict) else None
        found = neutron.find(db, caller.project_id, name) if name else []
        if not found:
            # neutronclient's text, as nova 34 answers it (see the fixture
            # compute/realcloud/nova-34-networks.json)
            raise errors.BadRequest("Unable to find security_group with name or id '%s'" % name)
        if len(found) > 1 and name not in found:
            raise errors.Conflict(
                "Multiple security_group matches found for name '%s', use an ID to be more "
                "specific." % name
            )
        ids.append(name if name in found else found[0])
    return list(dict.fromkeys(ids))
