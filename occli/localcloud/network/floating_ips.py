"""Floating IPs: addresses of an external network (``public``), held by
a ``network:floatingip`` port, associated with a port's fixed IPv4
address through the router joining its subnet to the external network
(:func:`.routers.for_floating_ip`)."""

import ipaddress
import sqlite3
from collections.abc import Collection
from collections.abc import Mapping
from typing import Any

from occli.localcloud import common as clock
from occli.localcloud import errors
from occli.localcloud.common import Asker
from occli.localcloud.network import attributes as attrs
from occli.localcloud.network import common
from occli.localcloud.network import networks
from occli.localcloud.network import ports
from occli.localcloud.network import quotas
from occli.localcloud.network import routers

ATTRIBUTES = (
    "created_at",
    "description",
    "fixed_ip_address",
    "floating_ip_address",
    "floating_network_id",
    "id",
    "port_details",
    "port_id",
    "project_id",
    "revision_number",
    "router_id",
    "status",
    "tags",
    "tenant_id",
    "updated_at",
)
SORT_KEYS = (
    "created_at",
    "description",
    "fixed_ip_address",
    "floating_ip_address",
    "floating_network_id",
    "id",
    "port_id",
    "project_id",
    "revision_number",
    "router_id",
    "status",
    "tenant_id",
    "updated_at",
)

SPEC = {
    "floating_network_id": attrs.Attr(attrs.uuid, put=False, default=attrs.REQUIRED),
    "floating_ip_address": attrs.Attr(attrs.ip_or_none, put=False, default=None),
    "subnet_id": attrs.Attr(attrs.uuid_or_none, put=False, default=None),
    "port_id": attrs.Attr(attrs.uuid_or_none, default=None),
    "fixed_ip_address": attrs.Attr(attrs.ip_or_none, default=None),
    "description": attrs.Attr(attrs.string(attrs.DESCRIPTION_MAX_LEN), default=""),
    # set through /tags only (tagging.py: allow_post, allow_put False)
    "tags": attrs.Attr(attrs.anything, post=False, put=False),
}


def not_found(fip_id):
    return errors.NotFound("Floating IP %s could not be found" % fip_id, type="FloatingIPNotFound")


def _bad(message):
    return errors.BadRequest("Bad floatingip request: %s." % message, type="BadRequest")


def get(db, context, fip_id):
    found = db.execute("SELECT * FROM network_floating_ips WHERE id = ?", (fip_id,)).fetchone()
    if found is None or not common.owns(context, found):
        raise not_found(fip_id)
    return found


def view(db, fip, associated=None):
    """The floating IP's body; ``associated``: ``{port id: port row}`` of
    the associated ports when already read (a listing)."""
    details = None
    if fip["port_id"]:
        if associated is None:
            port = ports.row(db, fip["port_id"])
        else:
            port = associated.get(fip["port_id"])
        if port is not None:
            details = {
                "name": port["name"],
                "network_id": port["network_id"],
                "mac_address": port["mac_address"],
                "admin_state_up": bool(port["admin_state_up"]),
                "status": port["status"],
                "device_id": port["device_id"],
                "device_owner": port["device_owner"],
            }
    return common.standard(
        fip,
        {
            "floating_network_id": fip["floating_network_id"],
            "floating_ip_address": fip["floating_ip_address"],
            "port_id": fip["port_id"],
            "fixed_ip_address": fip["fixed_ip_address"],
            "router_id": fip["router_id"],
            "status": fip["status"],
            "port_details": details,
        },
    )


def listing(db, context):
    associated = {
        r["id"]: r
        for r in db.execute(
            "SELECT * FROM network_ports WHERE id IN"
            " (SELECT port_id FROM network_floating_ips WHERE port_id IS NOT NULL)"
        )
    }
    return [
        view(db, r, associated)
        for r in db.execute("SELECT * FROM network_floating_ips ORDER BY seq")
        if common.owns(context, r)
    ]


