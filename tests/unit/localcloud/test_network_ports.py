"""Ports of the local Neutron: fixed IPs from the subnet, MACs, security
groups, devices, ownership, and neutron's conflicts."""

import pytest

from tests.unit.localcloud.network_harness import PRIVATE
from tests.unit.localcloud.network_harness import error

SUBNET = "6c2a6a0d-35fb-4e5c-8b35-1d7a4c9e2f10"


def _port(neutron, user="demo", **body):
    body.setdefault("network_id", PRIVATE)
    return neutron.create("ports", "port", body, user=user)


def test_create_allocates_an_address_and_a_mac(neutron):
    first, second = _port(neutron, name="a"), _port(neutron, name="b")
    assert first["fixed_ips"] == [{"subnet_id": SUBNET, "ip_address": "10.0.0.3"}]
    assert second["fixed_ips"][0]["ip_address"] == "10.0.0.4"
    assert first["mac_address"].startswith("fa:16:3e:")
    assert first["mac_address"] != second["mac_address"]
    assert (first["status"], first["device_id"], first["device_owner"]) == ("DOWN", "", "")
    assert first["project_id"] == neutron.project_id("demo")
    assert first["admin_state_up"] and first["port_security_enabled"]
    # the project's default group, made on first use
    (group,) = first["security_groups"]
    assert neutron.get("/security-groups/" + group).json()["security_group"]["name"] == "default"
    assert "binding:host_id" not in first


def test_requested_address(neutron):
    # an address of the shared network is its owner's (the admin's) choice
    port = _port(neutron, user="admin", fixed_ips=[{"ip_address": "10.0.5.5"}])
    assert port["fixed_ips"] == [{"subnet_id": SUBNET, "ip_address": "10.0.5.5"}]
    taken = neutron.post(
        "/ports",
        {"port": {"network_id": PRIVATE, "fixed_ips": [{"ip_address": "10.0.5.5"}]}},
        user="admin",
    )
    assert taken.status == 409
    assert error(taken) == (
        "IpAddressAlreadyAllocated",
        "IP address 10.0.5.5 already allocated in subnet %s" % SUBNET,
    )
    by_subnet = _port(neutron, fixed_ips=[{"subnet_id": SUBNET}])
    assert by_subnet["fixed_ips"][0]["subnet_id"] == SUBNET


@pytest.mark.parametrize(
    "fixed_ips,status,kind",
    [
        ([{"ip_address": "192.168.1.1"}], 400, "InvalidIpForNetwork"),
        ([{"subnet_id": SUBNET, "ip_address": "192.168.1.1"}], 400, "InvalidIpForSubnet"),
        ([{"subnet_id": SUBNET, "ip_address": "10.0.0.1"}], 400, "InvalidIpForSubnet"),
        ([{"ip_address": "10.0.0.2"}], 409, "IpAddressAlreadyAllocated"),
        ([{"subnet_id": "9e1f7c3a-5b2d-4a6e-8c1f-3b7d5e9a2c48"}], 400, "InvalidInput"),
        ([{"ip_address": "not-an-ip"}], 400, "HTTPBadRequest"),
        ([{"colour": "red"}], 400, "HTTPBadRequest"),
        ([{}], 400, "HTTPBadRequest"),
        ("10.0.0.9", 400, "HTTPBadRequest"),
    ],
)
def test_bad_fixed_ips(neutron, fixed_ips, status, kind):
    before = neutron.get("/ports", user="admin").json()["ports"]
    result = neutron.post(
        "/ports", {"port": {"network_id": PRIVATE, "fixed_ips": fixed_ips}}, user="admin"
    )
    assert result.status == status, result.body
    assert error(result)[0] == kind
    assert neutron.get("/ports", user="admin").json()["ports"] == before


def test_mac_addresses(neutron):
    mine = neutron.create("networks", "network", {"name": "mine"})
    neutron.create(
        "subnets", "subnet", {"network_id": mine["id"], "cidr": "10.8.0.0/24", "ip_version": 4}
    )
    port = _port(neutron, network_id=mine["id"], mac_address="FA:16:3E:00:00:01")
    assert port["mac_address"] == "fa:16:3e:00:00:01"
    again = neutron.post(
        "/ports", {"port": {"network_id": mine["id"], "mac_address": "fa:16:3e:00:00:01"}}
    )
    assert again.status == 409
    assert error(again)[0] == "MacAddressInUse"
    bad = neutron.post("/ports", {"port": {"network_id": mine["id"], "mac_address": "xx"}})
    assert bad.status == 400
    # on a network of another project (the shared one): its owner's right
    refused = neutron.post(
        "/ports", {"port": {"network_id": PRIVATE, "mac_address": "fa:16:3e:00:00:02"}}
    )
    assert refused.status == 403


