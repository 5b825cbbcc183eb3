"""``OS::Neutron::FloatingIP`` and ``OS::Neutron::FloatingIPAssociation``
(Heat's ``neutron/floatingip.py``): a floating IP of the local Neutron,
allocated from an external network, and its association to a port.
(Heat's ``FloatingIPPortForward`` is not served: the local Neutron has no
port forwardings.)"""

from collections.abc import Mapping
from typing import Any

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import constraints
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine.clients import ClientError
from occli.localcloud.orchestration.engine.resources.openstack.neutron import neutron

P = properties.Schema
A = attributes.Schema


class FloatingIP(neutron.NeutronResource):
    """A Neutron floating IP."""

    entity = "floatingip"
    properties_schema = {
        "floating_network": P(
            P.STRING,
            "Network to allocate floating IP from.",
            required=True,
            constraints=[constraints.CustomConstraint("neutron.network")],
        ),
        "floating_subnet": P(
            P.STRING,
            "Subnet to allocate floating IP from.",
            constraints=[constraints.CustomConstraint("neutron.subnet")],
        ),
        "value_specs": P(
            P.MAP,
            'Extra parameters to include in the "floatingip" object in the creation '
            "request. Parameters are often specific to installed hardware or extensions.",
            default={},
        ),
        "port_id": P(
            P.STRING,
            "ID of an existing port with at least one IP address to associate with this "
            "floating IP.",
            update_allowed=True,
            constraints=[constraints.CustomConstraint("neutron.port")],
        ),
        "fixed_ip_address": P(
            P.STRING,
            "IP address to use if the port has multiple addresses.",
            update_allowed=True,
            constraints=[constraints.CustomConstraint("ip_addr")],
        ),
        "floating_ip_address": P(
            P.STRING,
            "IP address of the floating IP. NOTE: The default policy setting in Neutron "
            "restricts usage of this property to administrative users only.",
            constraints=[constraints.CustomConstraint("ip_addr")],
        ),
        "dns_name": P(
            P.STRING,
            "DNS name associated with floating ip.",
            constraints=[constraints.CustomConstraint("rel_dns_name")],
        ),
        "dns_domain": P(
            P.STRING,
            "DNS domain associated with floating ip.",
            constraints=[constraints.CustomConstraint("dns_domain")],
        ),
    }
    attributes_schema = {
        "router_id": A(
            "ID of the router used as gateway, set when associated with a port.", type=A.STRING
        ),
        "tenant_id": A("The tenant owning this floating IP.", type=A.STRING),
        "floating_network_id": A(
            "ID of the network in which this IP is allocated.", type=A.STRING
        ),
        "fixed_ip_address": A("IP address of the associated port, if specified.", type=A.STRING),
        "floating_ip_address": A("The allocated address of this IP.", type=A.STRING),
        "port_id": A("ID of the port associated with this IP.", type=A.STRING),
    }

    def validate(self) -> None:
        super().validate()
        if self.properties["port_id"] is None and self.properties["fixed_ip_address"] is not None:
            raise errors.BadRequest(
                "fixed_ip_address cannot be specified without port_id.",
                type="ResourcePropertyDependency",
            )

    def handle_create(self) -> Any:
        props = self.prepare_properties(self.properties, self.physical_resource_name())
        clients = self.client()
        props["floating_network_id"] = neutron.find_resourceid_by_name_or_id(
            clients, "network", props.pop("floating_network")
        )
        if "floating_subnet" in props:
            props["subnet_id"] = neutron.find_resourceid_by_name_or_id(
                clients, "subnet", props.pop("floating_subnet")
            )
        self.create_entity(props)
        return None

    def check_create_complete(self, handler_data: Any) -> bool:
        return True

    def handle_update(
        self, json_snippet: Mapping[str, Any], tmpl_diff: Mapping[str, Any], prop_diff: dict
    ) -> Any:
        if prop_diff:
            self.update_entity(
                {
                    "port_id": prop_diff.get("port_id", self.properties["port_id"]),
                    "fixed_ip_address": prop_diff.get(
                        "fixed_ip_address", self.properties["fixed_ip_address"]
                    ),
                }
            )
        return None


class FloatingIPAssociation(neutron.NeutronResource):
    """A floating IP associated to a port (its resource id is its own)."""

    properties_schema = {
        "floatingip_id": P(
            P.STRING, "ID of the floating IP to associate.", required=True, update_allowed=True
        ),
        "port_id": P(
            P.STRING,
            "ID of an existing port with at least one IP address to associate with this "
            "floating IP.",
            required=True,
            update_allowed=True,
            constraints=[constraints.CustomConstraint("neutron.port")],
        ),
        "fixed_ip_address": P(
            P.STRING,
            "IP address to use if the port has multiple addresses.",
            update_allowed=True,
            constraints=[constraints.CustomConstraint("ip_addr")],
        ),
    }

    def _associate(self, floatingip_id: str, body: Mapping[str, Any]) -> None:
        self.client().put(
            "network", "/v2.0/floatingips/%s" % floatingip_id, {"floatingip": dict(body)}
        )

    def _disassociate(self, floatingip_id: str) -> None:
        try:
            self._associate(floatingip_id, {"port_id": None})
        except ClientError as exc:
            if not exc.not_found:
                raise

    def handle_create(self) -> Any:
        props = self.prepare_properties(self.properties, self.name)
        self._associate(props.pop("floatingip_id"), props)
        self.resource_id_set(self.uuid or self.name)
        return None

    def check_create_complete(self, handler_data: Any) -> bool:
        return True

    def handle_delete(self) -> Any:
        if self.resource_id:
            self._disassociate(self.properties["floatingip_id"])
        return None

    def check_delete_complete(self, handler_data: Any) -> bool:
        return True

    def handle_update(
        self, json_snippet: Mapping[str, Any], tmpl_diff: Mapping[str, Any], prop_diff: dict
    ) -> Any:
        if not prop_diff:
            return None
        floatingip_id = self.properties["floatingip_id"]
        if "floatingip_id" in prop_diff:
            self._disassociate(floatingip_id)
            floatingip_id = prop_diff["floatingip_id"]
        self._associate(
            floatingip_id,
            {
                "port_id": prop_diff.get("port_id", self.properties["port_id"]),
                "fixed_ip_address": prop_diff.get(
                    "fixed_ip_address", self.properties["fixed_ip_address"]
                ),
            },
        )
        return None

    def show(self) -> Any:
        return None

    def _resolve_attribute(self, name: str) -> Any:
        return None


def resource_mapping() -> dict[str, type[resource.Resource]]:
    return {
        "OS::Neutron::FloatingIP": FloatingIP,
        "OS::Neutron::FloatingIPAssociation": FloatingIPAssociation,
    }
