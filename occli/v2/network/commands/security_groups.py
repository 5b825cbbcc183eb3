"""Security group and rule commands (Neutron): ``occli security group …``
and ``occli security group rule …``, with OpenStackClient's names and
options."""

from cliff import columns as cliff_columns

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.network import security_groups as groups_api
from occli.v2.network.commands import options

_GROUP_ARG = dict(metavar="<group>", help="Security group (name or ID).")


class RulesColumn(cliff_columns.FormattableColumn):
    """A group's rules, one line each (``direction='ingress', …``); the
    list in JSON."""

    KEYS = (
        "direction",
        "ethertype",
        "protocol",
        "port_range_min",
        "port_range_max",
        "remote_ip_prefix",
        "remote_group_id",
        "id",
    )

    def human_readable(self):
        return "\n".join(
            ", ".join("%s='%s'" % (k, r[k]) for k in self.KEYS if r.get(k) is not None)
            for r in self._value or ()
        )

    def machine_readable(self):
        return list(self._value or ())


#: Neutron's keys under OSC's names (openstacksdk's SecurityGroup, which
#: OSC prints); ``-c`` still takes Neutron's
GROUP_OSC_NAMES = {
    "tenant_id": "project_id",
    "security_group_rules": "rules",
    "shared": "is_shared",
}


def _show_group(args, group):
    info = columns.osc_fields(group, GROUP_OSC_NAMES)
    shown = columns.show(info, formatters={"rules": RulesColumn})
    return columns.with_raw_keys(args, shown, GROUP_OSC_NAMES)


def _port_range(text):
    """``80`` or ``8000:8080`` → ``(low, high)`` (OSC's ``--dst-port``)."""
    low, sep, high = text.partition(":")
    try:
        values = (int(low), int(high if sep else low))
    except ValueError:
        raise exceptions.ValidationError(
            "--dst-port expects <port> or <min>:<max>, got %r." % text
        ) from None
    return values


@utils.arg("--project", metavar="<project-id>", help="Only the groups of this project (admin).")
@options.switch("shared", "--share", "--no-share", "Only the groups shared between projects.",
                "Only the groups not shared between projects.")  # fmt: skip
@options.tag_filters("security groups")
@utils.output("list")
def do_security_group_list(client, args):
    """List security groups.

    Neutron makes a project's "default" group the first time the project
    uses the network service.

    Example: occli security group list
    """
    groups = client.security_groups.iter(
        project_id=args.project, shared=args.shared, **options.tag_filter_values(args)
    )
    return columns.table(
        groups,
        ["id", "name", "description", "project_id", "tags", "shared"],
        ["ID", "Name", "Description", "Project", "Tags", "Shared"],
    )


@utils.arg("group", **_GROUP_ARG)
@utils.output("show")
def do_security_group_show(client, args):
    """Show a security group and its rules.

    Example: occli security group show default
    """
    return _show_group(args, client.security_groups.find_resource(args.group))


def _stateful(func):
    """OSC's ``--stateful``/``--stateless`` pair (``args.stateful``)."""
    return options.switch(
        "stateful", "--stateful", "--stateless",
        "Track the connections the rules allow (the default).",
        "Track no connections: replies need rules of their own.",
    )(func)  # fmt: skip


@utils.arg("name", metavar="<name>", help="Name of the new group.")
@utils.arg("--description", metavar="<text>", help="Description (default: the name).")
@utils.arg("--project", metavar="<project-id>", help="Owner's project (admin).")
@_stateful
@options.tags("security group", "create")
@utils.output("show")
def do_security_group_create(client, args):
    """Create a security group (Neutron adds rules allowing all egress).

    Example: occli security group create --description "web servers" web
    """
    extra = {"stateful": args.stateful, "project_id": args.project}
    group = client.security_groups.create(
        args.name,
        description=args.name if args.description is None else args.description,
        **{k: v for k, v in extra.items() if v is not None},
    )
    options.apply_tags(client.security_groups, group, args, "create")
    return _show_group(args, group)


