"""Three of Glance's standard metadata definitions, as ``glance-manage db
load_metadefs`` loads them from glance 33's ``etc/metadefs/``
(``compute-hypervisor.json``, ``compute-libvirt.json``,
``compute-cpu-mode.json``): data, seeded by :func:`.metadefs.seed`."""

from typing import Any

NAMESPACES: list[dict[str, Any]] = [
    # etc/metadefs/compute-hypervisor.json
    {
        "namespace": "OS::Compute::Hypervisor",
        "display_name": "Hypervisor Selection",
        "description": "OpenStack Compute supports many hypervisors, although most "
        "installations use only one hypervisor. For installations with multiple "
        "supported hypervisors, you can schedule different hypervisors using the "
        "ImagePropertiesFilter. This filters compute nodes that satisfy any "
        "architecture, hypervisor type, or virtual machine mode properties "
        "specified on the instance's image properties.",
        "visibility": "public",
        "protected": True,
        "resource_type_associations": [{"name": "OS::Glance::Image"}],
        "properties": {
            "hypervisor_type": {
                "title": "Hypervisor Type",
                "description": "Hypervisor type required by the "
                "image. Used with the "
                "ImagePropertiesFilter. \n"
                "\n"
                " Baremetal - physical provisioning. "
                "hyperv - Microsoft® hyperv. KVM - "
                "Kernel-based Virtual Machine. LXC - "
                "Linux Containers (through libvirt). "
                "powervm - IBM® PowerVM®. QEMU - "
                "Quick EMUlator. UML - User Mode "
                "Linux. vmware - VMware® vsphere. VZ "
                "- Virtuozzo OS Containers and "
                "Virtual Machines (through libvirt). "
                "For more information, see: "
                "https://docs.openstack.org/nova/latest/admin/configuration/hypervisors.html",
                "type": "string",
                "enum": [
                    "baremetal",
                    "hyperv",
                    "kvm",
                    "lxc",
                    "powervm",
                    "qemu",
                    "uml",
                    "vmware",
                    "vz",
                    "xen",
                ],
            },
            "vm_mode": {
                "title": "VM Mode",
                "description": "The virtual machine mode. This represents "
                "the host/guest ABI (application binary "
                "interface) used for the virtual machine. "
                "Used with the ImagePropertiesFilter. \n"
                "\n"
                " hvm — Fully virtualized - This is the "
                "virtual machine mode (vm_mode) used by QEMU "
                "and KVM. \n"
                "\n"
                " xen - Xen 3.0 paravirtualized. \n"
                "\n"
                " uml — User Mode Linux paravirtualized. \n"
                "\n"
                " exe — Executables in containers. This is "
                "the mode used by LXC.",
                "type": "string",
                "enum": ["hvm", "xen", "uml", "exe"],
            },
        },
        "objects": [],
    },
    # etc/metadefs/compute-libvirt.json
    {
        "namespace": "OS::Compute::Libvirt",
        "display_name": "libvirt Driver Options",
        "description": "The libvirt compute driver options.  \n"
        "\n"
        "These are properties that affect the libvirt compute driver and may be "
        "specified on flavors and images.  For a list of all hypervisors, see "
        "here: https://docs.openstack.org/nova/latest/user/support-matrix.html",
        "visibility": "public",
        "protected": True,
        "resource_type_associations": [
            {"name": "OS::Glance::Image", "prefix": "hw_"},
            {"name": "OS::Nova::Flavor", "prefix": "hw:"},
        ],
        "properties": {
            "serial_port_count": {
                "title": "Serial Port Count",
                "description": "Specifies the count of serial "
                "ports that should be provided. If "
                "hw:serial_port_count is not set in "
                "the flavor's extra_specs, then any "
                "count is permitted. If "
                "hw:serial_port_count is set, then "
                "this provides the default serial "
                "port count. It is permitted to "
                "override the default serial port "
                "count, but only with a lower "
                "value.",
                "type": "integer",
                "minimum": 0,
            },
            "boot_menu": {
                "title": "Boot Menu",
                "description": "If true, enables the BIOS bootmenu. In "
                "cases where both the image metadata and "
                "Extra Spec are set, the Extra Spec setting "
                "is used. This allows for flexibility in "
                "setting/overriding the default behavior as "
                "needed.",
                "type": "string",
                "enum": ["true", "false"],
            },
            "mem_encryption": {
                "title": "Hardware Memory Encryption",
                "description": "Enables encryption of guest memory at "
                "the hardware level, if there are "
                "compute hosts available which support "
                "this. See "
                "https://docs.openstack.org/nova/latest/admin/sev.html "
                "for details.",
                "type": "string",
                "enum": ["true", "false"],
            },
            "mem_encryption_model": {
                "title": "Hardware Memory Encryption Model",
                "description": "The hardware feature name to "
                "encrypt guest memory, if there "
                "are compute hosts available "
                "which support this. See "
                "https://docs.openstack.org/nova/latest/admin/sev.html "
                "for details.",
                "type": "string",
                "enum": ["amd-sev", "amd-sev-es", "amd-sev-snp"],
            },
            "virtio_packed_ring": {
                "title": "Virtio Packed Ring",
                "description": "Enables Packed VIRT-IO Queue "
                "feature. When set to true, "
                "instance will bescheduled to "
                "hosts that support negotiating "
                "the packed virt queue format. "
                "This feature may or may not be "
                "enabled depending on the guest "
                "driver. When used it will improve "
                "the small packet performance of "
                "network io.",
                "type": "string",
                "enum": ["true", "false"],
            },
        },
        "objects": [],
    },
    # etc/metadefs/compute-cpu-mode.json
    {
        "namespace": "OS::Compute::CPUMode",
        "display_name": "CPU Mode",
        "description": "This provides the preferred CPU Model to be used when booting up a "
        "guest VM.",
        "visibility": "public",
        "resource_type_associations": [
            {"name": "OS::Glance::Image", "prefix": "hw_"},
            {"name": "OS::Nova::Flavor", "prefix": "hw:"},
        ],
        "properties": {
            "cpu_mode": {
                "title": "CPU Mode",
                "description": "Type of CPU Mode.",
                "type": "string",
                "enum": ["none", "host-model", "host-passthrough", "custom"],
            }
        },
    },
]
