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
query Neutron. A server's ports are those of its own project naming it
(nova's ``list_ports(tenant_id=, device_id=)``): a port another project
points at the server is never part of it. Nova creates and changes ports
with the user's context, so Neutron's port policy
(:func:`occli.localcloud.network.ports.enforce`) applies to them as to the
user's own calls: on a network the user does not own, choosing an address
is refused.
"""

import json

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.compute import network_requests
from occli.localcloud.compute import scheduler
from occli.localcloud.compute import server_rows
from occli.localcloud.compute import states
from occli.localcloud.network import interface as neutron

PRIVATE_NETWORK_ID = neutron.PRIVATE_NETWORK_ID
# nova's ``[scheduler]max_attempts``: the hosts a build is tried on
MAX_ATTEMPTS = 3
#: :func:`network_requests.security_groups`, importable from here as before
security_groups = network_requests.security_groups


def requested_ports(db, caller, requested, count):
    """:func:`network_requests.requested_ports`, once the ports of servers
    deleted since are released (:func:`reap`): they may be asked for."""
    reap(db)
    return network_requests.requested_ports(db, caller, requested, count)


# -- ports of a server ----------------------------------------------------------------


def _owner(server):
    """Nova's ``device_owner``: ``compute:<the server's zone>``."""
    return "compute:%s" % (server["availability_zone"] or "nova")


def allocate(db, caller, server, requests, group_ids):
    """Create (or bind) the ports of a new server placed on its host and
    fill its cache (``server["ports"]``). A port create Neutron refuses
    fails the build (:func:`_fail_build`), none of its ports left."""
    tags = {}
    preserve = set()
    for request in requests:
        port_id = request.get("port_id")
        if port_id is not None:
            port = neutron.ports_row(db, port_id)
            network_requests.check_usable(port, server["project_id"], server["id"])
            _bind(db, server, port)
            preserve.add(port_id)
            continue
        try:
            port_id = _create_port(db, caller, server, request, group_ids)
        except errors.Forbidden as exc:
            _deallocate(db, server, preserve)
            server["ports"] = "[]"
            _fail_build(db, server, _client_text(exc))
            return
        if request.get("tag") is not None:
            tags[port_id] = request["tag"]
    server["ports"] = json.dumps(_entries(db, server, preserve, tags))
    _cache_groups(db, server)


def _fail_build(db, server, refusal):
    """Nova's build of ``server`` when Neutron refuses one of its ports
    (``refusal``: the text nova got): the compute manager reschedules it
    (``RescheduledException``), each host fails it the same way, and the
    conductor gives up (``MaxRetriesExceeded``): at the end of the build
    the server is in ERROR with that fault, off its host
    (``_nil_out_instance_obj_host_and_node``), its ports deallocated."""
    states.start(
        server,
        states.BUILD_TASKS,
        {
            "vm_state": "error",
            "power_state": states.NOSTATE,
            "host": None,
            "node": None,
            "availability_zone": None,
        },
        progress=True,
        fault=_retries_fault(db, server, refusal),
    )
    db.execute(
        "UPDATE servers SET task_state = ?, progress = ?, pending = ?, task_started_at = ?"
        " WHERE id = ?",
        (
            server["task_state"],
            server["progress"],
            server["pending"],
            server["task_started_at"],
            server["id"],
        ),
    )


def _retries_fault(db, server, refusal):
    """The fault of a build that failed on every host it was tried on: the
    server's and the scheduler's alternates (other hosts passing its
    filters), at most :data:`MAX_ATTEMPTS` (nova's conductor
    ``build_instances`` and ``scheduler.utils.populate_retry``; the message
    cut to 255 characters as ``exception_to_dict`` does)."""
    spec = scheduler.RequestSpec(
        scheduler.server_resources(server), zone=server["pinned_availability_zone"]
    )
    alternates = [
        s
        for s in scheduler.host_states(db)
        if s.host != server["host"] and scheduler.host_passes(s, spec)[0]
    ]
    if 1 + len(alternates) >= MAX_ATTEMPTS:
        reason = "Exceeded max scheduling attempts %d for instance %s. Last exception: %s" % (
            MAX_ATTEMPTS,
            server["id"],
            refusal,
        )
        frames = _POPULATE_RETRY_FRAMES
    else:
        reason = (
            "Exhausted all hosts available for retrying build failures for instance %s."
            % server["id"]
        )
        frames = _EXHAUSTED_FRAMES
    message = "Exceeded maximum number of retries. " + reason
    details = "Traceback (most recent call last):\n%snova.exception.MaxRetriesExceeded: %s\n" % (
        frames,
        message,
    )
    return {"code": 500, "message": message[:255], "details": details}


# the traceback nova's conductor stores with that fault (admins see it)
_POPULATE_RETRY_FRAMES = (
    '  File "/opt/stack/nova/nova/conductor/manager.py", line 702, in build_instances\n'
    "    scheduler_utils.populate_retry(\n"
    '  File "/opt/stack/nova/nova/scheduler/utils.py", line 1079, in populate_retry\n'
    "    raise exception.MaxRetriesExceeded(reason=msg)\n"
)
_EXHAUSTED_FRAMES = (
    '  File "/opt/stack/nova/nova/conductor/manager.py", line 717, in build_instances\n'
    "    raise exception.MaxRetriesExceeded(reason=msg)\n"
)


def ports_of(db, server):
    """The Neutron ports of ``server``: its project's bound to it."""
    return neutron.by_device(db, server["id"], server["project_id"])


def _cache_groups(db, server):
    """``servers.security_groups``: the names of the groups of the
    server's ports (nova shows those), when it has ports."""
    ports = ports_of(db, server)
    if not ports:
        return
    ids = []
    for port in ports:
        ids += neutron.group_ids(db, port["id"])
    names = neutron.names(db, list(dict.fromkeys(ids))) if ids else []
    server["security_groups"] = json.dumps([{"name": n} for n in dict.fromkeys(names)])


def _create_port(db, caller, server, request, group_ids, fixed_ips=None):
    network = neutron.existing(db, request["network_id"])
    if fixed_ips is None and request.get("fixed_ip") is not None:
        fixed_ips = [{"ip_address": request["fixed_ip"]}]
    _authorize_create(caller, network, server, fixed_ips)
    try:
        return neutron.insert(
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
        _port_quota(exc)
        if exc.extra.get("type") == "IpAddressAlreadyAllocated":
            address = request.get("fixed_ip") or (fixed_ips or [{}])[0].get("ip_address")
            raise errors.BadRequest("Fixed IP %s is already in use." % address) from None
        raise errors.BadRequest(
            "No fixed IP addresses available for network: %s" % network["id"]
        ) from None


def _authorize_create(caller, network, server, fixed_ips):
    """Neutron's policy on the port create nova's ``_create_port_minimal``
    sends with the user's context: ``device_id`` (the server) and, when
    one is chosen, the address (the network owner's and the admins')."""
    given = {"device_id": server["id"]}
    if fixed_ips:
        given["fixed_ips"] = fixed_ips
    neutron.enforce(caller, "create_port", network, server["project_id"], given)


def _client_text(exc):
    """A Neutron refusal ``exc`` as nova passes it on: neutronclient's
    message (the error and the request ids line), which nova's
    ``ClientWrapper`` raises as its own ``Forbidden``."""
    return "%s\nNeutron server returns request_ids: ['req-%s']" % (exc.message, common.new_uuid())


def _port_quota(exc):
    """Neutron's port ``OverQuota`` as nova answers it (``PortLimitExceeded``)."""
    if exc.extra.get("type") == "OverQuota":
        raise errors.OverLimit("Maximum number of ports exceeded") from None


def _bind(db, server, port):
    neutron.apply_update(
        db,
        None,
        port,
        {
            "device_id": server["id"],
            "device_owner": _owner(server),
            "binding:host_id": server["host"] or "",
        },
    )


def _entries(db, server, preserve, tags):
    """The cache of ``server`` from its Neutron ports."""
    rows = ports_of(db, server)
    floating = neutron.by_port(db, [p["id"] for p in rows])
    names = {}
    entries = []
    for port in rows:
        if port["network_id"] not in names:
            names[port["network_id"]] = neutron.existing(db, port["network_id"])["name"]
        for ip in neutron.fixed_ips(db, port["id"]):
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
            "SELECT ports, security_groups, project_id FROM servers WHERE id = ? AND deleted = 0",
            (server_id,),
        ).fetchone()
        if row is None:
            continue
        old = json.loads(row["ports"])
        preserve = {e["port_id"] for e in old if e.get("preserve")}
        known = {e.get("port_id") for e in old}
        tags = {e["port_id"]: e["tag"] for e in old if e.get("tag") is not None}
        server = {
            "id": server_id,
            "project_id": row["project_id"],
            "security_groups": row["security_groups"],
        }
        # a port bound to the server through Neutron is the user's
        preserve |= {p["id"] for p in ports_of(db, server)} - known
        _cache_groups(db, server)
        db.execute(
            "UPDATE servers SET ports = ?, security_groups = ? WHERE id = ?",
            (
                json.dumps(_entries(db, server, preserve, tags)),
                server["security_groups"],
                server_id,
            ),
        )


def release(db, server):
    """A deleted server's ports: the ones nova made are deleted, the ones
    the user passed in are unbound (nova's ``deallocate_for_instance``)."""
    preserve = {e.get("port_id") for e in cache(server) if e.get("preserve")}
    _deallocate(db, server, preserve)
    server["ports"] = "[]"


def _deallocate(db, server, preserve):
    """Delete the ports of ``server`` nova made, unbind the ``preserve``
    ones (the user's)."""
    for port in ports_of(db, server):
        if port["id"] in preserve:
            _unbind(db, port)
        else:
            neutron.remove(db, port["id"])


def reap(db):
    """Release the ports of servers deleted since (a soft-deleted server
    reclaimed as it was read): nova's reclaim deallocates them."""
    # from the ports to their servers by id (CROSS JOIN keeps that order):
    # SQLite scanned every server instead, 7-20 ms of each create's write
    # transaction in a project of 24,000 servers
    for row in db.execute(
        "SELECT DISTINCT s.* FROM network_ports p CROSS JOIN servers s ON s.id = p.device_id"
        " AND s.project_id = p.project_id WHERE s.deleted = 1 AND p.device_owner LIKE 'compute:%'"
    ).fetchall():
        release(db, dict(row))


def _unbind(db, port):
    neutron.apply_update(
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
    if not rows:
        return  # nothing to adopt (a devstack-seeded cloud has no such network)
    network = neutron.existing(db, PRIVATE_NETWORK_ID)
    for row in rows:
        server = dict(row)
        for entry in json.loads(server["ports"]):
            taken = db.execute(
                "SELECT 1 FROM network_port_ips WHERE ip_address = ?", (entry["addr"],)
            ).fetchone()
            neutron.insert(
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


# -- after boot: interfaces, fixed and floating IPs, security groups ---------------------


def _recache(db, server, preserve=(), tags=None):
    """Refresh ``server``'s cache, marking ``preserve`` ports as the
    user's and recording ``tags`` (``{port_id: tag}``)."""
    old = cache(server)
    keep = {e["port_id"] for e in old if e.get("preserve")} | set(preserve)
    known = {e["port_id"]: e["tag"] for e in old if e.get("tag") is not None}
    known.update(tags or {})
    server["ports"] = json.dumps(_entries(db, server, keep, known))
    _cache_groups(db, server)
    db.execute(
        "UPDATE servers SET ports = ?, security_groups = ? WHERE id = ?",
        (server["ports"], server["security_groups"], server["id"]),
    )


def interface(db, caller, server, port_id):
    """The port ``port_id`` of ``server`` (os-interface show)."""
    port = neutron.ports_row(db, port_id)
    if port is None or not neutron.ports_visible(caller, port):
        raise errors.NotFound("Port id %s could not be found." % port_id)
    if port["device_id"] != server["id"] or port["project_id"] != server["project_id"]:
        raise errors.NotFound(
            "Instance %s does not have a port with id %s" % (server["id"], port_id)
        )
    return port


def tag_of(server, port_id):
    return next((e.get("tag") for e in cache(server) if e.get("port_id") == port_id), None)


def _check_interface_state(caller, server, action):
    server_rows.check_lock(caller, server)
    server_rows.check_state(server, action, ("active", "paused", "stopped"))


def attach(db, caller, server, network_id=None, port_id=None, fixed_ip=None, tag=None):
    """Nova's ``attach_interface``: bind the user's port, or make one on
    ``network_id`` (or the only network available); returns the port id."""
    _check_interface_state(caller, server, "attach_interface")
    reap(db)
    if port_id is not None:
        port = neutron.ports_row(db, port_id)
        if port is None or not neutron.ports_visible(caller, port):
            raise errors.NotFound("Port id %s could not be found." % port_id)
        network_requests.check_usable(port, server["project_id"], server["id"])
        if port["device_id"]:
            raise errors.Conflict("Port %s is still in use." % port_id)
        _bind(db, server, port)
        _recache(db, server, preserve=[port_id], tags={port_id: tag} if tag else None)
        return port_id
    if network_id is None:
        nets = network_requests.available(db, caller)
        if not nets:
            raise errors.BadRequest(
                "No specific network was requested and none are available for project '%s'."
                % caller.project_id
            )
        if len(nets) > 1:
            raise errors.BadRequest(
                "More than one possible network found. Specify network ID(s) to select which "
                "one(s) to connect to."
            )
        network_id = nets[0]["id"]
    found = network_requests.available(db, caller, {network_id})
    if not found:
        raise errors.NotFound("Network %s could not be found." % network_id)
    if found[0]["external"] and not caller.is_admin:
        raise errors.Forbidden(
            "It is not allowed to create an interface on external network %s" % network_id
        )
    fixed = [{"ip_address": fixed_ip}] if fixed_ip else None
    try:
        _authorize_create(caller, found[0], server, fixed)
    except errors.Forbidden as exc:
        # the compute manager's call fails with nova's Forbidden, which
        # nova-api answers as a 403
        raise errors.Forbidden(_client_text(exc)) from None
    try:
        new_port = neutron.insert(
            db,
            caller,
            found[0],
            server["project_id"],
            {
                "device_id": server["id"],
                "device_owner": _owner(server),
                "binding:host_id": server["host"] or "",
                "fixed_ips": fixed,
            },
        )
    except errors.Conflict as exc:
        _port_quota(exc)
        if exc.extra.get("type") == "IpAddressAlreadyAllocated":
            raise errors.Conflict("Fixed IP %s is already in use." % fixed_ip) from None
        raise errors.BadRequest(
            "No fixed IP addresses available for network: %s" % network_id
        ) from None
    except errors.BadRequest as exc:
        raise errors.BadRequest(
            "Fixed IP %s is not a valid ip address for network %s." % (fixed_ip, network_id)
        ) from exc
    _recache(db, server, tags={new_port: tag} if tag else None)
    return new_port


def detach(db, caller, server, port_id):
    """Nova's ``detach_interface``: a port nova made is deleted, the
    user's unbound; a port of another server is left alone (nova's
    compute manager logs it)."""
    _check_interface_state(caller, server, "detach_interface")
    port = neutron.ports_row(db, port_id)
    if port is None or not neutron.ports_visible(caller, port):
        raise errors.NotFound("Port id %s could not be found." % port_id)
    if port["device_id"] != server["id"] or port["project_id"] != server["project_id"]:
        return
    preserve = {e.get("port_id") for e in cache(server) if e.get("preserve")}
    if port_id in preserve:
        _unbind(db, port)
    else:
        neutron.remove(db, port_id)
    _recache(db, server)


def add_fixed_ip(db, caller, server, network_id):
    """Nova's multinic ``addFixedIp``: one more address from the
    network's subnet on the server's port on that network (none: nova's
    compute manager ignores it). Nova updates the port with the user's
    context: on a network the user does not own Neutron refuses it
    (``update_port:fixed_ips``), which the compute manager logs, the
    server left as it was (the API had answered 202)."""
    server_rows.check_lock(caller, server)
    for port in ports_of(db, server):
        if port["network_id"] != network_id:
            continue
        subnet = db.execute(
            "SELECT * FROM network_subnets WHERE network_id = ? ORDER BY seq", (network_id,)
        ).fetchone()
        fixed = neutron.fixed_ips(db, port["id"]) + [{"subnet_id": subnet["id"]}]
        if not _may_update(db, caller, port, {"fixed_ips": fixed}):
            return
        try:
            neutron.apply_update(db, caller, port, {"fixed_ips": fixed})
        except errors.Conflict:
            raise errors.BadRequest(
                "No fixed IP addresses available for network: %s" % network_id
            ) from None
        _recache(db, server)
        return


def remove_fixed_ip(db, caller, server, address):
    """Nova's multinic ``removeFixedIp``: the port holding ``address``
    updated without it, with the user's context (a refusal is logged by
    the compute manager, as for :func:`add_fixed_ip`)."""
    server_rows.check_lock(caller, server)
    for port in ports_of(db, server):
        current = neutron.fixed_ips(db, port["id"])
        if any(ip["ip_address"] == address for ip in current):
            change = {"fixed_ips": [ip for ip in current if ip["ip_address"] != address]}
            if _may_update(db, caller, port, change):
                neutron.apply_update(db, caller, port, change)
                _recache(db, server)
            return
    raise errors.BadRequest("Instance %s does not have fixed IP '%s'." % (server["id"], address))


def _may_update(db, caller, port, change):
    """Whether Neutron's policy lets ``caller`` update ``port`` with
    ``change`` (nova's multinic calls catch and log a refusal)."""
    network = neutron.existing(db, port["network_id"])
    try:
        neutron.enforce(caller, "update_port", network, port["project_id"], change)
    except errors.Forbidden:
        return False
    return True


def _floating_ip(db, caller, address):
    found = db.execute(
        "SELECT * FROM network_floating_ips WHERE floating_ip_address = ? ORDER BY seq",
        (address,),
    ).fetchall()
    found = [f for f in found if f["project_id"] == caller.project_id or caller.is_admin]
    if not found:
        raise errors.NotFound("floating IP not found")
    return found[0]


def add_floating_ip(db, caller, server, address, fixed_address=None):
    """Nova's ``addFloatingIp`` (through 2.43)."""
    entries = cache(server)
    if not entries:
        raise errors.BadRequest("Instance network is not ready yet")
    if fixed_address is not None:
        entry = next((e for e in entries if e["addr"] == fixed_address), None)
        if entry is None:
            raise errors.BadRequest("Specified fixed address not assigned to instance")
    else:
        entry = next((e for e in entries if ":" not in e["addr"]), None)
        if entry is None:
            raise errors.BadRequest(
                "Unable to associate floating IP %s to any fixed IPs for instance %s. Instance "
                "has no fixed IPv4 addresses to associate." % (address, server["id"])
            )
    fip = _floating_ip(db, caller, address)
    previous = _device_of(db, fip["port_id"])
    try:
        neutron.associate(db, caller, fip, entry["port_id"], entry["addr"])
    except errors.Error as exc:
        raise errors.BadRequest(
            "Unable to associate floating IP %s to fixed IP %s for instance %s. Error: %s"
            % (address, entry["addr"], server["id"], exc.message)
        ) from None
    _recache(db, server)
    if previous and previous != server["id"]:
        refresh(db, [previous])


def _device_of(db, port_id):
    port = neutron.ports_row(db, port_id) if port_id else None
    return port["device_id"] if port is not None else None


def remove_floating_ip(db, caller, server, address):
    """Nova's ``removeFloatingIp`` (through 2.43)."""
    fip = _floating_ip(db, caller, address)
    if not fip["port_id"] or _device_of(db, fip["port_id"]) != server["id"]:
        raise errors.Conflict(
            "Floating IP %s is not associated with instance %s." % (address, server["id"])
        )
    neutron.associate(db, caller, fip, None)
    _recache(db, server)


def _group_for_action(db, caller, name):
    found = neutron.find(db, caller.project_id, name)
    if len(found) > 1 and name not in found:
        raise errors.Conflict(
            "Multiple security_group matches found for name '%s', use an ID to be more "
            "specific." % name
        )
    if not found:
        raise errors.NotFound(
            "Security group %s is not found for project %s" % (name, caller.project_id)
        )
    return name if name in found else found[0]


def add_security_group(db, caller, server, name):
    """Nova's ``addSecurityGroup``: the group on every port of the server."""
    group_id = _group_for_action(db, caller, name)
    ports = ports_of(db, server)
    if not ports:
        raise errors.NotFound(
            "instance_id %s could not be found as device id on any ports" % server["id"]
        )
    for port in ports:
        if not port["port_security_enabled"]:
            raise errors.BadRequest(
                "Network requires port_security_enabled and subnet associated in order to "
                "apply security groups."
            )
        groups = neutron.group_ids(db, port["id"])
        if group_id not in groups:
            neutron.apply_update(db, caller, port, {"security_groups": groups + [group_id]})
    _recache(db, server)


def remove_security_group(db, caller, server, name):
    group_id = _group_for_action(db, caller, name)
    ports = ports_of(db, server)
    if not ports:
        raise errors.NotFound(
            "instance_id %s could not be found as device id on any ports" % server["id"]
        )
    removed = False
    for port in ports:
        groups = neutron.group_ids(db, port["id"])
        if group_id in groups:
            groups.remove(group_id)
            neutron.apply_update(db, caller, port, {"security_groups": groups})
            removed = True
    if not removed:
        raise errors.NotFound(
            "Security group %s not associated with the instance %s" % (name, server["id"])
        )
    _recache(db, server)
