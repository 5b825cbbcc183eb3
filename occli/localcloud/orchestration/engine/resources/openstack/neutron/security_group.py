"""``OS::Neutron::SecurityGroup`` (Heat's ``neutron/security_group.py``):
a security group of the local Neutron with its rules in line. Giving
egress rules replaces Neutron's default egress rules; an update
reconciles the rules against what Neutron has (Heat's ``_update_rules``).
"""

from collections.abc import Mapping
from typing import Any

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import constraints
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine import support
from occli.localcloud.orchestration.engine.clients import ClientError
from occli.localcloud.orchestration.engine.resources.openstack.neutron import neutron

P = properties.Schema

RULE_SCHEMA: dict[str, properties.Schema] = {
    "direction": P(
        P.STRING,
        "The direction in which the security group rule is applied.",
        default="ingress",
        constraints=[constraints.AllowedValues(["ingress", "egress"])],
    ),
    "ethertype": P(
        P.STRING,
        "Ethertype of the traffic.",
        default="IPv4",
        constraints=[constraints.AllowedValues(["IPv4", "IPv6"])],
    ),
    "port_range_min": P(
        P.INTEGER,
        "The minimum port number in the range that is matched by the security group rule.",
        constraints=[constraints.Range(0, 65535)],
    ),
    "port_range_max": P(
        P.INTEGER,
        "The maximum port number in the range that is matched by the security group rule.",
        constraints=[constraints.Range(0, 65535)],
    ),
    "protocol": P(
        P.STRING,
        neutron.SECURITY_GROUP_PROTOCOL_DESCRIPTION
        + " If not specified, all protocols will be matched.",
        constraints=[constraints.AllowedValues(neutron.ALLOWED_SECURITY_GROUP_PROTOCOLS)],
    ),
    "remote_mode": P(
        P.STRING,
        "Whether to specify a remote group or a remote IP prefix.",
        default="remote_ip_prefix",
        constraints=[constraints.AllowedValues(["remote_ip_prefix", "remote_group_id"])],
    ),
    "remote_group_id": P(
        P.STRING,
        "The remote group ID to be associated with this security group rule.",
        constraints=[constraints.CustomConstraint("neutron.security_group")],
    ),
    "remote_ip_prefix": P(
        P.STRING,
        "The remote IP prefix (CIDR) to be associated with this security group rule.",
        constraints=[constraints.CustomConstraint("net_cidr")],
    ),
    "description": P(P.STRING, "Description of the security group rule."),
}

DEFAULT_EGRESS_RULES = [
    {"direction": "egress", "ethertype": "IPv4"},
    {"direction": "egress", "ethertype": "IPv6"},
]
_COMPARABLE_RULE_KEYS = (
    "direction",
    "ethertype",
    "protocol",
    "port_range_min",
    "port_range_max",
    "remote_group_id",
    "remote_ip_prefix",
    "security_group_id",
)


def _rule_key(rule: Mapping[str, Any]) -> tuple[str | None, ...]:
    return tuple(
        str(rule.get(k)) if rule.get(k) is not None else None for k in _COMPARABLE_RULE_KEYS
    )


class SecurityGroup(neutron.NeutronResource):
    """A Neutron security group."""

    support_status = support.SupportStatus(version="2014.1")

    entity = "security_group"
    properties_schema = {
        "name": P(
            P.STRING,
            "A string specifying a symbolic name for the security group, which is not "
            "required to be unique.",
            update_allowed=True,
        ),
        "description": P(P.STRING, "Description of the security group.", update_allowed=True),
        "rules": P(
            P.LIST,
            "List of security group rules.",
            default=[],
            schema=P(P.MAP, schema=RULE_SCHEMA),
            update_allowed=True,
        ),
        "stateful": P(
            P.BOOLEAN,
            "Whether to create this security group as stateful or stateless.",
            update_allowed=True,
        ),
    }

    def validate(self) -> None:
        super().validate()
        if self.properties["name"] == "default":
            raise errors.BadRequest(
                'Security groups cannot be assigned the name "default".',
                type="StackValidationFailed",
            )

    def handle_create(self) -> Any:
        props = self.prepare_properties(self.properties, self.physical_resource_name())
        rules = props.pop("rules", [])
        self.create_entity(props)
        self._create_rules(rules)
        return None

    def check_create_complete(self, handler_data: Any) -> bool:
        return True

    def _format_rule(self, given: Mapping[str, Any]) -> dict[str, Any]:
        rule = dict(given)
        rule["security_group_id"] = self.resource_id
        if "remote_mode" in rule:
            if rule.pop("remote_mode") == "remote_group_id":
                rule["remote_ip_prefix"] = None
                if not rule.get("remote_group_id"):
                    rule["remote_group_id"] = self.resource_id
            else:
                rule["remote_group_id"] = None
        for key in ("port_range_min", "port_range_max"):
            if rule.get(key) is not None:
                rule[key] = int(rule[key])
        if rule.get("description") is None:
            rule.pop("description", None)
        return rule

    def _post_rule(self, rule: Mapping[str, Any]) -> None:
        body = {k: v for k, v in rule.items() if v is not None}
        self.client().post("network", "/v2.0/security-group-rules", {"security_group_rule": body})

    def _create_rules(self, rules: list[Mapping[str, Any]]) -> None:
        if not rules:
            return
        if any(r["direction"] == "egress" for r in rules):
            self._delete_rules(lambda rule: rule["direction"] == "egress")
        for rule in rules:
            self._post_rule(self._format_rule(rule))

    def _delete_rules(self, to_delete: Any = None) -> None:
        try:
            group = self._show_resource()
        except ClientError as exc:
            if not exc.not_found:
                raise
            return
        for rule in group["security_group_rules"]:
            if to_delete is None or to_delete(rule):
                self.client().delete_ignoring_not_found(
                    "network", "/v2.0/security-group-rules/%s" % rule["id"]
                )

    def handle_delete(self) -> Any:
        if self.resource_id is None:
            return None
        self._delete_rules()
        self.client().delete_ignoring_not_found("network", self._path())
        return None

    def _update_rules(self, rules: list[Mapping[str, Any]]) -> None:
        desired_rules = list(rules or [])
        if not any(r["direction"] == "egress" for r in desired_rules):
            desired_rules.extend(DEFAULT_EGRESS_RULES)
        desired = [(_rule_key(r), r) for r in (self._format_rule(r) for r in desired_rules)]
        desired_keys = {k for k, _r in desired}
        current = [(_rule_key(r), r) for r in self._show_resource()["security_group_rules"]]
        current_keys = {k for k, _r in current}
        for key, rule in current:
            if key not in desired_keys:
                self.client().delete_ignoring_not_found(
                    "network", "/v2.0/security-group-rules/%s" % rule["id"]
                )
        for key, rule in desired:
            if key not in current_keys:
                self._post_rule(rule)

    def handle_update(
        self, json_snippet: Mapping[str, Any], tmpl_diff: Mapping[str, Any], prop_diff: dict
    ) -> Any:
        rules = prop_diff.pop("rules", None)
        if prop_diff:
            self.prepare_update_properties(prop_diff)
            self.update_entity(prop_diff)
        if rules is not None:
            self._update_rules(rules)
        return None


def resource_mapping() -> dict[str, type[resource.Resource]]:
    return {"OS::Neutron::SecurityGroup": SecurityGroup}