def show(db, context, fip_id):
    return view(db, get(db, context, fip_id))


def _association(db, context, port_id, fixed_address, external_id, fip_id=None):
    """``(port_id, fixed_ip_address, router_id)`` for an association to a
    floating IP of ``external_id``, checked as neutron's
    ``_check_and_get_fip_assoc`` does."""
    port = ports.get(db, context, port_id)
    if not common.owns(context, port):
        raise ports.not_found(port_id)
    network = networks.existing(db, port["network_id"])
    v4 = [
        ip["ip_address"]
        for ip in ports.fixed_ips(db, port_id)
        if ipaddress.ip_address(ip["ip_address"]).version == 4
    ]
    if fixed_address is not None:
        if fixed_address not in v4:
            raise _bad("Port %s does not have fixed ip %s" % (port_id, fixed_address))
    elif not v4:
        raise _bad("No IPv4 addresses found on port %s" % port_id)
    elif len(v4) > 1:
        raise _bad(
            "Port %s has multiple fixed IPv4 addresses.  Must provide a specific IPv4 address "
            "when assigning a floating IP" % port_id
        )
    else:
        fixed_address = v4[0]
    if network["external"]:
        raise _bad("Port %s is on an external network and cannot have a floating IP" % port_id)
    taken = db.execute(
        "SELECT * FROM network_floating_ips WHERE port_id = ? AND fixed_ip_address = ?"
        " AND id IS NOT ?",
        (port_id, fixed_address, fip_id),
    ).fetchone()
    if taken is not None:
        raise errors.Conflict(
            "Cannot associate floating IP %s (%s) with port %s using fixed IP %s, as that fixed "
            "IP already has a floating IP on external network %s."
            % (
                taken["floating_ip_address"],
                taken["id"],
                port_id,
                fixed_address,
                taken["floating_network_id"],
            ),
            type="FloatingIPPortAlreadyAssociated",
        )
    return port_id, fixed_address, routers.for_floating_ip(db, port, fixed_address, external_id)


def create(db, context, body):
    values = attrs.parse(body, "floatingip", SPEC, create=True)
    project = common.check_project(context, values, "create_floatingip")
    network = networks.get(db, context, values["floating_network_id"])
    if not network["external"]:
        raise _bad("Network %s is not a valid external network" % network["id"])
    if values["floating_ip_address"] is not None and not context.is_admin:
        raise common.policy_denied(
            "(rule:create_floatingip and rule:create_floatingip:floating_ip_address)"
        )
    return show(db, context, allocate(db, context, network, project, values))


def allocate(
    db: sqlite3.Connection,
    context: Asker,
    network: sqlite3.Row,
    project: str,
    values: Mapping[str, Any],
) -> str:
    """Make a floating IP on ``network`` for ``project`` (API create,
    nova's proxies); returns its id."""
    quotas.check(db, project, "floatingip")
    fip_id = clock.new_uuid()
    fixed = None
    if values.get("subnet_id") is not None:
        fixed = [{"subnet_id": values["subnet_id"]}]
    if values.get("floating_ip_address") is not None:
        fixed = [dict(fixed[0] if fixed else {}, ip_address=values["floating_ip_address"])]
    port_id = ports.insert(
        db,
        context,
        network,
        "",
        {"device_id": fip_id, "device_owner": "network:floatingip", "fixed_ips": fixed},
    )
    address = next((ip["ip_address"] for ip in ports.fixed_ips(db, port_id)), None)
    if address is None:
        raise errors.Conflict(
            "No more IP addresses available on network %s." % network["id"],
            type="IpAddressGenerationFailure",
        )
    association = (None, None, None)
    if values.get("port_id") is not None:
        association = _association(
            db, context, values["port_id"], values.get("fixed_ip_address"), network["id"]
        )
    stamp = common.now()
    db.execute(
        "INSERT INTO network_floating_ips (id, project_id, floating_network_id,"
        " floating_port_id, floating_ip_address, port_id, fixed_ip_address, router_id, status,"
        " description, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            fip_id,
            project,
            network["id"],
            port_id,
            address,
            association[0],
            association[1],
            association[2],
            "ACTIVE" if association[0] else "DOWN",
            values.get("description", ""),
            stamp,
            stamp,
        ),
    )
    return fip_id


