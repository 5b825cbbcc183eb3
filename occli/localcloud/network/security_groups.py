"""Security groups and their rules, with neutron's ``default`` group:
one per project, made (with its default rules) the first time the
project lists groups or creates a port, as neutron does."""

import ipaddress
import sqlite3
from collections.abc import Sequence
from typing import Any

from occli.localcloud import common as clock
from occli.localcloud import errors
from occli.localcloud.common import Asker
from occli.localcloud.network import attributes as attrs
from occli.localcloud.network import common
from occli.localcloud.network import quotas

GROUP_ATTRIBUTES = (
    "created_at",
    "description",
    "id",
    "name",
    "project_id",
    "revision_number",
    "security_group_rules",
    "shared",
    "stateful",
    "tags",
    "tenant_id",
    "updated_at",
)
GROUP_SORT_KEYS = (
    "created_at",
    "description",
    "id",
    "name",
    "project_id",
    "revision_number",
    "tenant_id",
    "updated_at",
)
RULE_ATTRIBUTES = (
    "belongs_to_default_sg",
    "created_at",
    "description",
    "direction",
    "ethertype",
    "id",
    "port_range_max",
    "port_range_min",
    "project_id",
    "protocol",
    "remote_address_group_id",
    "remote_group_id",
    "remote_ip_prefix",
    "revision_number",
    "security_group_id",
    "tags",
    "tenant_id",
    "updated_at",
)
RULE_SORT_KEYS = tuple(k for k in RULE_ATTRIBUTES if k not in ("tags", "belongs_to_default_sg"))
# neutron_lib.constants' protocol names (IP_PROTOCOL_MAP) and ``any``
PROTOCOLS = (
    "ah", "any", "dccp", "egp", "esp", "gre", "hopopt", "icmp", "icmpv6", "igmp", "ipip",
    "ipv6-encap", "ipv6-frag", "ipv6-icmp", "ipv6-nonxt", "ipv6-opts", "ipv6-route", "ospf",
    "pgm", "rsvp", "sctp", "tcp", "udp", "udplite", "vrrp",
)  # fmt: skip
_PORT_PROTOCOLS = ("tcp", "udp", "dccp", "sctp", "udplite", "6", "17", "33", "132", "136")
_ICMP = ("icmp", "icmpv6", "ipv6-icmp", "1", "58")

GROUP_SPEC = {
    "name": attrs.Attr(attrs.string(), default=""),
    "description": attrs.Attr(attrs.string(attrs.DESCRIPTION_MAX_LEN), default=""),
    "stateful": attrs.Attr(attrs.boolean, default=True),
    # set through /tags only (tagging.py: allow_post, allow_put False)
    "tags": attrs.Attr(attrs.anything, post=False, put=False),
}
RULE_SPEC = {
    "security_group_id": attrs.Attr(attrs.uuid, put=False, default=attrs.REQUIRED),
    "direction": attrs.Attr(attrs.one_of("ingress", "egress"), put=False, default=attrs.REQUIRED),
    "ethertype": attrs.Attr(attrs.one_of("IPv4", "IPv6"), put=False, default="IPv4"),
    "protocol": attrs.Attr(attrs.anything, put=False, default=None),
    "port_range_min": attrs.Attr(attrs.integer_or_none(0, 65535), put=False, default=None),
    "port_range_max": attrs.Attr(attrs.integer_or_none(0, 65535), put=False, default=None),
    "remote_ip_prefix": attrs.Attr(attrs.anything, put=False, default=None),
    "remote_group_id": attrs.Attr(attrs.uuid_or_none, put=False, default=None),
    "description": attrs.Attr(attrs.string(attrs.DESCRIPTION_MAX_LEN), default=""),
}


def not_found(group_id):
    return errors.NotFound(
        "Security group %s does not exist" % group_id, type="SecurityGroupNotFound"
    )


def rule_not_found(rule_id):
    return errors.NotFound(
        "Security group rule %s does not exist" % rule_id, type="SecurityGroupRuleNotFound"
    )


# -- the default group -------------------------------------------------------------


def ensure_default(db, project_id):
    """The id of ``project_id``'s ``default`` group, made with neutron's
    default rules (egress anywhere, ingress from the group) if needed."""
    found = db.execute(
        "SELECT security_group_id FROM network_default_security_groups WHERE project_id = ?",
        (project_id,),
    ).fetchone()
    if found is not None:
        return found[0]
    group_id = _insert_group(db, project_id, "default", "Default security group", True)
    db.execute(
        "INSERT INTO network_default_security_groups (project_id, security_group_id)"
        " VALUES (?, ?)",
        (project_id, group_id),
    )
    for ethertype in ("IPv4", "IPv6"):
        _insert_rule(db, group_id, project_id, "ingress", ethertype, remote_group_id=group_id)
    return group_id