def test_ownership(neutron):
    port = _port(neutron)
    for method in ("GET", "PUT", "DELETE"):
        result = neutron.call(method, "/ports/" + port["id"], json={"port": {}}, user="alt")
        assert result.status == 404, method
        assert error(result) == ("PortNotFound", "Port %s could not be found." % port["id"])
    assert neutron.get("/ports", user="alt").json()["ports"] == []
    seen = neutron.get("/ports/" + port["id"], user="admin").json()["port"]
    assert seen["binding:host_id"] == ""
    on_unknown = neutron.post(
        "/ports", {"port": {"network_id": "4fd44f30-0000-4a4b-a2b0-0e6c2dbd2a4b"}}
    )
    assert on_unknown.status == 404
    assert error(on_unknown)[0] == "NetworkNotFound"


def test_update_and_delete(neutron):
    port = _port(neutron)
    updated = neutron.put(
        "/ports/" + port["id"],
        {"port": {"name": "n", "device_id": "dev", "fixed_ips": [{"ip_address": "10.0.7.7"}]}},
        user="admin",
    ).json()["port"]
    assert (updated["name"], updated["device_id"]) == ("n", "dev")
    assert updated["fixed_ips"][0]["ip_address"] == "10.0.7.7"
    assert updated["revision_number"] == port["revision_number"] + 1
    # the old address is free again
    assert _port(
        neutron, user="admin", fixed_ips=[{"ip_address": port["fixed_ips"][0]["ip_address"]}]
    )
    read_only = neutron.put("/ports/" + port["id"], {"port": {"network_id": PRIVATE}})
    assert read_only.status == 400
    assert error(read_only)[1] == "Cannot update read-only attribute network_id"
    refused = neutron.put("/ports/" + port["id"], {"port": {"binding:host_id": "host1"}})
    assert refused.status == 403
    bound = neutron.put(
        "/ports/" + port["id"], {"port": {"binding:host_id": "host1"}}, user="admin"
    ).json()["port"]
    assert bound["status"] == "ACTIVE"
    assert neutron.delete("/ports/" + port["id"]).status == 204
    assert neutron.get("/ports/" + port["id"]).status == 404
    assert neutron.get("/ports?fixed_ips=ip_address%3D10.0.7.7").json()["ports"] == []


def test_security_groups_of_a_port(neutron):
    group = neutron.create("security-groups", "security_group", {"name": "web"})
    port = _port(neutron, security_groups=[group["id"]])
    assert port["security_groups"] == [group["id"]]
    cleared = neutron.put("/ports/" + port["id"], {"port": {"security_groups": []}})
    assert cleared.json()["port"]["security_groups"] == []
    alt_group = neutron.create("security-groups", "security_group", {"name": "x"}, user="alt")
    refused = neutron.post(
        "/ports", {"port": {"network_id": PRIVATE, "security_groups": [alt_group["id"]]}}
    )
    assert refused.status == 404
    assert error(refused) == (
        "SecurityGroupNotFound",
        "Security group %s does not exist" % alt_group["id"],
    )
    plain = _port(neutron, user="admin", port_security_enabled=False)
    assert plain["security_groups"] == []


def test_device_owner_network_is_the_network_owners(neutron):
    refused = neutron.post(
        "/ports", {"port": {"network_id": PRIVATE, "device_owner": "network:router_interface"}}
    )
    assert refused.status == 403
    compute = _port(neutron, device_owner="compute:nova", device_id="x")
    assert compute["device_owner"] == "compute:nova"


def test_exhausted_subnet(neutron):
    net = neutron.create("networks", "network", {"name": "tiny"})
    neutron.create(
        "subnets",
        "subnet",
        {
            "network_id": net["id"],
            "cidr": "10.9.9.0/29",
            "ip_version": 4,
            "allocation_pools": [{"start": "10.9.9.2", "end": "10.9.9.3"}],
        },
    )
    _port(neutron, network_id=net["id"])
    _port(neutron, network_id=net["id"])
    full = neutron.post("/ports", {"port": {"network_id": net["id"]}})
    assert full.status == 409
    assert error(full) == (
        "IpAddressGenerationFailure",
        "No more IP addresses available on network %s." % net["id"],
    )
