"""Ports: fixed IPs drawn from their network's subnets, ``fa:16:3e`` MACs,
security groups (the project's ``default`` one unless told), the device
(``device_id``/``device_owner``) they are bound to."""

import secrets
import sqlite3
from collections.abc import Mapping
from typing import Any

from occli.localcloud import common as clock
from occli.localcloud import errors
from occli.localcloud.common import Asker
from occli.localcloud.network import attributes as attrs
from occli.localcloud.network import common
from occli.localcloud.network import networks
from occli.localcloud.network import quotas
from occli.localcloud.network import security_groups
from occli.localcloud.network import subnets
from occli.localcloud.network import tags

# the list filters: every attribute but ``allowed_address_pairs``, which
# neutron 29 refuses as a filter ("… is invalid attribute for filtering":
# not ``is_filter`` in neutron-lib's allowedaddresspairs definition;
# tests/fixtures/network/realcloud/neutron-29-ports.json)
ATTRIBUTES = (
    "admin_state_up",
    "binding:vnic_type",
    "created_at",
    "description",
    "device_id",
    "device_owner",
    "extra_dhcp_opts",
    "fixed_ips",
    "id",
    "mac_address",
    "name",
    "network_id",
    "port_security_enabled",
    "project_id",
    "revision_number",
    "security_groups",
    "status",
    "tags",
    "tenant_id",
    "updated_at",
)
SORT_KEYS = (
    "admin_state_up",
    "created_at",
    "description",
    "device_id",
    "device_owner",
    "id",
    "mac_address",
    "name",
    "network_id",
    "project_id",
    "revision_number",
    "status",
    "tenant_id",
    "updated_at",
)

SPEC = {
    "network_id": attrs.Attr(attrs.uuid, put=False, default=attrs.REQUIRED),
    "name": attrs.Attr(attrs.string(), default=""),
    "description": attrs.Attr(attrs.string(attrs.DESCRIPTION_MAX_LEN), default=""),
    "admin_state_up": attrs.Attr(attrs.boolean, default=True),
    "mac_address": attrs.Attr(attrs.mac_address, default=None),
    "fixed_ips": attrs.Attr(attrs.fixed_ips, default=None),
    "device_id": attrs.Attr(attrs.string(), default=""),
    "device_owner": attrs.Attr(attrs.string(), default=""),
    "security_groups": attrs.Attr(attrs.list_of(attrs.uuid), default=None),
    # None: the network's (portsecurity_db's _determine_port_security)
    "port_security_enabled": attrs.Attr(attrs.boolean, default=None),
    "binding:host_id": attrs.Attr(attrs.string(), default=""),
    "allowed_address_pairs": attrs.Attr(attrs.allowed_address_pairs, default=None),
    # tagging.py's TAG_ATTRIBUTE_MAP_PORTS: checked on create, then ignored
    # without ML2's tag_ports_during_bulk_creation driver (not loaded by
    # default, nor here: neutron-29-ports.json's port_create_all)
    "tags": attrs.Attr(tags.attribute, put=False, default=list),
}


def not_found(port_id):
    return errors.NotFound("Port %s could not be found." % port_id, type="PortNotFound")


def visible(context: Asker, port: sqlite3.Row, network: sqlite3.Row | None = None) -> bool:
    """Neutron's get_port: the port's project, its network's owner, admins."""
    if common.owns(context, port):
        return True
    return network is not None and network["project_id"] == context.project_id


def row(db: sqlite3.Connection, port_id: str) -> sqlite3.Row | None:
    return db.execute("SELECT * FROM network_ports WHERE id = ?", (port_id,)).fetchone()


def get(db, context, port_id):
    found = row(db, port_id)
    if found is None or not visible(context, found, networks.row(db, found["network_id"])):
        raise not_found(port_id)
    return found


def fixed_ips(db: sqlite3.Connection, port_id: str) -> list[dict[str, str]]:
    return [
        {"subnet_id": r["subnet_id"], "ip_address": r["ip_address"]}
        for r in db.execute(
            "SELECT subnet_id, ip_address FROM network_port_ips WHERE port_id = ? ORDER BY rowid",
            (port_id,),
        )
    ]