def _insert_group(db, project_id, name, description, stateful):
    group_id = clock.new_uuid()
    stamp = common.now()
    db.execute(
        "INSERT INTO network_security_groups (id, project_id, name, description, stateful,"
        " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (group_id, project_id, name, description, int(stateful), stamp, stamp),
    )
    for ethertype in ("IPv4", "IPv6"):
        _insert_rule(db, group_id, project_id, "egress", ethertype)
    return group_id


def _insert_rule(db, group_id, project_id, direction, ethertype, **extra):
    rule_id = clock.new_uuid()
    stamp = common.now()
    db.execute(
        "INSERT INTO network_security_group_rules (id, security_group_id, project_id,"
        " direction, ethertype, protocol, port_range_min, port_range_max, remote_ip_prefix,"
        " remote_group_id, description, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            rule_id,
            group_id,
            project_id,
            direction,
            ethertype,
            extra.get("protocol"),
            extra.get("port_range_min"),
            extra.get("port_range_max"),
            extra.get("remote_ip_prefix"),
            extra.get("remote_group_id"),
            extra.get("description", ""),
            stamp,
            stamp,
        ),
    )
    return rule_id


def _is_default(db, group_id):
    return (
        db.execute(
            "SELECT 1 FROM network_default_security_groups WHERE security_group_id = ?",
            (group_id,),
        ).fetchone()
        is not None
    )


# -- groups ------------------------------------------------------------------------


def get(db, context, group_id):
    found = db.execute(
        "SELECT * FROM network_security_groups WHERE id = ?", (group_id,)
    ).fetchone()
    if found is None or not common.owns(context, found):
        raise not_found(group_id)
    return found


def rule_view(rule, default_groups=()):
    return common.standard(
        rule,
        {
            "security_group_id": rule["security_group_id"],
            "direction": rule["direction"],
            "ethertype": rule["ethertype"],
            "protocol": rule["protocol"],
            "port_range_min": rule["port_range_min"],
            "port_range_max": rule["port_range_max"],
            "remote_ip_prefix": rule["remote_ip_prefix"],
            "remote_group_id": rule["remote_group_id"],
            "remote_address_group_id": None,
            "belongs_to_default_sg": rule["security_group_id"] in default_groups,
        },
    )


def _defaults(db):
    rows = db.execute("SELECT security_group_id FROM network_default_security_groups")
    return {r[0] for r in rows}


def view(db, group, defaults=None, rules=None):
    """The group's body; ``defaults`` (the default groups' ids) and
    ``rules`` (its rule rows) when already read (a listing)."""
    defaults = _defaults(db) if defaults is None else defaults
    if rules is None:
        rules = db.execute(
            "SELECT * FROM network_security_group_rules WHERE security_group_id = ? ORDER BY seq",
            (group["id"],),
        ).fetchall()
    return common.standard(
        group,
        {
            "name": group["name"],
            "stateful": bool(group["stateful"]),
            "shared": False,
            "security_group_rules": [rule_view(r, defaults) for r in rules],
        },
    )


def listing(db, context):
    """Every group ``context`` sees; its project's ``default`` group is
    made first if it has none (neutron does so on a list)."""
    ensure_default(db, context.project_id)
    defaults = _defaults(db)
    rules: dict[str, list[sqlite3.Row]] = {}
    for r in db.execute("SELECT * FROM network_security_group_rules ORDER BY seq"):
        rules.setdefault(r["security_group_id"], []).append(r)
    return [
        view(db, r, defaults, rules.get(r["id"], []))
        for r in db.execute("SELECT * FROM network_security_groups ORDER BY seq")
        if common.owns(context, r)
    ]


def show(db, context, group_id):
    return view(db, get(db, context, group_id))


def find(db: sqlite3.Connection, project_id: str, name_or_id: str) -> list[str]:
    """The ids of ``project_id``'s groups whose id or name is ``name_or_id``
    (nova's lookup of a server's requested groups)."""
    ensure_default(db, project_id)
    return [
        r["id"]
        for r in db.execute(
            "SELECT id FROM network_security_groups WHERE project_id = ? AND (id = ? OR name = ?)"
            " ORDER BY id = ? DESC, seq",
            (project_id, name_or_id, name_or_id, name_or_id),
        )
    ]


