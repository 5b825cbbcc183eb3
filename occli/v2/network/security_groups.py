"""Neutron security groups and their rules (``client.security_groups``,
``client.security_group_rules``).

Neutron makes a project's ``default`` group on first use. A rule's
arguments are checked before anything is sent (ValidationError): its
direction and ether type, a port range only with a protocol that has
ports, the range's order, and one remote (an IP prefix or a group).
"""

from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import SupportsInt

from occli import base
from occli import exceptions
from occli.v2.network import base as neutron

DIRECTIONS = ("ingress", "egress")
ETHERTYPES = ("IPv4", "IPv6")
#: protocols whose rules may name ports (Neutron's list)
PORT_PROTOCOLS = ("tcp", "udp", "dccp", "sctp", "udplite", "6", "17", "33", "132", "136")
#: protocols whose rules' port range is an ICMP type and code (checked by Neutron)
ICMP_PROTOCOLS = ("icmp", "icmpv6", "ipv6-icmp", "1", "58")


class SecurityGroup(base.Resource):
    """A Neutron security group (its ``security_group_rules`` included)."""


class SecurityGroupRule(base.Resource):
    """A rule of a security group."""


class SecurityGroupManager(neutron.NeutronManager):
    resource_class = SecurityGroup
    collection = "security_groups"
    member = "security_group"
    path = "security-groups"

    def create(
        self, name: str, description: str | None = None, **attributes: object
    ) -> base.Resource:
        body = dict(attributes, name=name)
        if description is not None:
            body["description"] = description
        return self._create_body(body)

    def update(
        self,
        group: base.Resource | str,
        name: str | None = None,
        description: str | None = None,
        stateful: bool | None = None,
    ) -> base.Resource:
        """Change a group's ``name``, ``description`` or ``stateful``
        (a stateless group's rules track no connections)."""
        given = (("name", name), ("description", description), ("stateful", stateful))
        body = {k: v for k, v in given if v is not None}
        if not body:
            raise exceptions.ValidationError(
                "Give {name}, {description} or {stateful}.",
                params=("name", "description", "stateful"),
            )
        return self._update_body(group, body)


class SecurityGroupRuleManager(neutron.NeutronManager):
    resource_class = SecurityGroupRule
    collection = "security_group_rules"
    member = "security_group_rule"
    path = "security-group-rules"

    def list(
        self,
        limit: int | None = None,
        marker: str | None = None,
        fields: Iterable[str] | None = None,
        security_group: base.Resource | str | None = None,
        **filters: object,
    ) -> base.ListWithMeta:
        """Every rule (see :meth:`NeutronManager.list`); ``security_group``
        (a group or id) keeps its own. :meth:`iter` yields them lazily."""
        return super().list(limit, marker, fields, **self._list_filters(security_group, filters))

    def iter(
        self,
        limit: int | None = None,
        marker: str | None = None,
        fields: Iterable[str] | None = None,
        security_group: base.Resource | str | None = None,
        **filters: object,
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: yield rules, asking for each page
        when the previous one was used."""
        return super().iter(limit, marker, fields, **self._list_filters(security_group, filters))

    def _list_filters(
        self, security_group: base.Resource | str | None, filters: dict[str, object]
    ) -> dict[str, object]:
        """The Neutron filters of a rule list."""
        if security_group is not None:
            filters["security_group_id"] = base.getid(security_group)
        return filters

    def create(
        self,
        security_group: base.Resource | str,
        direction: str = "ingress",
        ethertype: str = "IPv4",
        protocol: str | int | None = None,
        port_range_min: int | str | None = None,
        port_range_max: int | str | None = None,
        remote_ip_prefix: str | None = None,
        remote_group: base.Resource | str | None = None,
        description: str | None = None,
    ) -> base.Resource:
        """Add a rule to ``security_group`` (a group or id); see
        :meth:`check_create` for what is refused before sending."""
        body = self.check_create(
            direction, ethertype, protocol, port_range_min, port_range_max,
            remote_ip_prefix, remote_group, description,
        )  # fmt: skip
        body["security_group_id"] = base.getid(security_group)
        return self._create_body(body)

    def check_create(
        self,
        direction: str = "ingress",
        ethertype: str = "IPv4",
        protocol: str | int | None = None,
        port_range_min: int | str | None = None,
        port_range_max: int | str | None = None,
        remote_ip_prefix: str | None = None,
        remote_group: base.Resource | str | None = None,
        description: str | None = None,
    ) -> dict[str, Any]:
        """The rule's body without its group: ValidationError for a
        direction, ether type, port range or remote Neutron would refuse."""
        if direction not in DIRECTIONS:
            raise exceptions.ValidationError(
                "{direction} must be ingress or egress, not %r." % (direction,),
                params=("direction",),
            )
        if ethertype not in ETHERTYPES:
            raise exceptions.ValidationError(
                "{ethertype} must be IPv4 or IPv6, not %r." % (ethertype,), params=("ethertype",)
            )
        if remote_ip_prefix is not None and remote_group is not None:
            raise exceptions.ValidationError(
                "Give {remote_ip_prefix} or {remote_group}, not both.",
                params=("remote_ip_prefix", "remote_group"),
            )
        body: dict[str, Any] = {"direction": direction, "ethertype": ethertype}
        if protocol is not None:
            protocol = str(protocol).lower()
            if protocol != "any":
                body["protocol"] = protocol
        icmp = body.get("protocol") in ICMP_PROTOCOLS
        if icmp and (port_range_min is not None or port_range_max is not None):
            # the ICMP type and code (OSC's --icmp-type, --icmp-code)
            if port_range_min is not None:
                body["port_range_min"] = port_range_min
            if port_range_max is not None:
                body["port_range_max"] = port_range_max
        elif port_range_min is not None or port_range_max is not None:
            if body.get("protocol") not in PORT_PROTOCOLS:
                raise exceptions.ValidationError(
                    "A port range ({port_range_min}) needs a protocol with ports "
                    "(tcp, udp, sctp, dccp or udplite).",
                    params=("port_range_min",),
                )
            low = _port(port_range_min if port_range_min is not None else port_range_max)
            high = _port(port_range_max if port_range_max is not None else port_range_min)
            if low > high:
                raise exceptions.ValidationError(
                    "The port range {port_range_min} %d:%d starts above its end." % (low, high),
                    params=("port_range_min",),
                )
            body.update(port_range_min=low, port_range_max=high)
        if remote_ip_prefix is not None:
            body["remote_ip_prefix"] = remote_ip_prefix
        if remote_group is not None:
            body["remote_group_id"] = base.getid(remote_group)
        if description is not None:
            body["description"] = description
        return body


def _port(value: SupportsInt | str | None) -> int:
    try:
        port = int(value) if value is not None else -1
    except (TypeError, ValueError):
        port = -1
    if not 0 <= port <= 65535:
        raise exceptions.ValidationError(
            "Port {port_range_min} %r is not a port number (0 to 65535)." % (value,),
            params=("port_range_min",),
        )
    return port
