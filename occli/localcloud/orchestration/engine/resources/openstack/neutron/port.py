"""``OS::Neutron::Port`` (Heat's ``neutron/port.py``): a port of the local
Neutron; network, subnets and security groups by name or id."""

from collections.abc import Mapping
from typing import Any

from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine.resources.openstack.neutron import neutron
from occli.localcloud.orchestration.engine.resources.openstack.neutron import port_schema


class Port(neutron.NeutronResource):
    """A Neutron port."""

    entity = "port"
    properties_schema = port_schema.PROPERTIES_SCHEMA
    attributes_schema = port_schema.ATTRIBUTES_SCHEMA

    def _prepare_port_properties(self, props: dict[str, Any], for_update: bool = False) -> None:
        """Heat's ``_prepare_port_properties``: subnets and groups as ids,
        no None values inside ``fixed_ips``/``allowed_address_pairs``."""
        clients = self.client()
        if not props.pop("no_fixed_ips", False):
            if "fixed_ips" in props:
                if props["fixed_ips"]:
                    fixed_ips = []
                    for given in props["fixed_ips"]:
                        fixed = {k: v for k, v in given.items() if v is not None}
                        if "subnet" in fixed:
                            fixed["subnet_id"] = neutron.find_resourceid_by_name_or_id(
                                clients, "subnet", fixed.pop("subnet")
                            )
                        fixed_ips.append(fixed)
                    props["fixed_ips"] = fixed_ips
                else:
                    del props["fixed_ips"]
        else:
            props["fixed_ips"] = []
        if "allowed_address_pairs" in props:
            props["allowed_address_pairs"] = [
                {k: v for k, v in pair.items() if v is not None}
                for pair in props["allowed_address_pairs"] or []
            ]
        if "security_groups" in props:
            if props["security_groups"] is not None:
                props["security_groups"] = neutron.get_secgroup_uuids(
                    clients, props["security_groups"]
                )
        elif for_update:
            props["security_groups"] = neutron.get_secgroup_uuids(clients, ["default"])
        props.pop("replacement_policy", None)
        if props.get("qos_policy"):
            props["qos_policy_id"] = props.pop("qos_policy")

    def handle_create(self) -> Any:
        props = self.prepare_properties(self.properties, self.physical_resource_name())
        props["network_id"] = neutron.find_resourceid_by_name_or_id(
            self.client(), "network", props.pop("network")
        )
        tags = props.pop("tags", None)
        self._prepare_port_properties(props)
        if props.get("binding:vnic_type") == "normal":
            # Neutron's own default: the local Neutron takes no binding
            # attributes on create, and the port is the same without it
            props.pop("binding:vnic_type")
        self.create_entity(props)
        if tags:
            self.set_tags(tags)
        return None

    def handle_update(
        self, json_snippet: Mapping[str, Any], tmpl_diff: Mapping[str, Any], prop_diff: dict
    ) -> Any:
        if prop_diff:
            self.prepare_update_properties(prop_diff)
            if "tags" in prop_diff:
                self.set_tags(prop_diff.pop("tags"))
            self._prepare_port_properties(prop_diff, for_update="security_groups" in prop_diff)
            self.update_entity(prop_diff)
        return None

    def check_update_complete(self, handler_data: Any) -> bool:
        return self.is_built(self._show_resource())

    def _resolve_attribute(self, name: str) -> Any:
        if self.resource_id is None:
            return None
        port = self._show_resource()
        clients = self.client()
        if name == "subnets":
            return [
                clients.get("network", "/v2.0/subnets/%s" % f["subnet_id"]).body["subnet"]
                for f in port.get("fixed_ips") or []
            ]
        if name == "network":
            return clients.get("network", "/v2.0/networks/%s" % port["network_id"]).body["network"]
        return port.get(name)


def resource_mapping() -> dict[str, type[resource.Resource]]:
    return {"OS::Neutron::Port": Port}
