"""``OS::Neutron::Router``, ``RouterInterface`` and ``RouterGateway``
(Heat's ``neutron/router.py``): a router of the local Neutron, its
interfaces on subnets or ports, and its external gateway.

The types are mapped only when the local Neutron serves routers
(:func:`routers_served`), as Heat maps a type only when its service
extension is there: until then a template using them fails with Heat's
"The Resource Type (OS::Neutron::Router) could not be found."
"""

import importlib.util
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

# the rules module the local Neutron's routers API will live in
ROUTERS_MODULE = "occli.localcloud.network.routers"


def routers_served() -> bool:
    """Whether the local Neutron serves routers: the routers API (issue 20,
    images/routers/objects) adds the rules module :data:`ROUTERS_MODULE`.
    Decided without a request, as the registry is built before the cloud
    serves any (Heat's ``required_service_extension = 'router'``)."""
    return importlib.util.find_spec(ROUTERS_MODULE) is not None


def _conflict(*names: str) -> errors.BadRequest:
    return errors.BadRequest(
        "Cannot define the following properties at the same time: %s." % ", ".join(names),
        type="ResourcePropertyConflict",
    )


class Router(neutron.NeutronResource):
    """A Neutron router."""

    entity = "router"
    properties_schema = {
        "name": P(P.STRING, "The name of the router.", update_allowed=True),
        "external_gateway_info": P(
            P.MAP,
            "External network gateway configuration for a router.",
            schema={
                "network": P(
                    P.STRING,
                    "ID or name of the external network for the gateway.",
                    required=True,
                    update_allowed=True,
                ),
                "enable_snat": P(
                    P.BOOLEAN,
                    "Enables Source NAT on the router gateway. NOTE: The default policy "
                    "setting in Neutron restricts usage of this property to administrative "
                    "users only.",
                    update_allowed=True,
                ),
                "external_fixed_ips": P(
                    P.LIST,
                    "External fixed IP addresses for the gateway.",
                    schema=P(
                        P.MAP,
                        schema={
                            "ip_address": P(
                                P.STRING,
                                "External fixed IP address.",
                                constraints=[constraints.CustomConstraint("ip_addr")],
                            ),
                            "subnet": P(
                                P.STRING,
                                "Subnet of external fixed IP address.",
                                constraints=[constraints.CustomConstraint("neutron.subnet")],
                            ),
                        },
                    ),
                    update_allowed=True,
                ),
            },
            update_allowed=True,
        ),
        "value_specs": P(
            P.MAP,
            "Extra parameters to include in the creation request.",
            default={},
            update_allowed=True,
        ),
        "admin_state_up": P(
            P.BOOLEAN, "The administrative state of the router.", default=True, update_allowed=True
        ),
        "l3_agent_ids": P(
            P.LIST,
            "ID list of the L3 agent. User can specify multi-agents for highly available "
            "router. NOTE: The default policy setting in Neutron restricts usage of this "
            "property to administrative users only.",
            schema=P(P.STRING),
            update_allowed=True,
        ),
        "distributed": P(
            P.BOOLEAN,
            "Indicates whether or not to create a distributed router. NOTE: The default "
            "policy setting in Neutron restricts usage of this property to administrative "
            "users only. This property can not be used in conjunction with the L3 agent ID.",
        ),
        "ha": P(
            P.BOOLEAN,
            "Indicates whether or not to create a highly available router. NOTE: The default "
            "policy setting in Neutron restricts usage of this property to administrative "
            "users only. And now neutron do not support distributed and ha at the same time.",
        ),
        "availability_zone_hints": P(
            P.LIST,
            "Availability zone candidates for the router. It requires the "
            "availability_zone extension to be available.",
            update_allowed=True,
        ),
        "tags": P(
            P.LIST,
            "The tags to be added to the router.",
            schema=P(P.STRING),
            update_allowed=True,
        ),
        "tenant_id": P(
            P.STRING,
            "The ID of the tenant which will own the router. Only administrative users can "
            "set the tenant identifier; this cannot be changed using authorization policies.",
        ),
    }
    attributes_schema = {
        "status": A("The status of the router.", type=A.STRING),
        "external_gateway_info": A("Gateway network for the router.", type=A.MAP),
        "name": A("Friendly name of the router.", type=A.STRING),
        "admin_state_up": A("Administrative state of the router.", type=A.STRING),
        "tenant_id": A("Tenant owning the router.", type=A.STRING),
    }

    def validate(self) -> None:
        super().validate()
        props = self.properties
        if props["distributed"] and props["l3_agent_ids"]:
            raise _conflict("distributed", "l3_agent_id/l3_agent_ids")
        if props["ha"] and props["distributed"]:
            raise _conflict("distributed", "ha")
        if not props["ha"] and len(props["l3_agent_ids"] or []) > 1:
            raise errors.BadRequest(
                "Non HA routers can only have one L3 agent.", type="StackValidationFailed"
            )

    def _resolve_gateway(self, props: dict[str, Any]) -> None:
        """Heat's gateway translation: names resolved to ids, unset keys
        dropped, ``subnet`` as ``subnet_id``."""
        gateway = props.get("external_gateway_info")
        if not gateway:
            return
        gateway = dict(gateway)
        clients = self.client()
        gateway["network_id"] = neutron.find_resourceid_by_name_or_id(
            clients, "network", gateway.pop("network")
        )
        if gateway.get("enable_snat") is None:
            gateway.pop("enable_snat", None)
        fixed_ips = gateway.pop("external_fixed_ips", None)
        if fixed_ips is not None:
            resolved = []
            for fixed_ip in fixed_ips:
                item = {k: v for k, v in fixed_ip.items() if v is not None}
                if "subnet" in item:
                    item["subnet_id"] = neutron.find_resourceid_by_name_or_id(
                        clients, "subnet", item.pop("subnet")
                    )
                resolved.append(item)
            gateway["external_fixed_ips"] = resolved
        props["external_gateway_info"] = gateway

    def handle_create(self) -> Any:
        props = self.prepare_properties(self.properties, self.physical_resource_name())
        self._resolve_gateway(props)
        agents = props.pop("l3_agent_ids", None)
        tags = props.pop("tags", None)
        self.create_entity(props)
        if agents:
            self._replace_agent(agents)
        if tags:
            self.set_tags(tags)
        return None

    def _replace_agent(self, agent_ids: list[str] | None) -> None:
        """Heat's L3 agent scheduling (an admin's extension)."""
        clients = self.client()
        hosting = clients.get("network", self._path() + "/l3-agents").body["agents"]
        for agent in hosting:
            clients.delete(
                "network", "/v2.0/agents/%s/l3-routers/%s" % (agent["id"], self.resource_id)
            )
        for agent_id in agent_ids or []:
            clients.post(
                "network", "/v2.0/agents/%s/l3-routers" % agent_id, {"router_id": self.resource_id}
            )

    def handle_update(
        self, json_snippet: Mapping[str, Any], tmpl_diff: Mapping[str, Any], prop_diff: dict
    ) -> Any:
        if "external_gateway_info" in prop_diff:
            self._resolve_gateway(prop_diff)
        if "l3_agent_ids" in prop_diff:
            self._replace_agent(prop_diff.pop("l3_agent_ids"))
        return super().handle_update(json_snippet, tmpl_diff, prop_diff)