@utils.arg("group", **_GROUP_ARG)
@utils.arg("--name", metavar="<new-name>", help="New name.")
@utils.arg("--description", metavar="<text>", help="New description.")
@_stateful
@options.tags("security group", "set")
def do_security_group_set(client, args):
    """Change a security group.

    Example: occli security group set --stateless --description "no tracking" web
    """
    given = {"name": args.name, "description": args.description, "stateful": args.stateful}
    attributes = {k: v for k, v in given.items() if v is not None}
    if not attributes and not options.tags_given(args, "set"):
        raise exceptions.ValidationError(
            "Nothing to set: give --name, --description, --stateful, --stateless or --tag."
        )
    group = client.security_groups.find_resource(args.group)
    if attributes:
        client.security_groups.update(group, **attributes)
    options.apply_tags(client.security_groups, group, args, "set")


@utils.arg("group", **_GROUP_ARG)
@options.tags("security group", "unset")
def do_security_group_unset(client, args):
    """Remove a security group's tags.

    Example: occli security group unset --tag blue web
    """
    if not options.tags_given(args, "unset"):
        raise exceptions.ValidationError("Nothing to unset: give --tag or --all-tag.")
    group = client.security_groups.find_resource(args.group)
    options.apply_tags(client.security_groups, group, args, "unset")


@utils.arg("groups", nargs="+", metavar="<group>", help="Security group(s) (name or ID).")
def do_security_group_delete(client, args):
    """Delete security groups.

    A group in use by a port cannot be deleted (409).

    Example: occli security group delete web
    """

    def delete(ref):
        client.security_groups.delete(client.security_groups.find_resource(ref))

    return utils.for_each(args.groups, delete, "delete security group")


@utils.arg("group", nargs="?", metavar="<group>", help="Only this group's rules (name or ID).")
@utils.output("list")
def do_security_group_rule_list(client, args):
    """List security group rules.

    Example: occli security group rule list default
    """
    group = client.security_groups.find_resource(args.group) if args.group else None
    rules = client.security_group_rules.iter(security_group=group)
    cols = ["id", "protocol", "ethertype", "remote_ip_prefix", "port_range", "direction"]
    cols += ["remote_group_id", "remote_address_group_id"]
    headers = ["ID", "IP Protocol", "Ethertype", "IP Range", "Port Range", "Direction"]
    headers += ["Remote Security Group", "Remote Address Group"]
    if group is None:
        cols.append("security_group_id")
        headers.append("Security Group")

    def rows():
        for rule in rules:
            info = rule.to_dict()
            info["port_range"] = _shown_port_range(info)
            if info.get("remote_ip_prefix") is None:
                info["remote_ip_prefix"] = _ANY_ADDRESS.get(info.get("ethertype"))
            yield info

    return columns.table(rows(), cols, headers)


#: a rule's ``IP Range`` when Neutron's ``remote_ip_prefix`` is null, as OSC
#: (openstackclient/network/utils.py ``format_remote_ip_prefix``)
_ANY_ADDRESS = {"IPv4": "0.0.0.0/0", "IPv6": "::/0"}
#: protocols whose port range is an ICMP type and code (OSC's ``is_icmp_protocol``)
_ICMP = ("icmp", "icmpv6", "ipv6-icmp", "1", "58")


def _shown_port_range(rule):
    """OSC's ``Port Range`` (``format_network_port_range``): ``22:24``,
    ``type=3:code=0`` for ICMP, ``''`` for none."""
    low, high = rule.get("port_range_min"), rule.get("port_range_max")
    if rule.get("protocol") in _ICMP:
        return ("type=%s" % low if low else "") + (":code=%s" % high if high else "")
    if not (low or high):
        return ""
    return "%s:%s" % (high if low is None else low, low if high is None else high)


def _rule_range(args):
    """The rule's ``(port_range_min, port_range_max)``: ``--dst-port``, or
    for an ICMP protocol ``--icmp-type`` and ``--icmp-code``. OSC's checks
    and texts (openstackclient/network/v2/security_group_rule.py), its
    taking of type 0 as not given and ignoring of --dst-port for ICMP
    included (said on stderr here)."""
    if args.dst_port and (args.icmp_type or args.icmp_code):
        raise exceptions.ValidationError(
            "Argument --dst-port not allowed with arguments --icmp-type and --icmp-code"
        )
    if args.icmp_type is None and args.icmp_code is not None:
        raise exceptions.ValidationError("Argument --icmp-type required with argument --icmp-code")
    icmp = args.protocol in groups_api.ICMP_PROTOCOLS
    if not icmp and (args.icmp_type or args.icmp_code):
        raise exceptions.ValidationError(
            "ICMP IP protocol required with arguments --icmp-type and --icmp-code"
        )
    if not icmp:
        return args.dst_port or (None, None)
    if args.dst_port:
        utils.stderr(args).write(
            "--dst-port is ignored for an ICMP protocol: give --icmp-type and --icmp-code.\n"
        )
    low = args.icmp_type if args.icmp_type is not None and args.icmp_type >= 0 else None
    high = args.icmp_code if args.icmp_code is not None and args.icmp_code >= 0 else None
    return low, high