def group_ids(db: sqlite3.Connection, port_id: str) -> list[str]:
    return [
        r[0]
        for r in db.execute(
            "SELECT security_group_id FROM network_port_security_groups WHERE port_id = ?"
            " ORDER BY rowid",
            (port_id,),
        )
    ]


def address_pairs(db: sqlite3.Connection, port_id: str | None = None) -> dict[str, list]:
    """``{port id: its allowed address pairs}`` of one port, or of all."""
    found: dict[str, list[dict[str, str]]] = {}
    for r in db.execute(
        "SELECT port_id, mac_address, ip_address FROM network_port_address_pairs"
        " WHERE ? IS NULL OR port_id = ? ORDER BY rowid",
        (port_id, port_id),
    ):
        found.setdefault(r[0], []).append({"mac_address": r[1], "ip_address": r[2]})
    return found


def view(db, port, admin=False, ips=None, groups=None, pairs=None):
    """The port's body; ``ips``/``groups``/``pairs``: its fixed IPs,
    security group ids and allowed address pairs when already read (a
    listing reads every port's at once)."""
    if pairs is None:
        pairs = address_pairs(db, port["id"]).get(port["id"], [])
    body = common.standard(
        port,
        {
            "name": port["name"],
            "network_id": port["network_id"],
            "mac_address": port["mac_address"],
            "admin_state_up": bool(port["admin_state_up"]),
            "status": port["status"],
            "device_id": port["device_id"],
            "device_owner": port["device_owner"],
            "fixed_ips": fixed_ips(db, port["id"]) if ips is None else ips,
            "security_groups": group_ids(db, port["id"]) if groups is None else groups,
            "port_security_enabled": bool(port["port_security_enabled"]),
            "allowed_address_pairs": pairs,
            "extra_dhcp_opts": [],
            "binding:vnic_type": "normal",
        },
    )
    if admin:
        body["binding:host_id"] = port["binding_host"]
        body["binding:vif_type"] = "ovs" if port["binding_host"] else "unbound"
        body["binding:vif_details"] = {}
        body["binding:profile"] = {}
    return body


def listing(db, context):
    owners = {r["id"]: r for r in db.execute("SELECT id, project_id FROM network_networks")}
    ips: dict[str, list[dict[str, str]]] = {}
    groups: dict[str, list[str]] = {}
    for r in db.execute(
        "SELECT port_id, subnet_id, ip_address FROM network_port_ips ORDER BY rowid"
    ):
        ips.setdefault(r["port_id"], []).append(
            {"subnet_id": r["subnet_id"], "ip_address": r["ip_address"]}
        )
    for r in db.execute(
        "SELECT port_id, security_group_id FROM network_port_security_groups ORDER BY rowid"
    ):
        groups.setdefault(r["port_id"], []).append(r["security_group_id"])
    pairs = address_pairs(db)
    return [
        view(
            db,
            r,
            context.is_admin,
            ips.get(r["id"], []),
            groups.get(r["id"], []),
            pairs.get(r["id"], []),
        )
        for r in db.execute("SELECT * FROM network_ports ORDER BY seq")
        if visible(context, r, owners.get(r["network_id"]))
    ]


def show(db, context, port_id):
    return view(db, get(db, context, port_id), context.is_admin)


def by_device(db: sqlite3.Connection, device_id: str, project_id: str) -> list[sqlite3.Row]:
    """The ports of ``project_id`` bound to ``device_id`` (a server), in
    creation order: nova's ``list_ports(tenant_id=, device_id=)``, so that
    another project's port naming the server is none of the server's."""
    return db.execute(
        "SELECT * FROM network_ports WHERE device_id = ? AND project_id = ? ORDER BY seq",
        (device_id, project_id),
    ).fetchall()


def _new_mac(db, network_id):
    for _ in range(16):
        mac = "fa:16:3e:%02x:%02x:%02x" % tuple(secrets.token_bytes(3))
        taken = db.execute(
            "SELECT 1 FROM network_ports WHERE network_id = ? AND mac_address = ?",
            (network_id, mac),
        ).fetchone()
        if taken is None:
            return mac
    raise errors.Conflict(
        "Unable to generate unique mac on network %s." % network_id,
        type="MacAddressGenerationFailure",
    )