class RouterInterface(neutron.NeutronResource):
    """A router's interface on a subnet or a port; its id
    ``<router>:<subnet_id|port_id>=<id>`` as Heat's."""

    properties_schema = {
        "router": P(
            P.STRING,
            "The router.",
            required=True,
            constraints=[constraints.CustomConstraint("neutron.router")],
        ),
        "subnet": P(
            P.STRING,
            "The subnet, either subnet or port should be specified.",
            constraints=[constraints.CustomConstraint("neutron.subnet")],
        ),
        "port": P(
            P.STRING,
            "The port, either subnet or port should be specified.",
            constraints=[constraints.CustomConstraint("neutron.port")],
        ),
    }

    def validate(self) -> None:
        super().validate()
        subnet = self.properties["subnet"] is not None
        port = self.properties["port"] is not None
        if subnet and port:
            raise _conflict("subnet", "port")
        if not subnet and not port:
            raise errors.BadRequest(
                "At least one of the following properties must be specified: subnet, port.",
                type="PropertyUnspecifiedError",
            )

    def handle_create(self) -> Any:
        clients = self.client()
        router_id = neutron.find_resourceid_by_name_or_id(
            clients, "router", self.properties["router"]
        )
        key, entity = ("subnet_id", "subnet") if self.properties["subnet"] else ("port_id", "port")
        value = neutron.find_resourceid_by_name_or_id(clients, entity, self.properties[entity])
        clients.put("network", "/v2.0/routers/%s/add_router_interface" % router_id, {key: value})
        self.resource_id_set("%s:%s=%s" % (router_id, key, value))
        return None

    def check_create_complete(self, handler_data: Any) -> bool:
        return True

    def show(self) -> Any:
        return None

    def _resolve_attribute(self, name: str) -> Any:
        return None

    def handle_delete(self) -> Any:
        if not self.resource_id:
            return None
        tokens = self.resource_id.replace("=", ":").split(":")
        if len(tokens) == 2:  # heat's older ids: <router>:<subnet>
            tokens.insert(1, "subnet_id")
        router_id, key, value = tokens
        try:
            self.client().put(
                "network", "/v2.0/routers/%s/remove_router_interface" % router_id, {key: value}
            )
        except ClientError as exc:
            if not exc.not_found:
                raise
        return None

    def check_delete_complete(self, handler_data: Any) -> bool:
        return True