@utils.arg("group", **_GROUP_ARG)
@utils.arg(
    "--protocol",
    metavar="<protocol>",
    help="IP protocol: tcp, udp, icmp, … or a number; default any.",
)
@utils.arg(
    "--dst-port",
    metavar="<port>|<min>:<max>",
    type=utils.arg_type(_port_range, "port-range"),
    help="Destination port or range (needs a protocol with ports: tcp, udp, …).",
)
@utils.arg("--icmp-type", metavar="<icmp-type>", type=int, help="ICMP type, for ICMP protocols.")
@utils.arg("--icmp-code", metavar="<icmp-code>", type=int, help="ICMP code, for ICMP protocols.")
@utils.arg(
    "--remote-ip",
    metavar="<cidr>",
    help="Remote IP prefix (default 0.0.0.0/0, or ::/0 for IPv6, without --remote-group).",
)
@utils.arg("--remote-group", metavar="<group>", help="Remote security group (name or ID).")
@utils.arg(
    "--ingress",
    dest="direction",
    action=utils.Switch,
    const="ingress",
    other="--egress",
    default=None,
    help="A rule for incoming traffic (the default).",
)
@utils.arg(
    "--egress",
    dest="direction",
    action=utils.Switch,
    const="egress",
    other="--ingress",
    help="A rule for outgoing traffic.",
)
@utils.arg(
    "--ethertype",
    choices=("IPv4", "IPv6"),
    help="IPv4 or IPv6 (default: that of --remote-ip, else IPv4).",
)
@utils.arg("--description", metavar="<text>", help="Description.")
@utils.option_names(
    port_range_min="--dst-port",
    remote_ip_prefix="--remote-ip",
    remote_group="--remote-group",
    direction="--ingress/--egress",
)
@utils.output("show")
def do_security_group_rule_create(client, args):
    """Add a rule to a security group.

    Example: occli security group rule create --protocol tcp --dst-port 22 default
    """
    ethertype = args.ethertype
    if ethertype is None:
        ethertype = "IPv6" if args.remote_ip and ":" in args.remote_ip else "IPv4"
    remote_ip = args.remote_ip
    if remote_ip is None and args.remote_group is None:
        remote_ip = "::/0" if ethertype == "IPv6" else "0.0.0.0/0"
    low, high = _rule_range(args)
    rule = dict(
        direction=args.direction or "ingress",
        ethertype=ethertype,
        protocol=args.protocol,
        port_range_min=low,
        port_range_max=high,
        remote_ip_prefix=remote_ip,
        description=args.description,
    )
    client.security_group_rules.check_create(
        remote_group="-" if args.remote_group else None, **rule
    )
    group = client.security_groups.find_resource(args.group)
    remote = client.security_groups.find_resource(args.remote_group) if args.remote_group else None
    created = client.security_group_rules.create(group, remote_group=remote, **rule)
    return columns.show(created.to_dict())


@utils.arg("rule", metavar="<rule>", help="Rule ID.")
@utils.output("show")
def do_security_group_rule_show(client, args):
    """Show a security group rule.

    A rule without a remote IP prefix shows the prefix it matches, all
    addresses of its ether type (0.0.0.0/0 or ::/0), as OSC shows it.

    Example: occli security group rule show 2bc0accf-312e-429a-956e-e4407625eb62
    """
    rule = client.security_group_rules.get(args.rule).to_dict()
    if not rule.get("remote_ip_prefix"):
        every = {"IPv4": "0.0.0.0/0", "IPv6": "::/0"}
        rule["remote_ip_prefix"] = every.get(rule.get("ethertype"), rule.get("remote_ip_prefix"))
    return columns.show(rule)


@utils.arg("rules", nargs="+", metavar="<rule>", help="Rule ID(s).")
def do_security_group_rule_delete(client, args):
    """Delete security group rules.

    Example: occli security group rule delete 2bc0accf-312e-429a-956e-e4407625eb62
    """
    return utils.for_each(args.rules, client.security_group_rules.delete, "delete rule")
