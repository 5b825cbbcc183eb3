"""``OS::Neutron::Subnet`` (Heat's ``neutron/subnet.py``): a subnet of a
local Neutron network given by name or id."""

from typing import Any

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import constraints
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine.resources.openstack.neutron import neutron

P = properties.Schema
A = attributes.Schema
_IPV6_MODES = ["dhcpv6-stateful", "dhcpv6-stateless", "slaac"]


class Subnet(neutron.NeutronResource):
    """A Neutron subnet."""

    entity = "subnet"
    properties_schema = {
        "network": P(
            P.STRING,
            "The ID of the attached network.",
            required=True,
            constraints=[constraints.CustomConstraint("neutron.network")],
        ),
        "subnetpool": P(
            P.STRING,
            "The name or ID of the subnet pool.",
            constraints=[constraints.CustomConstraint("neutron.subnetpool")],
        ),
        "prefixlen": P(
            P.INTEGER,
            "Prefix length for subnet allocation from subnet pool.",
            constraints=[constraints.Range(min=0)],
        ),
        "cidr": P(
            P.STRING,
            "The CIDR.",
            constraints=[constraints.CustomConstraint("net_cidr")],
        ),
        "value_specs": P(
            P.MAP,
            "Extra parameters to include in the request.",
            default={},
            update_allowed=True,
        ),
        "name": P(P.STRING, "The name of the subnet.", update_allowed=True),
        "ip_version": P(
            P.INTEGER,
            "The IP version, which is 4 or 6.",
            default=4,
            constraints=[constraints.AllowedValues([4, 6])],
        ),
        "dns_nameservers": P(
            P.LIST,
            "A specified set of DNS name servers to be used.",
            default=[],
            update_allowed=True,
        ),
        "gateway_ip": P(
            P.STRING,
            'The gateway IP address. Set to any of [ null | ~ | "" ] to create/update a '
            "subnet without a gateway. If omitted when creation, neutron will assign the "
            "first free IP address within the subnet to the gateway automatically. If "
            "remove this from template when update, the old gateway IP address will be "
            "detached.",
            update_allowed=True,
        ),
        "enable_dhcp": P(
            P.BOOLEAN,
            "Set to true if DHCP is enabled and false if DHCP is disabled.",
            default=True,
            update_allowed=True,
        ),
        "allocation_pools": P(
            P.LIST,
            "The start and end addresses for the allocation pools.",
            schema=P(
                P.MAP,
                schema={
                    "start": P(
                        P.STRING,
                        "Start address for the allocation pool.",
                        required=True,
                        constraints=[constraints.CustomConstraint("ip_addr")],
                    ),
                    "end": P(
                        P.STRING,
                        "End address for the allocation pool.",
                        required=True,
                        constraints=[constraints.CustomConstraint("ip_addr")],
                    ),
                },
            ),
            update_allowed=True,
        ),
        "tenant_id": P(
            P.STRING,
            "The ID of the tenant who owns the network. Only administrative users can "
            "specify a tenant ID other than their own.",
        ),
        "host_routes": P(
            P.LIST,
            "A list of host route dictionaries for the subnet.",
            schema=P(
                P.MAP,
                schema={
                    "destination": P(
                        P.STRING,
                        "The destination for static route.",
                        required=True,
                        constraints=[constraints.CustomConstraint("net_cidr")],
                    ),
                    "nexthop": P(
                        P.STRING,
                        "The next hop for the destination.",
                        required=True,
                        constraints=[constraints.CustomConstraint("ip_addr")],
                    ),
                },
            ),
            update_allowed=True,
        ),
        "ipv6_ra_mode": P(
            P.STRING,
            "IPv6 RA (Router Advertisement) mode.",
            constraints=[constraints.AllowedValues(_IPV6_MODES)],
        ),
        "ipv6_address_mode": P(
            P.STRING,
            "IPv6 address mode.",
            constraints=[constraints.AllowedValues(_IPV6_MODES)],
        ),
        "segment": P(
            P.STRING,
            "The name/ID of the segment to associate.",
            constraints=[constraints.CustomConstraint("neutron.segment")],
            update_allowed=True,
        ),
        "tags": P(
            P.LIST,
            "The tags to be added to the subnet.",
            schema=P(P.STRING),
            update_allowed=True,
        ),
    }
    attributes_schema = {
        "name": A("Friendly name of the subnet.", type=A.STRING),
        "network_id": A("Parent network of the subnet.", type=A.STRING),
        "tenant_id": A("Tenant owning the subnet.", type=A.STRING),
        "allocation_pools": A("Ip allocation pools and their ranges.", type=A.LIST),
        "gateway_ip": A("Ip of the subnet's gateway.", type=A.STRING),
        "host_routes": A("Additional routes for this subnet.", type=A.LIST),
        "ip_version": A("Ip version for the subnet.", type=A.STRING),
        "cidr": A("CIDR block notation for this subnet.", type=A.STRING),
        "dns_nameservers": A("List of dns nameservers.", type=A.LIST),
        "enable_dhcp": A(
            "'true' if DHCP is enabled for this subnet; 'false' otherwise.", type=A.STRING
        ),
    }

    def validate(self) -> None:
        super().validate()
        subnetpool = self.properties["subnetpool"]
        prefixlen = self.properties["prefixlen"]
        cidr = self.properties["cidr"]
        if subnetpool is not None and cidr:
            raise errors.BadRequest(
                "Cannot define the following properties at the same time: subnetpool, cidr.",
                type="ResourcePropertyConflict",
            )
        if subnetpool is None and not cidr:
            raise errors.BadRequest(
                "At least one of the following properties must be specified: subnetpool, cidr.",
                type="PropertyUnspecifiedError",
            )
        if prefixlen and cidr:
            raise errors.BadRequest(
                "Cannot define the following properties at the same time: prefixlen, cidr.",
                type="ResourcePropertyConflict",
            )
        ra_mode = self.properties["ipv6_ra_mode"]
        address_mode = self.properties["ipv6_address_mode"]
        if self.properties["ip_version"] == 4 and (ra_mode or address_mode):
            raise errors.BadRequest(
                "ipv6_ra_mode and ipv6_address_mode are not supported for ipv4.",
                type="StackValidationFailed",
            )
        if ra_mode and address_mode and ra_mode != address_mode:
            raise errors.BadRequest(
                "When both ipv6_ra_mode and ipv6_address_mode are set, they must be equal.",
                type="StackValidationFailed",
            )

    def handle_create(self) -> Any:
        props = self.prepare_properties(self.properties, self.physical_resource_name())
        props["network_id"] = neutron.find_resourceid_by_name_or_id(
            self.client(), "network", props.pop("network")
        )
        if props.get("segment"):
            props["segment_id"] = props.pop("segment")
        if props.get("subnetpool"):
            props["subnetpool_id"] = props.pop("subnetpool")
        tags = props.pop("tags", None)
        _normalize_gateway_ip(props)
        self.create_entity(props)
        if tags:
            self.set_tags(tags)
        return None

    def check_create_complete(self, handler_data: Any) -> bool:
        return True

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: dict) -> Any:
        _normalize_gateway_ip(prop_diff)
        return super().handle_update(json_snippet, tmpl_diff, prop_diff)


def _normalize_gateway_ip(props: dict[str, Any]) -> None:
    """Heat's rule: ``""`` (a template's null) is no gateway, ``auto``
    leaves it to Neutron."""
    if "gateway_ip" not in props:
        return
    if props["gateway_ip"] == "":
        props["gateway_ip"] = None
    elif props["gateway_ip"] == "auto":
        props.pop("gateway_ip")


def resource_mapping() -> dict[str, type[resource.Resource]]:
    return {"OS::Neutron::Subnet": Subnet}
