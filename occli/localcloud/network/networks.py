"""Networks: who sees which (own, shared, external), create/update/delete
with neutron's policy on ``shared`` and ``router:external``."""

import json
import sqlite3
from typing import Any

from occli.localcloud import common as clock
from occli.localcloud import errors
from occli.localcloud.common import Asker
from occli.localcloud.network import address_scopes
from occli.localcloud.network import attributes as attrs
from occli.localcloud.network import availability_zones
from occli.localcloud.network import common
from occli.localcloud.network import quotas

ATTRIBUTES = (
    "admin_state_up",
    "availability_zone_hints",
    "availability_zones",
    "created_at",
    "description",
    "id",
    "ipv4_address_scope",
    "ipv6_address_scope",
    "is_default",
    "mtu",
    "name",
    "port_security_enabled",
    "project_id",
    "revision_number",
    "router:external",
    "shared",
    "status",
    "subnets",
    "tags",
    "tenant_id",
    "updated_at",
)
SORT_KEYS = (
    "admin_state_up",
    "created_at",
    "description",
    "id",
    "mtu",
    "name",
    "project_id",
    "revision_number",
    "router:external",
    "shared",
    "status",
    "tenant_id",
    "updated_at",
)

SPEC = {
    "name": attrs.Attr(attrs.string(), default=""),
    "description": attrs.Attr(attrs.string(attrs.DESCRIPTION_MAX_LEN), default=""),
    "admin_state_up": attrs.Attr(attrs.boolean, default=True),
    "shared": attrs.Attr(attrs.boolean, default=False),
    "router:external": attrs.Attr(attrs.boolean, default=False),
    "mtu": attrs.Attr(attrs.integer(68, 9000), default=1500),
    "port_security_enabled": attrs.Attr(attrs.boolean, default=True),
    "availability_zone_hints": attrs.Attr(availability_zones.hints, put=False, default=list),
    # set through /tags only (tagging.py: allow_post, allow_put False)
    "tags": attrs.Attr(attrs.anything, post=False, put=False),
}
# the provider extension's attributes (neutron-lib's providernet): not
# served locally (no segments: an admin's are unrecognized, 400), but known
# to the policy, whose admin-only rules refuse them to a member (403), as
# Neutron 29 does (neutron-29-networks.json's net_create_provider_member)
_UNSET = object()
PROVIDER_SPEC = {
    key: attrs.Attr(attrs.anything, default=_UNSET)
    for key in ("provider:network_type", "provider:physical_network", "provider:segmentation_id")
}


def not_found(network_id):
    return errors.NotFound("Network %s could not be found." % network_id, type="NetworkNotFound")


def visible(context: Asker, row: sqlite3.Row) -> bool:
    return common.owns(context, row) or bool(row["shared"]) or bool(row["external"])


def row(db: sqlite3.Connection, network_id: str) -> sqlite3.Row | None:
    return db.execute("SELECT * FROM network_networks WHERE id = ?", (network_id,)).fetchone()


def existing(db: sqlite3.Connection, network_id: str) -> sqlite3.Row:
    """The row of network ``network_id``, which must exist (a port's or a
    subnet's network: the foreign key keeps it); LookupError if not."""
    found = row(db, network_id)
    if found is None:
        raise LookupError("no network %s" % network_id)
    return found


def get(db, context, network_id):
    """The network row ``context`` may see; NetworkNotFound otherwise."""
    found = row(db, network_id)
    if found is None or not visible(context, found):
        raise not_found(network_id)
    return found


def view(
    db: sqlite3.Connection, network: sqlite3.Row, subnet_ids: list[str] | None = None
) -> dict[str, Any]:
    if subnet_ids is None:
        subnet_ids = [
            r["id"]
            for r in db.execute(
                "SELECT id FROM network_subnets WHERE network_id = ? ORDER BY seq",
                (network["id"],),
            )
        ]
    body = common.standard(
        network,
        {
            "name": network["name"],
            "admin_state_up": bool(network["admin_state_up"]),
            "status": network["status"],
            "shared": bool(network["shared"]),
            "router:external": bool(network["external"]),
            "mtu": network["mtu"],
            "subnets": subnet_ids,
            "availability_zone_hints": json.loads(network["availability_zone_hints"]),
            "availability_zones": ["nova"],
            "port_security_enabled": bool(network["port_security_enabled"]),
            # ML2's vlan-transparent and qinq extensions (neutron 29)
            "vlan_transparent": False,
            "qinq": False,
        },
    )
    # auto-allocated-topology extends external networks only (a create's
    # answer has it for any: see create)
    if network["external"]:
        body["is_default"] = bool(network["is_default"])
    body.update(address_scopes.of_network(db, network["id"]))
    return body


def listing(db: sqlite3.Connection, context: Asker) -> list[dict[str, Any]]:
    """The views of every network ``context`` sees, in creation order."""
    subnets: dict[str, list[str]] = {}
    for r in db.execute("SELECT id, network_id FROM network_subnets ORDER BY seq"):
        subnets.setdefault(r["network_id"], []).append(r["id"])
    return [
        view(db, r, subnets.get(r["id"], []))
        for r in db.execute("SELECT * FROM network_networks ORDER BY seq")
        if visible(context, r)
    ]