def _allocate(db, network, port_id, requested):
    """Allocate ``requested`` (``[{"subnet_id"?, "ip_address"?}]``, None:
    :func:`_allocate_default`) to ``port_id``."""
    nets = db.execute(
        "SELECT * FROM network_subnets WHERE network_id = ? ORDER BY seq", (network["id"],)
    ).fetchall()
    if requested is None:
        _allocate_default(db, nets, port_id)
        return
    for item in requested:
        if not isinstance(item, dict) or not set(item) <= {"subnet_id", "ip_address"}:
            raise attrs.bad_request(
                "Invalid input for fixed_ips. Reason: Invalid data format for fixed IP: "
                "'%s'." % (item,)
            )
        address = item.get("ip_address")
        if address is not None:
            address = attrs.ip_address("fixed_ips", address)
        subnet_id = item.get("subnet_id")
        if subnet_id is not None:
            subnet = next((s for s in nets if s["id"] == subnet_id), None)
            if subnet is None and not subnets.exists(db, subnet_id):
                raise subnets.not_found(subnet_id)
            if subnet is None:
                raise errors.BadRequest(
                    "Invalid input for operation: Failed to create port on network %s, "
                    "because fixed_ips included invalid subnet %s." % (network["id"], subnet_id),
                    type="InvalidInput",
                )
        elif address is not None:
            subnet = next((s for s in nets if subnets.in_subnet(s, address)), None)
            if subnet is None:
                raise errors.BadRequest(
                    "IP address %s is not a valid IP for any of the subnets on the specified "
                    "network." % address,
                    type="InvalidIpForNetwork",
                )
        else:
            raise attrs.bad_request(
                "Invalid input for fixed_ips. Reason: Invalid data format for fixed IP: "
                "'%s'." % (item,)
            )
        subnets.allocate(db, subnet, port_id, address)


def _allocate_default(db, nets, port_id):
    """A port's addresses when it asks for none (neutron's IPAM, with
    ``ipv6_utils.is_auto_address_subnet``): one of the first IPv4 subnet,
    one of the first IPv6 subnet without automatic addressing, and the
    EUI-64 address of the port's MAC on every SLAAC or DHCPv6-stateless
    subnet."""
    (mac,) = db.execute(
        "SELECT mac_address FROM network_ports WHERE id = ?", (port_id,)
    ).fetchone()
    for version in (4, 6):
        first = next(
            (s for s in nets if s["ip_version"] == version and not subnets.auto_address(s)), None
        )
        if first is not None:
            subnets.allocate(db, first, port_id)
    for subnet in nets:
        if subnets.auto_address(subnet):
            subnets.allocate(db, subnet, port_id, subnets.eui64(subnet, mac))


def _set_groups(db, context, port_id, project_id, requested, enabled):
    db.execute("DELETE FROM network_port_security_groups WHERE port_id = ?", (port_id,))
    if requested is None:
        requested = [security_groups.ensure_default(db, project_id)] if enabled else []
    for group_id in dict.fromkeys(requested):
        group = db.execute(
            "SELECT project_id FROM network_security_groups WHERE id = ?", (group_id,)
        ).fetchone()
        if group is None or (group["project_id"] != project_id and not context.is_admin):
            raise security_groups.not_found(group_id)
        db.execute(
            "INSERT INTO network_port_security_groups (port_id, security_group_id) VALUES (?, ?)",
            (port_id, group_id),
        )


# The port attributes neutron's policy enforces (``enforce_policy``), in the
# order of neutron's attribute map: neutron-lib's port definition, then the
# binding and port-security extensions (loaded in file-name order).
_ENFORCED = (
    "mac_address",
    "fixed_ips",
    "device_id",
    "device_owner",
    "allowed_address_pairs",
    "binding:host_id",
    "port_security_enabled",
)
# the enforced attributes with a default: a create giving it is unchecked
# (``policy._is_attribute_explicitly_set``)
_DEFAULTS = {"device_id": "", "device_owner": ""}


