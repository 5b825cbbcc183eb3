"""``OS::Nova::Server``'s property and attribute schemas: Heat's names,
types, defaults, constraints and update rules (``nova/server.py``)."""

from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import constraints
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import support
from occli.localcloud.orchestration.engine.resources.openstack.neutron import port_schema
from occli.localcloud.orchestration.engine.resources.openstack.nova import server_base

P = properties.Schema
A = attributes.Schema


def _custom(name: str) -> list[constraints.Constraint]:
    return [constraints.CustomConstraint(name)]


_BDM = P(
    P.MAP,
    schema={
        "device_name": P(
            P.STRING,
            "A device name where the volume will be attached in the system at "
            "/dev/device_name. This value is typically vda.",
            required=True,
        ),
        "volume_id": P(
            P.STRING, "The ID of the volume to boot from.", constraints=_custom("cinder.volume")
        ),
        "snapshot_id": P(
            P.STRING,
            "The ID of the snapshot to create a volume from.",
            constraints=_custom("cinder.snapshot"),
        ),
        "volume_size": P(P.INTEGER, "The size of the volume, in GB."),
        "delete_on_termination": P(
            P.BOOLEAN,
            "Indicate whether the volume should be deleted when the server is terminated.",
        ),
    },
)

_BDM_V2 = P(
    P.MAP,
    schema={
        "device_name": P(P.STRING, "A device name where the volume will be attached."),
        "volume_id": P(
            P.STRING,
            "The volume_id can be boot or non-boot device to the server.",
            constraints=_custom("cinder.volume"),
        ),
        "image_id": P(
            P.STRING,
            "The ID of the image to create a volume from.",
            constraints=_custom("glance.image"),
        ),
        "image": P(
            P.STRING,
            "The ID or name of the image to create a volume from.",
            constraints=_custom("glance.image"),
        ),
        "snapshot_id": P(
            P.STRING,
            "The ID of the snapshot to create a volume from.",
            constraints=_custom("cinder.snapshot"),
        ),
        "swap_size": P(P.INTEGER, "The size of the swap, in MB."),
        "device_type": P(
            P.STRING,
            "Device type: at the moment we can make distinction only between disk and cdrom.",
            constraints=[constraints.AllowedValues(["cdrom", "disk"])],
        ),
        "disk_bus": P(
            P.STRING,
            "Bus of the device: hypervisor driver chooses a suitable default if omitted.",
            constraints=[
                constraints.AllowedValues(["ide", "lame_bus", "sata", "scsi", "usb", "virtio"])
            ],
        ),
        "boot_index": P(P.INTEGER, "Integer used for ordering the boot disks."),
        "volume_size": P(P.INTEGER, "Size of the block device in GB."),
        "delete_on_termination": P(
            P.BOOLEAN,
            "Indicate whether the volume should be deleted when the server is terminated.",
        ),
        "ephemeral_size": P(
            P.INTEGER,
            "The size of the local ephemeral block device, in GB.",
            constraints=[constraints.Range(min=1)],
        ),
        "ephemeral_format": P(
            P.STRING,
            "The format of the local ephemeral block device.",
            constraints=[constraints.AllowedValues(["ext2", "ext3", "ext4", "xfs", "ntfs"])],
        ),
        "volume_type": P(
            P.STRING,
            "The type of volume to use when creating a volume from image, snapshot, "
            "or blank source.",
            constraints=_custom("cinder.vtype"),
        ),
    },
)

_NETWORK = P(
    P.MAP,
    schema={
        "uuid": P(
            P.STRING, "ID of network to create a port on.", constraints=_custom("neutron.network")
        ),
        "network": P(
            P.STRING,
            "Name or ID of network to create a port on.",
            constraints=_custom("neutron.network"),
        ),
        "allocate_network": P(
            P.STRING,
            "The special string values of network, auto: means either a network that is "
            "already available to the project will be used, or if one does not exist, "
            "will be automatically created for the project; none: means no networking "
            "will be allocated for the created server.",
            constraints=[constraints.AllowedValues(["none", "auto"])],
            update_allowed=True,
        ),
        "fixed_ip": P(
            P.STRING,
            "Fixed IP address to specify for the port created on the requested network.",
            constraints=_custom("ip_addr"),
        ),
        "port": P(
            P.STRING,
            "ID of an existing port to associate with this server.",
            constraints=_custom("neutron.port"),
        ),
        "port_extra_properties": P(
            P.MAP,
            "Dict, which has expand properties for port. Used only if port property is "
            "not specified for creating port.",
            schema=port_schema.EXTRA_PROPERTIES_SCHEMA,
            update_allowed=True,
        ),
        "subnet": P(
            P.STRING,
            "Subnet in which to allocate the IP address for port.",
        ),
        "floating_ip": P(P.STRING, "ID of the floating IP to associate."),
        "tag": P(P.STRING, "Port tag. Heat ignores any update on this property."),
    },
)

