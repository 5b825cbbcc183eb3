"""A server's networks (Heat's ``nova/server_network_mixin.py``).

``networks`` entries become Nova's ``networks`` of the boot request; an
entry with a ``subnet`` or ``port_extra_properties`` gets a port the
resource makes itself (``<server>-port-<n>``, its id kept in the
``internal_ports`` data and deleted with the server), and a
``floating_ip`` entry is associated to that port. The ``addresses``
attribute is Heat's: Neutron's ports of the server, their fixed and
floating addresses, each with its port, subnets and network.
"""

import ipaddress
import json
from collections.abc import Mapping
from typing import Any

from occli.localcloud import errors
from occli.localcloud.orchestration.engine.clients import ClientError
from occli.localcloud.orchestration.engine.resources.openstack.neutron import neutron

# the keys of one ``networks`` entry (heat's _NETWORK_KEYS)
NETWORK_UUID, NETWORK_ID, NETWORK_FIXED_IP, NETWORK_PORT = ("uuid", "network", "fixed_ip", "port")
NETWORK_SUBNET, NETWORK_PORT_EXTRA, NETWORK_FLOATING_IP = (
    "subnet",
    "port_extra_properties",
    "floating_ip",
)
ALLOCATE_NETWORK, NIC_TAG = "allocate_network", "tag"
NETWORKS = "networks"


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

    def _delete_internal_ports(self) -> None:
        clients = self.client()  # type: ignore[attr-defined]
        for port in self._data_get_ports():
            clients.delete_ignoring_not_found("network", "/v2.0/ports/%s" % port["id"])
            self._data_update_ports(port["id"], "delete")
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

    def _floating_ips_disassociate(self) -> None:
        clients = self.client()  # type: ignore[attr-defined]
        for net in self.properties.get(NETWORKS) or []:  # type: ignore[attr-defined]
            if net.get(NETWORK_FLOATING_IP):
                try:
                    clients.put(
                        "network",
                        "/v2.0/floatingips/%s" % net[NETWORK_FLOATING_IP],
                        {"floatingip": {"port_id": None}},
                    )
                except ClientError as exc:
                    if not exc.not_found:
                        raise

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