def _rules(context, network, project):
    """Neutron's port rules (``neutron/conf/policies/port.py``) for a
    member ``context`` on ``network``, for a port of ``project``:
    ``{rule: allowed}``; a rule not named is not registered (oslo.policy
    fails it)."""
    owner = network["project_id"] == context.project_id
    shared = owner or bool(network["shared"])
    member = project == context.project_id
    return {
        "create_port": shared,
        "create_port:mac_address": owner,
        "create_port:fixed_ips": shared,
        "create_port:fixed_ips:ip_address": owner,
        "create_port:fixed_ips:subnet_id": shared,
        "create_port:device_id": member,
        "create_port:binding:host_id": False,
        "create_port:port_security_enabled": owner,
        "create_port:allowed_address_pairs": owner,
        "create_port:allowed_address_pairs:mac_address": owner,
        "create_port:allowed_address_pairs:ip_address": owner,
        "update_port": member,
        "update_port:fixed_ips": owner,
        "update_port:fixed_ips:ip_address": owner,
        "update_port:fixed_ips:subnet_id": shared,
        "update_port:device_id": member,
        "update_port:mac_address": False,
        "update_port:binding:host_id": False,
        "update_port:port_security_enabled": owner,
        "update_port:allowed_address_pairs": owner,
        "update_port:allowed_address_pairs:mac_address": owner,
        "update_port:allowed_address_pairs:ip_address": owner,
        # ``not rule:network_device``, else the network's owner
        "network_device": owner,
    }


def enforce(
    context: Asker,
    action: str,
    network: sqlite3.Row,
    project: str | None,
    given: Mapping[str, Any],
) -> None:
    """Neutron's policy check of a port create or update
    (``neutron.policy._build_match_rule``): ``action`` and a rule per
    enforced attribute ``given`` sets (``fixed_ips``: one per key of each
    entry), all required; a refusal is neutron's 403 naming the whole rule
    as oslo.policy prints it. Admins pass. Nova's port calls go through it
    too, with the user's context and the body nova sends."""
    if context.is_admin:
        return
    rules = _rules(context, network, project)
    match, allowed = "rule:%s" % action, rules[action]
    for attr in _ENFORCED:
        if attr not in given:
            continue
        value = given[attr]
        if action == "create_port" and _DEFAULTS.get(attr, object()) == value:
            continue
        name = "%s:%s" % (action, attr)
        if attr == "device_owner":
            ok = not value.startswith("network:") or rules["network_device"]
        else:
            ok = rules.get(name, False)
        attr_rule = "rule:" + name
        if isinstance(value, list):  # fixed_ips, allowed_address_pairs
            keys = [key for item in value if isinstance(item, dict) for key in item]
            if keys:
                ok = ok and all(rules.get("%s:%s" % (name, key), False) for key in keys)
                attr_rule = "(%s and (%s))" % (
                    attr_rule,
                    " and ".join("rule:%s:%s" % (name, key) for key in keys),
                )
        allowed = allowed and ok
        match = "(%s and %s)" % (match, attr_rule)
    if not allowed:
        raise common.policy_denied(match)


def create(db, context, body):
    values = attrs.parse(body, "port", SPEC, create=True)
    project = common.check_project(context, values, "create_port")
    network = networks.get(db, context, values["network_id"])
    given = {key: values[key] for key in body["port"] if key in values}
    enforce(context, "create_port", network, project, given)
    values["port_security_enabled"] = _port_security(network, values)
    pairs = values["allowed_address_pairs"]
    if pairs and not values["port_security_enabled"]:
        raise _pairs_need_port_security()
    if values["security_groups"] and not values["port_security_enabled"]:
        raise _groups_need_port_security()
    port_id = insert(db, context, network, project, values)
    if pairs:
        _set_address_pairs(db, port_id, pairs)
    return show(db, context, port_id)


def _port_security(network: sqlite3.Row, values: Mapping[str, Any]) -> bool:
    """portsecurity_db's ``_determine_port_security_and_has_ip``: none for
    a network device's port (``is_port_trusted``), else the port's own,
    else on for one given addresses and groups, else the network's."""
    if values.get("device_owner", "").startswith("network:"):
        return False
    if values.get("port_security_enabled") is not None:
        return bool(values["port_security_enabled"])
    if values.get("fixed_ips") and values.get("security_groups") is not None:
        return True
    return bool(network["port_security_enabled"])