def names(db: sqlite3.Connection, group_ids: Sequence[str]) -> list[str]:
    rows = {
        r["id"]: r["name"]
        for r in db.execute(
            "SELECT id, name FROM network_security_groups WHERE id IN (%s)"
            % ",".join("?" * len(group_ids)),
            list(group_ids),
        )
    }
    return [rows[g] for g in group_ids if g in rows]


def create(db: sqlite3.Connection, context: Asker, body: dict[str, Any]) -> dict[str, Any]:
    values = attrs.parse(body, "security_group", GROUP_SPEC, create=True)
    project = common.check_project(context, values, "create_security_group")
    ensure_default(db, project)
    if values["name"] == "default":
        raise errors.Conflict(
            "Default security group already exists.", type="SecurityGroupDefaultAlreadyExists"
        )
    quotas.check(db, project, "security_group")
    group_id = _insert_group(
        db, project, values["name"], values["description"], values["stateful"]
    )
    return show(db, context, group_id)


def update(
    db: sqlite3.Connection, context: Asker, group_id: str, body: dict[str, Any]
) -> dict[str, Any]:
    values = attrs.parse(body, "security_group", GROUP_SPEC, create=False)
    group = get(db, context, group_id)
    if "name" in values and _is_default(db, group_id) and values["name"] != "default":
        raise errors.Conflict(
            "Updating default security group not allowed.",
            type="SecurityGroupCannotUpdateDefault",
        )
    for key in ("name", "description", "stateful"):
        if key in values:
            db.execute(
                "UPDATE network_security_groups SET %s = ? WHERE id = ?" % key,
                (int(values[key]) if key == "stateful" else values[key], group["id"]),
            )
    common.bump(db, "network_security_groups", group_id)
    return show(db, context, group_id)


def delete(db: sqlite3.Connection, context: Asker, group_id: str) -> None:
    group = get(db, context, group_id)
    if _is_default(db, group_id) and not context.is_admin:
        raise errors.Conflict(
            "Insufficient rights for removing default security group.",
            type="SecurityGroupCannotRemoveDefault",
        )
    in_use = db.execute(
        "SELECT 1 FROM network_port_security_groups WHERE security_group_id = ?", (group_id,)
    ).fetchone()
    if in_use is not None:
        raise errors.Conflict("Security Group %s in use." % group_id, type="SecurityGroupInUse")
    db.execute(
        "DELETE FROM network_default_security_groups WHERE security_group_id = ?", (group_id,)
    )
    db.execute("DELETE FROM network_security_groups WHERE id = ?", (group["id"],))


# -- rules -------------------------------------------------------------------------


def rule_listing(db, context):
    ensure_default(db, context.project_id)
    defaults = _defaults(db)
    return [
        rule_view(r, defaults)
        for r in db.execute("SELECT * FROM network_security_group_rules ORDER BY seq")
        if common.owns(context, r)
    ]


def get_rule(db, context, rule_id):
    found = db.execute(
        "SELECT * FROM network_security_group_rules WHERE id = ?", (rule_id,)
    ).fetchone()
    if found is None or not common.owns(context, found):
        raise rule_not_found(rule_id)
    return found


def show_rule(db, context, rule_id):
    return rule_view(get_rule(db, context, rule_id), _defaults(db))


def _protocol(value):
    if value is None or value == "":
        return None
    text = str(value).lower() if not isinstance(value, bool) else None
    if text in PROTOCOLS:
        return None if text == "any" else text
    if text is not None and text.isdigit() and 0 <= int(text) <= 255:
        return text
    raise attrs.invalid_input_named(
        "Security group rule protocol %s not supported. Only protocol values %s and integer "
        "representations [0 to 255] are supported." % (value, [None, *PROTOCOLS]),
        "SecurityGroupRuleInvalidProtocol",
    )