def update(db, context, fip_id, body):
    values = attrs.parse(body, "floatingip", SPEC, create=False)
    fip = get(db, context, fip_id)
    if "port_id" in values:
        associate(db, context, fip, values["port_id"], values.get("fixed_ip_address"))
    if "description" in values:
        db.execute(
            "UPDATE network_floating_ips SET description = ? WHERE id = ?",
            (values["description"], fip_id),
        )
    common.bump(db, "network_floating_ips", fip_id)
    return show(db, context, fip_id)


def associate(
    db: sqlite3.Connection,
    context: Asker,
    fip: sqlite3.Row,
    port_id: str | None,
    fixed_address: str | None = None,
) -> None:
    """Associate ``fip`` with ``port_id`` (None: disassociate)."""
    if port_id is None:
        port, fixed, router = None, None, None
    else:
        port, fixed, router = _association(
            db, context, port_id, fixed_address, fip["floating_network_id"], fip["id"]
        )
    db.execute(
        "UPDATE network_floating_ips SET port_id = ?, fixed_ip_address = ?, router_id = ?,"
        " status = ? WHERE id = ?",
        (port, fixed, router, "ACTIVE" if port else "DOWN", fip["id"]),
    )


def delete(db: sqlite3.Connection, context: Asker, fip_id: str) -> None:
    fip = get(db, context, fip_id)
    db.execute("DELETE FROM network_floating_ips WHERE id = ?", (fip_id,))
    ports.remove(db, fip["floating_port_id"])


def release_on_network(db: sqlite3.Connection, context: Asker, network_id: str) -> None:
    """Delete the floating IPs of ``network_id`` that no port holds, with
    their ports: l3_db's ``delete_disassociated_floatingips``, which
    neutron runs before deleting a network (external_net_db's
    BEFORE_DELETE handler) in transactions of its own, so that they are
    gone even when the delete then fails (neutron-29-external.json)."""
    networks.writable(db, context, network_id, "delete")
    for fip in db.execute(
        "SELECT id, floating_port_id FROM network_floating_ips"
        " WHERE floating_network_id = ? AND port_id IS NULL ORDER BY seq",
        (network_id,),
    ).fetchall():
        db.execute("DELETE FROM network_floating_ips WHERE id = ?", (fip["id"],))
        ports.remove(db, fip["floating_port_id"])


def by_port(db: sqlite3.Connection, port_ids: Collection[str]) -> dict[str, list[str]]:
    """``{port_id: [floating addresses]}`` of the ports ``port_ids``."""
    found: dict[str, list[str]] = {}
    if not port_ids:
        return found
    for r in db.execute(
        "SELECT port_id, floating_ip_address FROM network_floating_ips WHERE port_id IN (%s)"
        " ORDER BY seq" % ",".join("?" * len(port_ids)),
        list(port_ids),
    ):
        found.setdefault(r["port_id"], []).append(r["floating_ip_address"])
    return found


# -- what nova's proxies read (compute/api/network_proxies.py) ---------------------------


def row(db: sqlite3.Connection, fip_id: str) -> sqlite3.Row | None:
    """The floating IP row ``fip_id`` as stored, or None."""
    return db.execute("SELECT * FROM network_floating_ips WHERE id = ?", (fip_id,)).fetchone()


def of_project(db: sqlite3.Connection, project_id: str) -> list[sqlite3.Row]:
    """The floating IP rows of ``project_id``, in creation order (nova's
    os-floating-ips list: a project's own, admins included)."""
    return db.execute(
        "SELECT * FROM network_floating_ips WHERE project_id = ? ORDER BY seq", (project_id,)
    ).fetchall()
