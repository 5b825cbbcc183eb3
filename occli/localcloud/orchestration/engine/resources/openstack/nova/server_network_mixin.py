"""A server's networks (Heat's ``nova/server_network_mixin.py``).

``networks`` entries become Nova's ``networks`` of the boot request; an
entry with a ``subnet`` or ``port_extra_properties`` gets a port the
resource makes itself (``<server>-port-<n>``, its id kept in the
``internal_ports`` data and deleted with the server), and a
``floating_ip`` entry is associated to that port. The ``addresses``
attribute is Heat's: Neutron's ports of the server, their fixed and
floating addresses, each with its port, subnets and network.

A change of ``networks`` is made in place as Heat makes it
(:meth:`ServerNetworkMixin.calculate_networks`): the old entries are
matched to the server's interfaces, entries in both the old and the new
list are left alone, the ports of the other old ones detached (an
internal port deleted), the other new ones attached (an internal port
made first). The old entries are the server's interfaces (the engine
gives the new properties only), so an entry kept with a ``floating_ip``,
``port_extra_properties`` or ``tag`` is detached and attached again, and
Heat's in-place update of an internal port whose
``port_extra_properties`` alone changed is not made.
"""

import ipaddress
import json
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from occli.localcloud import errors
from occli.localcloud.orchestration.engine.clients import ClientError
from occli.localcloud.orchestration.engine.resources.openstack.neutron import neutron
from occli.localcloud.orchestration.engine.resources.openstack.nova import client_plugin as cp

# the keys of one ``networks`` entry (heat's _NETWORK_KEYS)
NETWORK_UUID, NETWORK_ID, NETWORK_FIXED_IP, NETWORK_PORT = ("uuid", "network", "fixed_ip", "port")
NETWORK_SUBNET, NETWORK_PORT_EXTRA, NETWORK_FLOATING_IP = (
    "subnet",
    "port_extra_properties",
    "floating_ip",
)
ALLOCATE_NETWORK, NIC_TAG = "allocate_network", "tag"
NETWORKS = "networks"
NETWORK_KEYS = (
    NETWORK_UUID,
    NETWORK_ID,
    NETWORK_FIXED_IP,
    NETWORK_PORT,
    NETWORK_SUBNET,
    NETWORK_PORT_EXTRA,
    NETWORK_FLOATING_IP,
    ALLOCATE_NETWORK,
    NIC_TAG,
)
# what an interface of the server says of a network entry
IFACE_MANAGED_KEYS = (NETWORK_PORT, NETWORK_ID, NETWORK_FIXED_IP, NETWORK_SUBNET)
NETWORK_AUTO = "auto"


class UnableToAutoAllocateNetwork(Exception):
    """Heat's ``exception.UnableToAutoAllocateNetwork`` (its name is the
    failure's type)."""


