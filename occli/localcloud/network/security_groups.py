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
# neutron_lib.constants' IP_PROTOCOL_MAP: {name: number}, in its order
# (securitygroup.py's sg_supported_protocols lists them so, after None, any)
PROTOCOLS = {
    "ah": 51, "dccp": 33, "egp": 8, "esp": 50, "gre": 47, "hopopt": 0, "icmp": 1, "igmp": 2,
    "ip": 0, "ipip": 4, "ipv6-encap": 41, "ipv6-frag": 44, "ipv6-icmp": 58, "icmpv6": 58,
    "ipv6-nonxt": 59, "ipv6-opts": 60, "ipv6-route": 43, "ospf": 89, "pgm": 113, "rsvp": 46,
    "sctp": 132, "tcp": 6, "udp": 17, "udplite": 136, "vrrp": 112,
}  # fmt: skip
# neutron's SG_PORT_PROTO_NAMES / _NUMS, and the two ICMPs
_PORT_PROTOCOLS = ("dccp", "sctp", "tcp", "udp", "udplite")
_PORT_NUMBERS = (33, 132, 6, 17, 136)
_ICMP_NUMBERS = (1, 58)

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
    "port_range_min": attrs.Attr(attrs.anything, put=False, default=None),
    "port_range_max": attrs.Attr(attrs.anything, put=False, default=None),
    "remote_ip_prefix": attrs.Attr(attrs.anything, put=False, default=None),
    # no validator: any text is looked up (a 404 for one that is no group)
    "remote_group_id": attrs.Attr(attrs.anything, put=False, default=None),
    # no address groups are served: any one given is not found
    "remote_address_group_id": attrs.Attr(attrs.anything, put=False, default=None),
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
            extra.get("description"),
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


def rule_view(rule, default_groups=None, nested=False):
    """A rule's body; ``nested`` (in its group's body) as neutron's
    ``_make_security_group_rule_dict`` leaves it (with ``standard_attr_id``
    and ``tags``), else as the API shows a rule (neither).
    ``belongs_to_default_sg`` is null without ``default_groups``: Neutron 29
    leaves it unset in a listing of groups (tests/fixtures/network/realcloud/
    neutron-29-security_groups.json's sg_list_default)."""
    prefix = rule["remote_ip_prefix"]
    body = common.standard(
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
            # security-groups-normalized-cidr: the prefix without host bits
            "normalized_cidr": str(ipaddress.ip_network(prefix, strict=False)) if prefix else None,
            "belongs_to_default_sg": (
                None if default_groups is None else rule["security_group_id"] in default_groups
            ),
        },
    )
    if nested:
        body["standard_attr_id"] = rule["seq"]
    else:
        del body["tags"]
    return body


def _defaults(db):
    rows = db.execute("SELECT security_group_id FROM network_default_security_groups")
    return {r[0] for r in rows}


def view(db, group, rules=None):
    """The group's body; ``rules`` (its rule rows) when already read (a
    listing, whose rules show no ``belongs_to_default_sg``)."""
    defaults = _defaults(db) if rules is None else None
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
            "security_group_rules": [rule_view(r, defaults, nested=True) for r in rules],
        },
    )