class RouterGateway(neutron.NeutronResource):
    """A router's external gateway (Heat keeps it hidden: use the router's
    ``external_gateway_info``)."""

    support_status = "HIDDEN"
    properties_schema = {
        "router_id": P(
            P.STRING,
            "ID of the router.",
            required=True,
            constraints=[constraints.CustomConstraint("neutron.router")],
        ),
        "network": P(
            P.STRING,
            "external network for the gateway.",
            constraints=[constraints.CustomConstraint("neutron.network")],
        ),
    }

    def handle_create(self) -> Any:
        router_id = self.properties["router_id"]
        network_id = neutron.find_resourceid_by_name_or_id(
            self.client(), "network", self.properties["network"]
        )
        self.client().put(
            "network",
            "/v2.0/routers/%s" % router_id,
            {"router": {"external_gateway_info": {"network_id": network_id}}},
        )
        self.resource_id_set("%s:%s" % (router_id, network_id))
        return None

    def check_create_complete(self, handler_data: Any) -> bool:
        return True

    def show(self) -> Any:
        return None

    def _resolve_attribute(self, name: str) -> Any:
        return None

    def handle_delete(self) -> Any:
        if not self.resource_id:
            return None
        router_id = self.resource_id.split(":")[0]
        try:
            self.client().put(
                "network",
                "/v2.0/routers/%s" % router_id,
                {"router": {"external_gateway_info": {}}},
            )
        except ClientError as exc:
            if not exc.not_found:
                raise
        return None

    def check_delete_complete(self, handler_data: Any) -> bool:
        return True


def available_resource_mapping() -> dict[str, type[resource.Resource]]:
    """The router types, once the local Neutron serves routers."""
    if not routers_served():
        return {}
    return {
        "OS::Neutron::Router": Router,
        "OS::Neutron::RouterInterface": RouterInterface,
        "OS::Neutron::RouterGateway": RouterGateway,
    }