def show(db, context, network_id):
    return view(db, get(db, context, network_id))


def insert(db, project_id, name, shared=False, external=False, network_id=None, **extra):
    """Insert a network row (seed and create); returns its id."""
    stamp = common.now()
    network_id = network_id or clock.new_uuid()
    db.execute(
        "INSERT INTO network_networks (id, project_id, name, description, admin_state_up,"
        " shared, external, is_default, mtu, port_security_enabled, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            network_id,
            project_id,
            name,
            extra.get("description", ""),
            int(extra.get("admin_state_up", True)),
            int(shared),
            int(external),
            int(extra.get("is_default", False)),
            extra.get("mtu", 1500),
            int(extra.get("port_security_enabled", True)),
            stamp,
            stamp,
        ),
    )
    return network_id


def create(db, context, body):
    spec = SPEC if context.is_admin else {**SPEC, **PROVIDER_SPEC}
    values = attrs.parse(body, "network", spec, create=True)
    project = common.check_project(context, values, "create_network")
    for attr in PROVIDER_SPEC:
        if values.pop(attr, _UNSET) is not _UNSET:
            raise common.policy_denied("(rule:create_network and rule:create_network:%s)" % attr)
    for attr in ("shared", "router:external"):
        if values[attr] and not context.is_admin:
            raise common.policy_denied("(rule:create_network and rule:create_network:%s)" % attr)
    availability_zones.check_hints(values["availability_zone_hints"])
    quotas.check(db, project, "network")
    network_id = insert(
        db,
        project,
        values["name"],
        shared=values["shared"],
        external=values["router:external"],
        description=values["description"],
        admin_state_up=values["admin_state_up"],
        mtu=values["mtu"],
        port_security_enabled=values["port_security_enabled"],
    )
    db.execute(
        "UPDATE network_networks SET availability_zone_hints = ? WHERE id = ?",
        (json.dumps(values["availability_zone_hints"]), network_id),
    )
    # neutron 29's create answer has is_default for every network
    # (tests/fixtures/network/realcloud/neutron-29-networks.json)
    created = show(db, context, network_id)
    created.setdefault("is_default", False)
    return created


def writable(db, context, network_id, action):
    """The network ``context`` may change: NotFound when it cannot even
    see it, neutron's 403 when it sees it (shared, external) only."""
    found = get(db, context, network_id)
    if not common.owns(context, found):
        raise common.policy_denied("rule:%s_network" % action)
    return found


def update(db, context, network_id, body):
    values = attrs.parse(body, "network", SPEC, create=False)
    writable(db, context, network_id, "update")
    for attr in ("shared", "router:external"):
        if attr in values and not context.is_admin:
            raise common.policy_denied("(rule:update_network and rule:update_network:%s)" % attr)
    columns = {
        "name": "name",
        "description": "description",
        "admin_state_up": "admin_state_up",
        "shared": "shared",
        "router:external": "external",
        "mtu": "mtu",
        "port_security_enabled": "port_security_enabled",
    }
    for key, value in values.items():
        if key in columns:
            if isinstance(value, bool):
                value = int(value)
            db.execute(
                "UPDATE network_networks SET %s = ? WHERE id = ?" % columns[key],
                (value, network_id),
            )
    common.bump(db, "network_networks", network_id)
    return show(db, context, network_id)


def delete(db, context, network_id):
    """Delete a network without ports in use (neutron deletes its DHCP
    ports itself, then its subnets); its floating IPs without a port are
    gone before (:func:`.floating_ips.release_on_network`)."""
    writable(db, context, network_id, "delete")
    busy = [
        r["id"]
        for r in db.execute(
            "SELECT id FROM network_ports WHERE network_id = ? AND device_owner != 'network:dhcp'"
            " ORDER BY seq",
            (network_id,),
        )
    ]
    if busy:
        # the ports named as neutron 29 names them (db_base_plugin_v2's
        # _ensure_network_not_in_use: joined by a bare comma)
        raise errors.Conflict(
            "Unable to complete operation on network %s. There are one or more ports still "
            "in use on the network, id for these ports is: %s." % (network_id, ",".join(busy)),
            type="NetworkInUse",
        )
    db.execute("DELETE FROM network_ports WHERE network_id = ?", (network_id,))
    db.execute("DELETE FROM network_subnets WHERE network_id = ?", (network_id,))
    db.execute("DELETE FROM network_networks WHERE id = ?", (network_id,))


# -- what nova's proxies read (compute/api/network_proxies.py) ---------------------------


def external(db: sqlite3.Connection, name_or_id: str) -> sqlite3.Row | None:
    """The first external network (in creation order) named ``name_or_id``
    or with that id, or None: nova's floating IP pool lookup."""
    return db.execute(
        "SELECT * FROM network_networks WHERE external = 1 AND (name = ? OR id = ?) ORDER BY seq",
        (name_or_id, name_or_id),
    ).fetchone()