PROPERTIES_SCHEMA: dict[str, properties.Schema] = {
    "name": P(P.STRING, "Server name.", update_allowed=True),
    "image": P(
        P.STRING,
        "The ID or name of the image to boot with.",
        constraints=_custom("glance.image"),
        update_allowed=True,
    ),
    "block_device_mapping": P(P.LIST, "Block device mappings for this server.", schema=_BDM),
    "block_device_mapping_v2": P(
        P.LIST, "Block device mappings v2 for this server.", schema=_BDM_V2
    ),
    "flavor": P(
        P.STRING,
        "The ID or name of the flavor to boot onto.",
        required=True,
        update_allowed=True,
        constraints=_custom("nova.flavor"),
    ),
    "flavor_update_policy": P(
        P.STRING,
        "Policy on how to apply a flavor update; either by requesting a server resize "
        "or by replacing the entire server.",
        default="RESIZE",
        constraints=[constraints.AllowedValues(["RESIZE", "REPLACE"])],
        update_allowed=True,
    ),
    "image_update_policy": P(
        P.STRING,
        "Policy on how to apply an image-id update; either by requesting a server "
        "rebuild or by replacing the entire server.",
        default="REBUILD",
        constraints=[
            constraints.AllowedValues(["REBUILD", "REPLACE", "REBUILD_PRESERVE_EPHEMERAL"])
        ],
        update_allowed=True,
    ),
    "key_name": P(
        P.STRING,
        "Name of keypair to inject into the server.",
        constraints=_custom("nova.keypair"),
    ),
    "admin_user": P(
        P.STRING,
        "Name of the administrative user to use on the server.",
        support_status=support.SupportStatus(status=support.HIDDEN, version="5.0.0"),
    ),
    "availability_zone": P(P.STRING, "Name of the availability zone for server placement."),
    "security_groups": P(
        P.LIST,
        "List of security group names or IDs. Cannot be used if neutron ports are "
        "associated with this server; assign security groups to the ports instead.",
        default=[],
    ),
    "networks": P(
        P.LIST,
        "An ordered list of nics to be added to this server, with information about "
        "connected networks, fixed ips, port etc.",
        schema=_NETWORK,
        update_allowed=True,
    ),
    "scheduler_hints": P(
        P.MAP,
        "Arbitrary key-value pairs specified by the client to help boot a server.",
    ),
    "metadata": P(
        P.MAP,
        "Arbitrary key/value metadata to store for this server.",
        update_allowed=True,
        default={},
    ),
    "user_data_format": P(
        P.STRING,
        "How the user_data should be formatted for the server.",
        default="RAW",
        constraints=[constraints.AllowedValues(["HEAT_CFNTOOLS", "RAW", "SOFTWARE_CONFIG"])],
    ),
    "software_config_transport": P(
        P.STRING,
        "How the server should receive the metadata required for software configuration.",
        default=server_base.DEFAULT_TRANSPORT,
        update_allowed=True,
        constraints=[constraints.AllowedValues(list(server_base.TRANSPORTS))],
    ),
    "user_data_update_policy": P(
        P.STRING,
        "Policy on how to apply a user_data update; by ignoring it, by replacing the "
        "entire server, or rebuild the server.",
        default="REPLACE",
        constraints=[constraints.AllowedValues(["REPLACE", "IGNORE", "REBUILD"])],
        update_allowed=True,
    ),
    "user_data": P(
        P.STRING,
        "User data script to be executed by cloud-init or CoreOS ignition.",
        default="",
        update_allowed=True,
    ),
    "reservation_id": P(P.STRING, "A UUID for the set of servers being requested."),
    "config_drive": P(P.BOOLEAN, "If True, enable config drive on the server."),
    "diskConfig": P(
        P.STRING,
        "Control how the disk is partitioned when the server is created.",
        constraints=[constraints.AllowedValues(["AUTO", "MANUAL"])],
    ),
    "personality": P(
        P.MAP,
        "A map of files to create/overwrite on the server upon boot.",
        default={},
    ),
    "admin_pass": P(P.STRING, "The administrator password for the server.", update_allowed=True),
    "tags": P(
        P.LIST,
        "Server tags. Supported since client version 2.26.",
        schema=P(P.STRING),
        update_allowed=True,
    ),
    "deployment_swift_data": P(
        P.MAP,
        "Swift container and object to use for storing deployment data for the server resource.",
        default={},
        update_allowed=True,
        schema={
            "container": P(
                P.STRING, "Name of the container.", constraints=[constraints.Length(min=1)]
            ),
            "object": P(P.STRING, "Name of the object.", constraints=[constraints.Length(min=1)]),
        },
    ),
}

ATTRIBUTES_SCHEMA: dict[str, attributes.Schema] = {
    "name": A("Name of the server.", type=A.STRING),
    "addresses": A(
        "A dict of all network addresses with corresponding port_id and subnets.",
        type=A.MAP,
    ),
    "networks": A(
        "A dict of assigned network addresses of the form: "
        '{"public": [ip1, ip2...], "private": [ip3, ip4], '
        '"public_uuid": [ip1, ip2...], "private_uuid": [ip3, ip4]}.',
        type=A.MAP,
    ),
    "first_address": A(
        "Convenience attribute to fetch the first assigned network address, or an empty "
        "string if nothing has been assigned at this time.",
        type=A.STRING,
        support_status=support.SupportStatus(status=support.HIDDEN, version="5.0.0"),
    ),
    "instance_name": A("AWS compatible instance name.", type=A.STRING),
    "accessIPv4": A(
        "The manually assigned alternative public IPv4 address of the server.", type=A.STRING
    ),
    "accessIPv6": A(
        "The manually assigned alternative public IPv6 address of the server.", type=A.STRING
    ),
    "console_urls": A("URLs of server's consoles.", type=A.MAP),
    "tags": A("Tags from the server. Supported since client version 2.26.", type=A.LIST),
    "os_collect_config": A(
        "The os-collect-config configuration for the server's local agent to be "
        "configured to connect to Heat to retrieve deployment data.",
        type=A.MAP,
    ),
}