def _check_rule(values):
    protocol = values["protocol"] = _protocol(values["protocol"])
    low, high = values["port_range_min"], values["port_range_max"]
    if (low is not None or high is not None) and protocol is None:
        raise attrs.invalid_input_named(
            "Must also specify protocol if port range is given.",
            "SecurityGroupProtocolRequiredWithPorts",
        )
    if protocol in _PORT_PROTOCOLS and low is not None and high is not None and low > high:
        raise attrs.invalid_input_named(
            "For TCP/UDP protocols, port_range_min must be <= port_range_max",
            "SecurityGroupInvalidPortRange",
        )
    if protocol in _ICMP:
        for field, value in (("type", low), ("code", high)):
            if value is not None and value > 255:
                raise attrs.invalid_input_named(
                    "Invalid value for ICMP %s (%s) %s. It must be 0 to 255."
                    % (field, "port-range-min" if field == "type" else "port-range-max", value),
                    "SecurityGroupInvalidIcmpValue",
                )
        if low is None and high is not None:
            raise attrs.invalid_input_named(
                "ICMP code (port-range-max) %s is provided but ICMP type (port-range-min) is "
                "missing." % high,
                "SecurityGroupMissingIcmpType",
            )
    prefix = values["remote_ip_prefix"]
    if prefix is not None:
        if not isinstance(prefix, str):
            raise attrs.bad_request(
                "Invalid input for remote_ip_prefix. Reason: '%s' is not a valid IP subnet."
                % (prefix,)
            )
        try:
            net = ipaddress.ip_network(prefix, strict=False)
        except ValueError:
            raise attrs.bad_request(
                "Invalid input for remote_ip_prefix. Reason: '%s' is not a valid IP subnet."
                % prefix
            ) from None
        if "IPv%d" % net.version != values["ethertype"]:
            raise attrs.invalid_input_named(
                "Conflicting value ethertype %s for CIDR %s" % (values["ethertype"], prefix),
                "SecurityGroupRuleParameterConflict",
            )
        values["remote_ip_prefix"] = str(net)
        if values["remote_group_id"] is not None:
            raise attrs.invalid_input_named(
                "Only one of remote_ip_prefix or remote_group_id or remote_address_group_id "
                "may be provided.",
                "SecurityGroupMultipleRemoteEntites",
            )


_RULE_COLUMNS = (
    "direction",
    "ethertype",
    "protocol",
    "port_range_min",
    "port_range_max",
    "remote_ip_prefix",
    "remote_group_id",
)


def create_rule(db: sqlite3.Connection, context: Asker, body: dict[str, Any]) -> dict[str, Any]:
    values = attrs.parse(body, "security_group_rule", RULE_SPEC, create=True)
    project = common.check_project(context, values, "create_security_group_rule")
    group = get(db, context, values["security_group_id"])
    if values["remote_group_id"] is not None:
        get(db, context, values["remote_group_id"])
    _check_rule(values)
    for existing in db.execute(
        "SELECT * FROM network_security_group_rules WHERE security_group_id = ?", (group["id"],)
    ):
        if all(existing[c] == values[c] for c in _RULE_COLUMNS):
            raise errors.Conflict(
                "Security group rule already exists. Rule id is %s." % existing["id"],
                type="SecurityGroupRuleExists",
            )
    quotas.check(db, project if context.is_admin else group["project_id"], "security_group_rule")
    rule_id = _insert_rule(
        db,
        group["id"],
        project if context.is_admin else group["project_id"],
        values["direction"],
        values["ethertype"],
        **{c: values[c] for c in _RULE_COLUMNS[2:]},
        description=values["description"],
    )
    common.bump(db, "network_security_groups", group["id"])
    return show_rule(db, context, rule_id)


def delete_rule(db: sqlite3.Connection, context: Asker, rule_id: str) -> None:
    rule = get_rule(db, context, rule_id)
    db.execute("DELETE FROM network_security_group_rules WHERE id = ?", (rule_id,))
    common.bump(db, "network_security_groups", rule["security_group_id"])


# -- what nova's proxies read (compute/api/network_proxies.py) ---------------------------


def row(db: sqlite3.Connection, group_id: str) -> sqlite3.Row | None:
    """The security group row ``group_id`` as stored, or None."""
    return db.execute("SELECT * FROM network_security_groups WHERE id = ?", (group_id,)).fetchone()


def of_project(db: sqlite3.Connection, project_id: str) -> list[sqlite3.Row]:
    """The security group rows of ``project_id``, in creation order (nova's
    os-security-groups list)."""
    return db.execute(
        "SELECT * FROM network_security_groups WHERE project_id = ? ORDER BY seq",
        (project_id,),
    ).fetchall()


def ingress_rules(db: sqlite3.Connection, group_id: str) -> list[sqlite3.Row]:
    """The ingress rule rows of group ``group_id``, in creation order (nova
    shows a group's ingress rules only)."""
    return db.execute(
        "SELECT * FROM network_security_group_rules WHERE security_group_id = ?"
        " AND direction = 'ingress' ORDER BY seq",
        (group_id,),
    ).fetchall()


def rule_row(db: sqlite3.Connection, rule_id: str) -> sqlite3.Row | None:
    """The security group rule row ``rule_id`` as stored, or None."""
    return db.execute(
        "SELECT * FROM network_security_group_rules WHERE id = ?", (rule_id,)
    ).fetchone()