def _groups_need_port_security():
    """portsecurity's ``PortSecurityAndIPRequiredForSecurityGroups``."""
    return errors.BadRequest(
        "Port security must be enabled and port must have an IP address in order to use "
        "security groups.",
        type="PortSecurityAndIPRequiredForSecurityGroups",
    )


def _pairs_need_port_security():
    return errors.Conflict(
        "Port Security must be enabled in order to have allowed address pairs on a port.",
        type="AddressPairAndPortSecurityRequired",
    )


def _set_address_pairs(db, port_id, pairs):
    """A port's allowed address pairs become ``pairs`` (neutron's
    ``_process_create_allowed_address_pairs``): a pair without a MAC takes
    the port's; the texts are kept as given; a pair repeated once the MAC
    is filled in is neutron's 400."""
    port = row(db, port_id)
    assert port is not None  # just created or updated
    mac = port["mac_address"]
    db.execute("DELETE FROM network_port_address_pairs WHERE port_id = ?", (port_id,))
    for pair in pairs:
        pair_mac = pair.get("mac_address", mac)
        try:
            db.execute(
                "INSERT INTO network_port_address_pairs (port_id, mac_address, ip_address)"
                " VALUES (?, ?, ?)",
                (port_id, pair_mac, pair["ip_address"]),
            )
        except sqlite3.IntegrityError:
            raise errors.BadRequest(
                "Request contains duplicate address pair: mac_address %s ip_address %s."
                % (pair_mac, pair["ip_address"]),
                type="DuplicateAddressPairInRequest",
            ) from None


def insert(
    db: sqlite3.Connection,
    context: Asker,
    network: sqlite3.Row,
    project: str | None,
    values: Mapping[str, Any],
) -> str:
    """Insert a port (API create, nova's boot); returns its id."""
    if project and not values.get("device_owner", "").startswith("network:"):
        quotas.check(db, project, "port")
    port_id = clock.new_uuid()
    stamp = common.now()
    mac = values.get("mac_address")
    if mac is not None:
        _check_mac_free(db, network["id"], mac)
    else:
        mac = _new_mac(db, network["id"])
    host = values.get("binding:host_id") or ""
    secured = _port_security(network, values)  # nova's ports and the L3 ones too
    db.execute(
        "INSERT INTO network_ports (id, network_id, project_id, name, description, mac_address,"
        " admin_state_up, device_id, device_owner, status, binding_host, port_security_enabled,"
        " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            port_id,
            network["id"],
            project,
            values.get("name", ""),
            values.get("description", ""),
            mac,
            int(values.get("admin_state_up", True)),
            values.get("device_id", ""),
            values.get("device_owner", ""),
            "ACTIVE" if host else "DOWN",
            host,
            int(secured),
            stamp,
            stamp,
        ),
    )
    _allocate(db, network, port_id, values.get("fixed_ips"))
    owner = values.get("device_owner", "")
    if not owner.startswith("network:"):
        _set_groups(
            db,
            context,
            port_id,
            project,
            values.get("security_groups"),
            secured,
        )
    return port_id


def _check_mac_free(db, network_id, mac):
    taken = db.execute(
        "SELECT 1 FROM network_ports WHERE network_id = ? AND mac_address = ?", (network_id, mac)
    ).fetchone()
    if taken is not None:
        raise errors.Conflict(
            "Unable to complete operation for network %s. The mac address %s is in use."
            % (network_id, mac),
            type="MacAddressInUse",
        )


