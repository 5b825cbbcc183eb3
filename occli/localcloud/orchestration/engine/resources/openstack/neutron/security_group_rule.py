"""``OS::Neutron::SecurityGroupRule`` (Heat's
``neutron/security_group_rule.py``): one rule added to a group given by
name or id."""

from typing import Any

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import constraints
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine import support
from occli.localcloud.orchestration.engine.resources.openstack.neutron import neutron
from occli.localcloud.orchestration.engine.resources.openstack.neutron import security_group

P = properties.Schema
_RULE = security_group.RULE_SCHEMA


class SecurityGroupRule(neutron.NeutronResource):
    """A Neutron security group rule."""

    support_status = support.SupportStatus(version="7.0.0")

    entity = "security_group_rule"
    properties_schema = {
        "security_group": P(
            P.STRING,
            "Security group name or ID to add rule.",
            required=True,
            constraints=[constraints.CustomConstraint("neutron.security_group")],
        ),
        "description": P(P.STRING, "Description of the security group rule."),
        "direction": _RULE["direction"],
        "ethertype": _RULE["ethertype"],
        "port_range_min": _RULE["port_range_min"],
        "port_range_max": _RULE["port_range_max"],
        "protocol": P(
            P.STRING,
            neutron.SECURITY_GROUP_PROTOCOL_DESCRIPTION,
            default="tcp",
            constraints=[constraints.AllowedValues(neutron.ALLOWED_SECURITY_GROUP_PROTOCOLS)],
        ),
        "remote_group": P(
            P.STRING,
            "The remote group name or ID to be associated with this security group rule.",
            constraints=[constraints.CustomConstraint("neutron.security_group")],
        ),
        "remote_ip_prefix": _RULE["remote_ip_prefix"],
    }

    def validate(self) -> None:
        super().validate()
        props = self.properties
        if props["remote_group"] is not None and props["remote_ip_prefix"] is not None:
            raise errors.BadRequest(
                "Cannot define the following properties at the same time: "
                "remote_group, remote_ip_prefix.",
                type="ResourcePropertyConflict",
            )
        port_max, port_min = props["port_range_max"], props["port_range_min"]
        if (
            port_max is not None
            and port_min is not None
            and props["protocol"] not in ("icmp", "icmpv6", "ipv6-icmp")
            and port_max < port_min
        ):
            raise errors.BadRequest(
                "The minimum port number must be less than or equal to the maximum port number.",
                type="StackValidationFailed",
            )

    def handle_create(self) -> Any:
        props = self.prepare_properties(self.properties, self.physical_resource_name())
        clients = self.client()
        props["security_group_id"] = neutron.find_resourceid_by_name_or_id(
            clients, "security_group", props.pop("security_group")
        )
        if "remote_group" in props:
            props["remote_group_id"] = neutron.find_resourceid_by_name_or_id(
                clients, "security_group", props.pop("remote_group")
            )
        self.create_entity(props)
        return None

    def check_create_complete(self, handler_data: Any) -> bool:
        return True

    def handle_delete(self) -> Any:
        if self.resource_id is not None:
            self.client().delete_ignoring_not_found("network", self._path())
        return None


def resource_mapping() -> dict[str, type[resource.Resource]]:
    return {"OS::Neutron::SecurityGroupRule": SecurityGroupRule}
