"""``OS::Neutron::Net`` (Heat's ``neutron/net.py``): a network of the local
Neutron in the stack's project."""

from typing import Any

from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import constraints
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine.resources.openstack.neutron import neutron

P = properties.Schema
A = attributes.Schema


class Net(neutron.NeutronResource):
    """A Neutron network."""

    entity = "network"
    properties_schema = {
        "name": P(
            P.STRING,
            "A string specifying a symbolic name for the network, which is not required "
            "to be unique.",
            update_allowed=True,
        ),
        "value_specs": P(
            P.MAP,
            "Extra parameters to include in the request. Parameters are often specific to "
            "installed hardware or extensions.",
            default={},
            update_allowed=True,
        ),
        "admin_state_up": P(
            P.BOOLEAN,
            "A boolean value specifying the administrative status of the network.",
            default=True,
            update_allowed=True,
        ),
        "tenant_id": P(
            P.STRING,
            "The ID of the tenant which will own the network. Only administrative users "
            "can set the tenant identifier; this cannot be changed using authorization "
            "policies.",
        ),
        "shared": P(
            P.BOOLEAN,
            "Whether this network should be shared across all tenants. Note that the "
            "default policy setting restricts usage of this attribute to administrative "
            "users only.",
            default=False,
            update_allowed=True,
        ),
        "dhcp_agent_ids": P(
            P.LIST,
            "The IDs of the DHCP agent to schedule the network.",
            update_allowed=True,
        ),
        "port_security_enabled": P(
            P.BOOLEAN,
            "Flag to enable/disable port security on the network. It provides the default "
            "value for the attribute of the ports created on this network.",
            update_allowed=True,
        ),
        "qos_policy": P(
            P.STRING,
            "The name or ID of QoS policy to attach to this network.",
            constraints=[constraints.CustomConstraint("neutron.qos_policy")],
            update_allowed=True,
        ),
        "dns_domain": P(
            P.STRING,
            "DNS domain associated with this network.",
            constraints=[constraints.CustomConstraint("dns_domain")],
            update_allowed=True,
        ),
        "availability_zone_hints": P(P.LIST, "Availability zone candidates for the network."),
        "tags": P(
            P.LIST,
            "The tags to be added to the network.",
            schema=P(P.STRING),
            update_allowed=True,
        ),
    }
    attributes_schema = {
        "status": A("The status of the network.", type=A.STRING),
        "name": A("The name of the network.", type=A.STRING),
        "subnets": A("Subnets of this network.", type=A.LIST),
        "admin_state_up": A("The administrative status of the network.", type=A.STRING),
        "tenant_id": A("The tenant owning this network.", type=A.STRING),
        "port_security_enabled": A("Port security enabled of the network.", type=A.BOOLEAN),
        "mtu": A("The maximum transmission unit size(in bytes) for the network.", type=A.INTEGER),
        "qos_policy_id": A("The QoS policy ID attached to this network.", type=A.STRING),
        "l2_adjacency": A(
            "A boolean value for L2 adjacency, True means that you can expect L2 "
            "connectivity throughout the Network.",
            type=A.BOOLEAN,
        ),
        "segments": A("The segments of this network.", type=A.LIST),
    }

    def handle_create(self) -> Any:
        props = self.prepare_properties(self.properties, self.physical_resource_name())
        props.pop("dhcp_agent_ids", None)
        tags = props.pop("tags", None)
        if props.get("qos_policy"):
            props["qos_policy_id"] = props.pop("qos_policy")
        self.create_entity(props)
        if tags:
            self.set_tags(tags)
        return None

    def check_update_complete(self, handler_data: Any) -> bool:
        return self.is_built(self._show_resource())

    def _resolve_attribute(self, name: str) -> Any:
        if self.resource_id is None:
            return None
        if name == "segments":
            return []
        return self._show_resource().get(name)


def resource_mapping() -> dict[str, type[resource.Resource]]:
    return {"OS::Neutron::Net": Net}