def update(db, context, port_id, body):
    values = attrs.parse(body, "port", SPEC, create=False)
    # get() lets through whoever may see the port (a 404 otherwise);
    # neutron's update_port policy then wants its project or an admin
    port = get(db, context, port_id)
    network = networks.existing(db, port["network_id"])
    enforce(context, "update_port", network, port["project_id"], values)
    # neutron's _portsec_ext_port_update_processing: no pairs without port security
    secured = values.get("port_security_enabled", bool(port["port_security_enabled"]))
    if not secured:
        if values.get("allowed_address_pairs"):
            raise _pairs_need_port_security()
        if "allowed_address_pairs" not in values and address_pairs(db, port_id):
            raise _pairs_need_port_security()
        if values.get("security_groups"):
            raise _groups_need_port_security()
        if "security_groups" not in values and group_ids(db, port_id):
            raise errors.Conflict(
                "Port has security group associated. Cannot disable port security or IP "
                "address until security group is removed.",
                type="PortSecurityPortHasSecurityGroup",
            )
    if values.get("mac_address") not in (None, port["mac_address"]):
        # an admin's (update_port:mac_address); neutron refuses a null MAC
        _check_mac_free(db, port["network_id"], values["mac_address"])
    apply_update(db, context, port, values)
    if "allowed_address_pairs" in values:
        _set_address_pairs(db, port_id, values["allowed_address_pairs"])
    return show(db, context, port_id)


def apply_update(
    db: sqlite3.Connection, context: Asker | None, port: sqlite3.Row, values: Mapping[str, Any]
) -> None:
    """Apply checked ``values`` to ``port`` (API update, nova's binds)."""
    port_id = port["id"]
    columns = {
        "name": "name",
        "description": "description",
        "admin_state_up": "admin_state_up",
        "device_id": "device_id",
        "device_owner": "device_owner",
        "mac_address": "mac_address",
        "port_security_enabled": "port_security_enabled",
        "binding:host_id": "binding_host",
    }
    for key, column in columns.items():
        if key in values:
            value = values[key]
            db.execute(
                "UPDATE network_ports SET %s = ? WHERE id = ?" % column,
                (int(value) if isinstance(value, bool) else value, port_id),
            )
    if "binding:host_id" in values:
        db.execute(
            "UPDATE network_ports SET status = ? WHERE id = ?",
            ("ACTIVE" if values["binding:host_id"] else "DOWN", port_id),
        )
    if values.get("fixed_ips") is not None:
        db.execute("DELETE FROM network_port_ips WHERE port_id = ?", (port_id,))
        _allocate(db, networks.row(db, port["network_id"]), port_id, values["fixed_ips"])
        _drop_stale_floating_ips(db, port_id)
    if "security_groups" in values:
        _set_groups(
            db, context, port_id, port["project_id"], values["security_groups"] or [], True
        )
    common.bump(db, "network_ports", port_id)


def _drop_stale_floating_ips(db, port_id):
    addresses = [ip["ip_address"] for ip in fixed_ips(db, port_id)]
    db.execute(
        "UPDATE network_floating_ips SET port_id = NULL, fixed_ip_address = NULL,"
        " router_id = NULL, status = 'DOWN' WHERE port_id = ? AND fixed_ip_address NOT IN (%s)"
        % ",".join("?" * len(addresses)),
        [port_id, *addresses],
    )


# the owners of ports the L3 plugin keeps (its ``router_device_owners``)
L3_OWNERS = (
    "network:router_interface",
    "network:router_gateway",
    "network:floatingip",
    "network:router_interface_distributed",
    "network:ha_router_replicated_interface",
)


def delete(db, context, port_id):
    port = get(db, context, port_id)  # whoever sees the port may delete it (see update)
    if port["device_owner"] in L3_OWNERS:
        # l3_db's prevent_l3_port_deletion (the router or floating IP
        # exists while its port does), for an admin too
        raise errors.Conflict(
            "Port %s cannot be deleted directly via the port API: has device owner %s."
            % (port_id, port["device_owner"]),
            type="ServicePortInUse",
        )
    remove(db, port_id)


def remove(db: sqlite3.Connection, port_id: str) -> None:
    """Delete a port: its addresses are released, its floating IPs
    disassociated (neutron's ``disassociate_floatingips``)."""
    db.execute(
        "UPDATE network_floating_ips SET port_id = NULL, fixed_ip_address = NULL,"
        " router_id = NULL, status = 'DOWN', updated_at = ? WHERE port_id = ?",
        (common.now(), port_id),
    )
    db.execute("DELETE FROM network_ports WHERE id = ?", (port_id,))