def listing(db, context):
    """Every group ``context`` sees; its project's ``default`` group is
    made first if it has none (neutron does so on a list)."""
    ensure_default(db, context.project_id)
    rules: dict[str, list[sqlite3.Row]] = {}
    for r in db.execute("SELECT * FROM network_security_group_rules ORDER BY seq"):
        rules.setdefault(r["security_group_id"], []).append(r)
    return [
        view(db, r, rules.get(r["id"], []))
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
    _name_not_default(values)
    quotas.check(db, project, "security_group")
    group_id = _insert_group(
        db, project, values["name"], values["description"], values["stateful"]
    )
    return show(db, context, group_id)


def _name_not_default(values):
    """securitygroup.py's ``name_not_default`` validator (any case), on a
    create and an update, the default group's own too."""
    if str(values.get("name", "")).lower() == "default":
        raise errors.Conflict(
            "Default security group already exists.", type="SecurityGroupDefaultAlreadyExists"
        )


def update(
    db: sqlite3.Connection, context: Asker, group_id: str, body: dict[str, Any]
) -> dict[str, Any]:
    values = attrs.parse(body, "security_group", GROUP_SPEC, create=False)
    group = get(db, context, group_id)
    _name_not_default(values)
    if "name" in values and _is_default(db, group_id):
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
    # the rules of other groups naming it go with it (the remote group's
    # foreign key: ON DELETE CASCADE in neutron's schema)
    db.execute("DELETE FROM network_security_group_rules WHERE remote_group_id = ?", (group_id,))
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
    """securitygroup.py's ``convert_protocol``: None for none or ``any``, a
    number's text, a known name in lower case."""
    if value in (None, "any"):
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = None
    if number is not None and 0 <= number <= 255:
        return str(value)
    if number is None and isinstance(value, str) and value.lower() in PROTOCOLS:
        return value.lower()
    raise attrs.invalid_input_named(
        "Security group rule protocol %s not supported. Only protocol values %s and integer "
        "representations [0 to 255] are supported." % (value, (None, "any", *PROTOCOLS)),
        "SecurityGroupRuleInvalidProtocol",
    )


def _port(value):
    """``convert_validate_port_value`` (oslo's ``is_valid_port``)."""
    if value is None:
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = -1
    if not 0 <= number <= 65535:
        raise attrs.invalid_input_named(
            "Invalid value for port %s" % (value,), "SecurityGroupInvalidPortValue"
        )
    return number


def _prefix(value):
    """``convert_ip_prefix_to_cidr``: the prefix as given, with its mask."""
    if not value:
        return None
    try:
        if not isinstance(value, str):
            raise TypeError(value)
        return str(ipaddress.ip_interface(value))
    except (TypeError, ValueError):
        raise attrs.invalid_input_named(
            "Invalid CIDR %s given as IP prefix." % (value,), "InvalidCIDR"
        ) from None


def _check_port_range(protocol, low, high):
    """securitygroups_db's ``_validate_port_range``."""
    if low is None and high is None:
        return
    if protocol is None:
        raise attrs.invalid_input_named(
            "Must also specify protocol if port range is given.",
            "SecurityGroupProtocolRequiredWithPorts",
        )
    number = PROTOCOLS[protocol] if protocol in PROTOCOLS else int(protocol)
    if number in _PORT_NUMBERS:
        if low == 0 or high == 0:
            raise attrs.invalid_input_named(
                "Invalid value for port 0", "SecurityGroupInvalidPortValue"
            )
        if low is None or high is None or low > high:
            raise attrs.invalid_input_named(
                "For TCP/UDP protocols, port_range_min must be <= port_range_max",
                "SecurityGroupInvalidPortRange",
            )
    elif number in _ICMP_NUMBERS:
        for field, attr, value in (
            ("type", "port_range_min", low),
            ("code", "port_range_max", high),
        ):
            if value is not None and not 0 <= value <= 255:
                raise attrs.invalid_input_named(
                    "Invalid value for ICMP %s (%s) %s. It must be 0 to 255."
                    % (field, attr, value),
                    "SecurityGroupInvalidIcmpValue",
                )
        if low is None:
            raise attrs.invalid_input_named(
                "ICMP code (port-range-max) %s is provided but ICMP type (port-range-min) is "
                "missing." % high,
                "SecurityGroupMissingIcmpType",
            )
    else:
        raise attrs.invalid_input_named(
            "Ports cannot be specified for protocol %s. Ports are only supported for %s."
            % (number, ", ".join(p.upper() for p in _PORT_PROTOCOLS)),
            "SecurityGroupInvalidProtocolForPort",
        )


def _check_rule(values):
    """securitygroups_db's ``_validate_base_security_group_rule_attributes``
    after the attribute converters."""
    protocol = values["protocol"] = _protocol(values["protocol"])
    if values["ethertype"] == "IPv6" and protocol in ("icmp", "icmpv6"):
        # _make_canonical_ipv6_icmp_protocol
        protocol = values["protocol"] = "ipv6-icmp"
    low = values["port_range_min"] = _port(values["port_range_min"])
    high = values["port_range_max"] = _port(values["port_range_max"])
    prefix = values["remote_ip_prefix"] = _prefix(values["remote_ip_prefix"])
    if (low, high) == (1, 65535):  # _make_canonical_port_range
        low = high = values["port_range_min"] = values["port_range_max"] = None
    _check_port_range(protocol, low, high)
    if prefix is not None:
        net = ipaddress.ip_network(prefix, strict=False)
        if "IPv%d" % net.version != values["ethertype"]:
            raise attrs.invalid_input_named(
                "Conflicting value ethertype %s for CIDR %s" % (values["ethertype"], prefix),
                "SecurityGroupRuleParameterConflict",
            )
    remotes = ("remote_ip_prefix", "remote_group_id", "remote_address_group_id")
    if sum(values[r] is not None for r in remotes) > 1:
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
    _check_rule(values)
    if values["remote_group_id"] is not None:
        get(db, context, str(values["remote_group_id"]))
    if values["remote_address_group_id"] is not None:
        raise errors.NotFound(
            "Address group %s could not be found." % values["remote_address_group_id"],
            type="AddressGroupNotFound",
        )
    group = get(db, context, values["security_group_id"])
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


def of_project(db: sqlite3.Connection, project_id: str | None) -> list[sqlite3.Row]:
    """The security group rows of ``project_id`` (None: of every project),
    in creation order (nova's os-security-groups list)."""
    if project_id is None:
        return db.execute("SELECT * FROM network_security_groups ORDER BY seq").fetchall()
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