class ServerNetworkMixin:
    """Mixed into :class:`~.server.Server` (which provides the resource
    methods this uses)."""

    name: str

    def _validate_network(self, network: Mapping[str, Any]) -> None:
        """Heat's checks of one ``networks`` entry (its texts)."""
        net_id = network.get(NETWORK_ID)
        port = network.get(NETWORK_PORT)
        subnet = network.get(NETWORK_SUBNET)
        fixed_ip = network.get(NETWORK_FIXED_IP)
        str_network = network.get(ALLOCATE_NETWORK)
        if net_id is None and port is None and subnet is None and not str_network:
            raise errors.BadRequest(
                'One of the properties "%s", "%s", "%s" or "%s" should be set for the '
                'specified network of server "%s".'
                % (NETWORK_ID, NETWORK_PORT, ALLOCATE_NETWORK, NETWORK_SUBNET, self.name),
                type="StackValidationFailed",
            )
        if str_network and len([v for v in network.values() if v is not None]) != 1:
            raise errors.BadRequest(
                'Can not specify "%s" with other keys of networks at the same time.'
                % ALLOCATE_NETWORK,
                type="StackValidationFailed",
            )
        if fixed_ip and port is not None:
            raise errors.BadRequest(
                "Cannot define the following properties at the same time: %s/%s, %s/%s."
                % (NETWORKS, NETWORK_FIXED_IP, NETWORKS, NETWORK_PORT),
                type="ResourcePropertyConflict",
            )
        if (
            network.get(NETWORK_FLOATING_IP) is not None
            and net_id is not None
            and port is None
            and subnet is None
            and not network.get(NETWORK_PORT_EXTRA)
        ):
            raise errors.BadRequest(
                'Property "%s" is not supported if only "%s" is specified, because the '
                "corresponding port can not be retrieved." % (NETWORK_FLOATING_IP, NETWORK_ID),
                type="StackValidationFailed",
            )

    # -- internal ports (resource data ``internal_ports``) ------------------

    def _data_get_ports(self, port_type: str = "internal_ports") -> list[dict[str, Any]]:
        data = self.data().get(port_type)  # type: ignore[attr-defined]
        return json.loads(data) if data else []

    def _data_update_ports(
        self, port_id: str, action: str, port_type: str = "internal_ports"
    ) -> None:
        ports = self._data_get_ports(port_type)
        if action == "add":
            ports.append({"id": port_id})
        else:
            ports = [p for p in ports if p["id"] != port_id]
        self.data_set(port_type, json.dumps(ports))  # type: ignore[attr-defined]

    def _get_network_id(self, net: Mapping[str, Any]) -> str | None:
        clients = self.client()  # type: ignore[attr-defined]
        net_id = net.get(NETWORK_ID) or net.get(NETWORK_UUID) or None
        if net_id:
            return neutron.find_resourceid_by_name_or_id(clients, "network", net_id)
        subnet = net.get(NETWORK_SUBNET)
        if subnet:
            subnet_id = neutron.find_resourceid_by_name_or_id(clients, "subnet", subnet)
            return neutron.network_id_from_subnet_id(clients, subnet_id)
        return None

    def _create_internal_port(
        self, net: Mapping[str, Any], number: int, security_groups: list[str] | None
    ) -> str:
        clients = self.client()  # type: ignore[attr-defined]
        body: dict[str, Any] = {
            "network_id": self._get_network_id(net),
            "name": "%s-port-%s" % (self.name, number),
        }
        fixed: dict[str, Any] = {}
        if net.get(NETWORK_FIXED_IP):
            fixed["ip_address"] = net[NETWORK_FIXED_IP]
        if net.get(NETWORK_SUBNET):
            fixed["subnet_id"] = neutron.find_resourceid_by_name_or_id(
                clients, "subnet", net[NETWORK_SUBNET]
            )
        if fixed:
            body["fixed_ips"] = [fixed]
        if security_groups:
            body["security_groups"] = neutron.get_secgroup_uuids(clients, security_groups)
        extra = dict(net.get(NETWORK_PORT_EXTRA) or {})
        body.update(extra.pop("value_specs", None) or {})
        body.update({k: v for k, v in extra.items() if v is not None})
        port = clients.post("network", "/v2.0/ports", {"port": body}).body["port"]
        self._data_update_ports(port["id"], "add")
        return str(port["id"])

    def _delete_internal_port(self, port_id: str) -> None:
        clients = self.client()  # type: ignore[attr-defined]
        clients.delete_ignoring_not_found("network", "/v2.0/ports/%s" % port_id)
        self._data_update_ports(port_id, "delete")

    def _delete_internal_ports(self) -> None:
        for port in self._data_get_ports():
            self._delete_internal_port(port["id"])
        self.data_delete("internal_ports")  # type: ignore[attr-defined]

    def _build_nics(
        self, networks: list[Mapping[str, Any]] | None, security_groups: list[str] | None
    ) -> Any:
        """Nova's ``networks`` of the boot request (``"auto"`` when none is
        given: what Nova does for a request without networks before 2.37)."""
        if not networks:
            return "auto"
        for net in networks:
            if net.get(ALLOCATE_NETWORK):
                return net[ALLOCATE_NETWORK]
        clients = self.client()  # type: ignore[attr-defined]
        nics = []
        for idx, net in enumerate(networks):
            self._validate_belonging_subnet_to_net(net)
            nic: dict[str, Any] = {}
            if net.get(NETWORK_PORT):
                nic["port"] = neutron.find_resourceid_by_name_or_id(
                    clients, "port", net[NETWORK_PORT]
                )
            elif net.get(NETWORK_SUBNET) or net.get(NETWORK_PORT_EXTRA):
                nic["port"] = self._create_internal_port(net, idx, security_groups)
            else:
                nic["uuid"] = self._get_network_id(net)
                if net.get(NETWORK_FIXED_IP):
                    nic["fixed_ip"] = net[NETWORK_FIXED_IP]
            if net.get(NETWORK_FLOATING_IP) and nic.get("port"):
                fip: dict[str, Any] = {"port_id": nic["port"]}
                if net.get(NETWORK_FIXED_IP):
                    fip["fixed_ip_address"] = net[NETWORK_FIXED_IP]
                clients.put(
                    "network",
                    "/v2.0/floatingips/%s" % net[NETWORK_FLOATING_IP],
                    {"floatingip": fip},
                )
            if net.get(NIC_TAG):
                nic["tag"] = net[NIC_TAG]
            nics.append(nic)
        return nics

    def _validate_belonging_subnet_to_net(self, net: Mapping[str, Any]) -> None:
        if net.get(NETWORK_PORT) is not None or not net.get(NETWORK_SUBNET):
            return
        if not (net.get(NETWORK_ID) or net.get(NETWORK_UUID)):
            return
        clients = self.client()  # type: ignore[attr-defined]
        net_id = self._get_network_id(net)
        subnet_id = neutron.find_resourceid_by_name_or_id(clients, "subnet", net[NETWORK_SUBNET])
        if neutron.network_id_from_subnet_id(clients, subnet_id) != net_id:
            raise errors.BadRequest(
                "Specified subnet %s does not belongs to network %s."
                % (net[NETWORK_SUBNET], net_id),
                type="StackValidationFailed",
            )

    # -- networks updated in place ------------------------------------------

    def _translated(self, net: Mapping[str, Any]) -> dict[str, Any]:
        """An entry with its network, subnet and port as ids, ``uuid`` as
        ``network`` and every key present (Heat's translation rules and
        ``_exclude_not_updated_networks`` padding)."""
        clients = self.client()  # type: ignore[attr-defined]
        found: dict[str, Any] = {key: net.get(key) or None for key in NETWORK_KEYS}
        if found[NETWORK_UUID] and not found[NETWORK_ID]:
            found[NETWORK_ID] = found[NETWORK_UUID]
        found[NETWORK_UUID] = None
        for key, entity in ((NETWORK_ID, "network"), (NETWORK_SUBNET, "subnet")):
            if found[key]:
                found[key] = neutron.find_resourceid_by_name_or_id(clients, entity, found[key])
        if found[NETWORK_PORT]:
            found[NETWORK_PORT] = neutron.find_resourceid_by_name_or_id(
                clients, "port", found[NETWORK_PORT]
            )
        return found

    def _interfaces(self) -> list[dict[str, Any]]:
        """The server's interfaces (Nova's os-interface list)."""
        path = "/servers/%s/os-interface" % self.resource_id  # type: ignore[attr-defined]
        return list(cp.nova(self.client(), "GET", path)["interfaceAttachments"])  # type: ignore[attr-defined]

    @staticmethod
    def interface_networks(interfaces: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """A ``networks`` entry for each interface: its port, network, first
        address and subnet (the keys an interface tells)."""
        found = []
        for iface in interfaces:
            fixed = (iface.get("fixed_ips") or [{}])[0]
            net = {key: None for key in NETWORK_KEYS}
            net.update(
                {
                    NETWORK_PORT: iface["port_id"],
                    NETWORK_ID: iface["net_id"],
                    NETWORK_FIXED_IP: fixed.get("ip_address"),
                    NETWORK_SUBNET: fixed.get("subnet_id"),
                }
            )
            found.append(net)
        return found

    @staticmethod
    def _net_is_subset(subset: Mapping[str, Any], superset: Mapping[str, Any]) -> bool:
        return all(k in superset and superset[k] == v for k, v in subset.items())

    def _find_best_match(
        self, existing: list[dict[str, Any]], specified: Mapping[str, Any]
    ) -> dict[str, Any] | None:
        """The entry of ``existing`` ``specified`` describes: the same port,
        else the same fixed address, else the one with most keys alike."""
        for key in (NETWORK_PORT, NETWORK_FIXED_IP):
            if specified.get(key) is not None:
                return next(
                    (
                        e
                        for e in existing
                        if e[key] == specified[key] and self._net_is_subset(specified, e)
                    ),
                    None,
                )
        best, matches = None, 0
        for candidate in existing:
            if self._net_is_subset(specified, candidate):
                num = sum(1 for k, v in specified.items() if candidate.get(k) == v)
                if num > matches:
                    best, matches = candidate, num
        return best

    def update_networks_matching_iface_port(
        self, old_nets: list[dict[str, Any]], interfaces: list[dict[str, Any]]
    ) -> None:
        """Each old entry completed with the port, network, address and
        subnet of the interface it describes."""
        props = [
            {k: v for k, v in net.items() if k in IFACE_MANAGED_KEYS}
            for net in self.interface_networks(interfaces)
        ]
        for old_net in old_nets:
            if old_net[NETWORK_PORT] is None:
                old_net[NETWORK_ID] = self._get_network_id(old_net)
            reduced = {
                k: v for k, v in old_net.items() if k in IFACE_MANAGED_KEYS and v is not None
            }
            match = self._find_best_match(props, reduced)
            if match is not None:
                old_net.update(match)
                props.remove(match)

    def _exclude_not_updated_networks(
        self,
        old_nets: list[dict[str, Any]],
        new_nets: list[dict[str, Any]],
        interfaces: list[dict[str, Any]],
    ) -> list[dict[str, Any]]:
        """The entries in both lists, taken out of both."""
        self.update_networks_matching_iface_port(old_nets, interfaces)
        kept = []
        for new_net in list(new_nets):
            reduced = {
                k: v for k, v in new_net.items() if k not in IFACE_MANAGED_KEYS or v is not None
            }
            match = self._find_best_match(old_nets, reduced)
            if match is not None:
                kept.append(match)
                new_nets.remove(new_net)
                old_nets.remove(match)
        return kept

    def _available_network(self, security_groups: list[str] | None) -> dict[str, Any]:
        """``allocate_network: auto``: the project's only network."""
        clients = self.client()  # type: ignore[attr-defined]
        project = self.stack.project_id  # type: ignore[attr-defined]
        nets = clients.get(
            "network",
            "/v2.0/networks",
            query={"tenant_id": project, "shared": "False", "admin_state_up": "True"},
        ).body["networks"]
        nets += clients.get("network", "/v2.0/networks", query={"shared": "True"}).body["networks"]
        if not nets:
            # Heat's _auto_allocate_network: the local Neutron has no
            # auto-allocated-topology API, so its refusal propagates
            topology = "/v2.0/auto-allocated-topology/%s" % project
            nets = [clients.get("network", topology).body["auto_allocated_topology"]]
        if len(nets) > 1:
            raise UnableToAutoAllocateNetwork(
                "Unable to automatically allocate a network: Multiple possible networks found."
            )
        attach: dict[str, Any] = {"port_id": None, "net_id": nets[0]["id"], "fip": None}
        if security_groups:
            attach["security_groups"] = neutron.get_secgroup_uuids(clients, security_groups)
        return attach

    def _calculate_remove_ports(
        self,
        old_nets: list[dict[str, Any]],
        new_nets: list[dict[str, Any]],
        interfaces: list[dict[str, Any]],
    ) -> tuple[list[str], list[dict[str, Any]]]:
        """The ports to detach (an internal one deleted now, a floating IP
        of a removed entry disassociated) and the entries left alone."""
        if not old_nets or any(n.get(ALLOCATE_NETWORK) for n in old_nets):
            return [i["port_id"] for i in interfaces], []
        kept = self._exclude_not_updated_networks(old_nets, new_nets, interfaces)
        internal = {p["id"] for p in self._data_get_ports()}
        remove = []
        for net in old_nets:
            port_id = net.get(NETWORK_PORT)
            if port_id:
                remove.append(port_id)
                if port_id in internal:
                    self._delete_internal_port(port_id)
            if net.get(NETWORK_FLOATING_IP):
                self._floating_ip_disassociate(net[NETWORK_FLOATING_IP])
        return remove, kept

    def _calculate_add_nets(
        self,
        new_nets: list[dict[str, Any]],
        kept: list[dict[str, Any]],
        security_groups: list[str] | None,
    ) -> list[dict[str, Any]]:
        """The interfaces to attach: ``port_id`` (an internal port made
        now) or ``net_id`` with its ``fip``; the first free network when
        no entry is left."""
        clients = self.client()  # type: ignore[attr-defined]
        sg_ids = neutron.get_secgroup_uuids(clients, security_groups) if security_groups else None
        if not new_nets and not kept:
            return [{"port_id": None, "net_id": None, "fip": None, "security_groups": sg_ids}]
        add = []
        for idx, net in enumerate(new_nets):
            attach: dict[str, Any] = {"port_id": None, "net_id": None, "fip": None}
            if net.get(NETWORK_PORT):
                attach["port_id"] = net[NETWORK_PORT]
            elif net.get(NETWORK_SUBNET) or net.get(NETWORK_PORT_EXTRA):
                attach["port_id"] = self._create_internal_port(net, idx, security_groups)
            if not attach["port_id"]:
                attach["net_id"] = self._get_network_id(net)
                attach["security_groups"] = sg_ids
            if attach["net_id"]:
                attach["fip"] = net.get(NETWORK_FIXED_IP)
            if net.get(NETWORK_FLOATING_IP) and attach["port_id"]:
                fip: dict[str, Any] = {"port_id": attach["port_id"]}
                if net.get(NETWORK_FIXED_IP):
                    fip["fixed_ip_address"] = net[NETWORK_FIXED_IP]
                clients.put(
                    "network",
                    "/v2.0/floatingips/%s" % net[NETWORK_FLOATING_IP],
                    {"floatingip": fip},
                )
            add.append(attach)
        return add

    def calculate_networks(
        self,
        old_nets: Sequence[Mapping[str, Any]] | None,
        new_nets: Sequence[Mapping[str, Any]] | None,
        interfaces: list[dict[str, Any]],
        security_groups: list[str] | None = None,
    ) -> tuple[list[str], list[dict[str, Any]]]:
        """Heat's ``calculate_networks``: (ports to detach, interfaces to
        attach) turning the server's ``old_nets`` into ``new_nets``."""
        new = [self._translated(n) for n in new_nets or []]
        str_net = next((n[ALLOCATE_NETWORK] for n in new if n.get(ALLOCATE_NETWORK)), None)
        if str_net:
            remove = [i["port_id"] for i in interfaces]
            add = [self._available_network(security_groups)] if str_net == NETWORK_AUTO else []
            return remove, add
        if not new and not old_nets:
            return [], []
        old = [self._translated(n) for n in old_nets or []]
        remove, kept = self._calculate_remove_ports(old, new, interfaces)
        return remove, self._calculate_add_nets(new, kept, security_groups)

    def _floating_ip_disassociate(self, floating_ip: str) -> None:
        clients = self.client()  # type: ignore[attr-defined]
        try:
            clients.put(
                "network",
                "/v2.0/floatingips/%s" % floating_ip,
                {"floatingip": {"port_id": None}},
            )
        except ClientError as exc:
            if not exc.not_found:
                raise

    def _floating_ips_disassociate(self) -> None:
        for net in self.properties.get(NETWORKS) or []:  # type: ignore[attr-defined]
            if net.get(NETWORK_FLOATING_IP):
                self._floating_ip_disassociate(net[NETWORK_FLOATING_IP])

    # -- attributes ---------------------------------------------------------

    def _get_server_addresses(self, server_id: str) -> dict[str, list[dict[str, Any]]]:
        """Heat's ``addresses``: per network name, then per network id too."""
        clients = self.client()  # type: ignore[attr-defined]
        nets: dict[str, list[dict[str, Any]]] = {}
        ids: dict[str, str] = {}
        ports = clients.get("network", "/v2.0/ports", query={"device_id": server_id}).body
        for port in ports["ports"]:
            network = clients.get("network", "/v2.0/networks/%s" % port["network_id"]).body
            network = network["network"]
            ids[network["name"]] = network["id"]
            addrs = nets.setdefault(network["name"], [])
            subnets = [
                clients.get("network", "/v2.0/subnets/%s" % f["subnet_id"]).body["subnet"]
                for f in port["fixed_ips"]
                if f.get("subnet_id")
            ]
            for fixed in port["fixed_ips"]:
                address = fixed.get("ip_address")
                version = ipaddress.ip_address(address).version if address else None
                fips = clients.get(
                    "network", "/v2.0/floatingips", query={"fixed_ip_address": address}
                ).body["floatingips"]
                for fip in fips:
                    addrs.append(
                        {
                            "addr": fip["floating_ip_address"],
                            "version": version,
                            "OS-EXT-IPS-MAC:mac_addr": port["mac_address"],
                            "OS-EXT-IPS:type": "floating",
                            "port": None,
                        }
                    )
                addrs.append(
                    {
                        "addr": address,
                        "version": version,
                        "OS-EXT-IPS-MAC:mac_addr": port["mac_address"],
                        "OS-EXT-IPS:type": "fixed",
                        "port": port["id"],
                        "subnets": subnets,
                        "network": network,
                    }
                )
        return self._extend_networks(nets, ids)

    @staticmethod
    def _extend_networks(
        networks: Mapping[str, list[Any]], ids: Mapping[str, str]
    ) -> dict[str, list[Any]]:
        """The same lists under each network's id as well as its name."""
        extended = {name: list(v) for name, v in networks.items()}
        for name, addrs in networks.items():
            if name in ids:
                extended[ids[name]] = list(addrs)
        return extended
