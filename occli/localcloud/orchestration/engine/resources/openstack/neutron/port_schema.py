"""``OS::Neutron::Port``'s schemas (Heat's ``neutron/port.py``); the
``port_extra_properties`` of a server's network use the extra ones."""

from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import constraints
from occli.localcloud.orchestration.engine import properties

P = properties.Schema
A = attributes.Schema

EXTRA_PROPERTIES_SCHEMA: dict[str, properties.Schema] = {
    "value_specs": P(
        P.MAP,
        "Extra parameters to include in the request.",
        default={},
        update_allowed=True,
    ),
    "admin_state_up": P(
        P.BOOLEAN, "The administrative state of this port.", default=True, update_allowed=True
    ),
    "mac_address": P(
        P.STRING,
        "MAC address to give to this port.",
        constraints=[constraints.CustomConstraint("mac_addr")],
    ),
    "allowed_address_pairs": P(
        P.LIST,
        "Additional MAC/IP address pairs allowed to pass through the port.",
        schema=P(
            P.MAP,
            schema={
                "mac_address": P(
                    P.STRING,
                    "MAC address to allow through this port.",
                    constraints=[constraints.CustomConstraint("mac_addr")],
                ),
                "ip_address": P(
                    P.STRING,
                    "IP address to allow through this port.",
                    required=True,
                    constraints=[constraints.CustomConstraint("ip_or_cidr")],
                ),
            },
        ),
        update_allowed=True,
    ),
    "binding:vnic_type": P(
        P.STRING,
        "The vnic type to be bound on the neutron port.",
        constraints=[
            constraints.AllowedValues(
                [
                    "normal",
                    "direct",
                    "macvtap",
                    "direct-physical",
                    "baremetal",
                    "virtio-forwarder",
                    "smart-nic",
                ]
            )
        ],
        update_allowed=True,
        default="normal",
    ),
    "port_security_enabled": P(
        P.BOOLEAN, "Flag to enable/disable port security on the port.", update_allowed=True
    ),
    "qos_policy": P(
        P.STRING,
        "The name or ID of QoS policy to attach to this port.",
        constraints=[constraints.CustomConstraint("neutron.qos_policy")],
        update_allowed=True,
    ),
    "propagate_uplink_status": P(
        P.BOOLEAN,
        "Flag to enable/disable propagate uplink status on the port.",
        update_allowed=True,
    ),
    "no_fixed_ips": P(
        P.BOOLEAN,
        "Flag to disable all fixed IPs on the port.",
        update_allowed=True,
        default=False,
    ),
}

PROPERTIES_SCHEMA: dict[str, properties.Schema] = {
    "name": P(P.STRING, "A symbolic name for this port.", update_allowed=True),
    "network": P(
        P.STRING,
        "Network this port belongs to.",
        required=True,
        constraints=[constraints.CustomConstraint("neutron.network")],
    ),
    "device_id": P(P.STRING, "Device ID of this port.", update_allowed=True, default=""),
    "device_owner": P(
        P.STRING, "Name of the network owning the port.", update_allowed=True, default=""
    ),
    "fixed_ips": P(
        P.LIST,
        "Desired IPs for this port.",
        schema=P(
            P.MAP,
            schema={
                "subnet": P(
                    P.STRING,
                    "Subnet in which to allocate the IP address for this port.",
                    constraints=[constraints.CustomConstraint("neutron.subnet")],
                ),
                "ip_address": P(
                    P.STRING,
                    "IP address desired in the subnet for this port.",
                    constraints=[constraints.CustomConstraint("ip_addr")],
                ),
            },
        ),
        update_allowed=True,
    ),
    "security_groups": P(
        P.LIST, "Security group IDs to associate with this port.", update_allowed=True
    ),
    "replacement_policy": P(
        P.STRING,
        "Policy on how to respond to a stack-update for this resource.",
        default="AUTO",
        constraints=[constraints.AllowedValues(["REPLACE_ALWAYS", "AUTO"])],
        update_allowed=True,
    ),
    "dns_name": P(
        P.STRING,
        "DNS name associated with the port.",
        update_allowed=True,
        constraints=[constraints.CustomConstraint("dns_name")],
    ),
    "tags": P(
        P.LIST,
        "The tags to be added to the port.",
        schema=P(P.STRING),
        update_allowed=True,
    ),
    **EXTRA_PROPERTIES_SCHEMA,
}

ATTRIBUTES_SCHEMA: dict[str, attributes.Schema] = {
    "admin_state_up": A("The administrative state of this port.", type=A.STRING),
    "device_id": A("Unique identifier for the device.", type=A.STRING),
    "device_owner": A("Name of the network owning the port.", type=A.STRING),
    "fixed_ips": A("Fixed IP addresses.", type=A.LIST),
    "mac_address": A("MAC address of the port.", type=A.STRING),
    "name": A("Friendly name of the port.", type=A.STRING),
    "network_id": A("Unique identifier for the network owning the port.", type=A.STRING),
    "security_groups": A("A list of security groups for the port.", type=A.LIST),
    "status": A("The status of the port.", type=A.STRING),
    "tenant_id": A("Tenant owning the port.", type=A.STRING),
    "allowed_address_pairs": A(
        "Additional MAC/IP address pairs allowed to pass through a port.", type=A.LIST
    ),
    "subnets": A("Subnets of this network.", type=A.LIST),
    "port_security_enabled": A("Port security enabled of the port.", type=A.BOOLEAN),
    "qos_policy_id": A("The QoS policy ID attached to this port.", type=A.STRING),
    "dns_assignment": A("The DNS assigned to this port.", type=A.MAP),
    "network": A("The attributes of the network owning the port.", type=A.MAP),
    "propagate_uplink_status": A(
        "Enable/Disable propagate uplink status for the port.", type=A.BOOLEAN
    ),
}
