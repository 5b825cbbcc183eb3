"""Networks and subnets of the local Neutron: create, update, delete,
who sees what (own, shared, external; admins all), neutron's policy on
``shared``/``router:external`` and its in-use refusals."""

import pytest

from tests.unit.localcloud.network_harness import PRIVATE
from tests.unit.localcloud.network_harness import error


def _network(neutron, name="net", user="demo", **extra):
    return neutron.create("networks", "network", {"name": name, **extra}, user=user)


def _subnet(neutron, network_id, cidr="192.168.10.0/24", user="demo", **extra):
    body = {"network_id": network_id, "cidr": cidr, "ip_version": 4, **extra}
    return neutron.create("subnets", "subnet", body, user=user)


def test_create_show_update_delete(neutron):
    net = _network(neutron, description="mine")
    assert net["project_id"] == net["tenant_id"] == neutron.project_id("demo")
    assert (net["shared"], net["router:external"], net["status"]) == (False, False, "ACTIVE")
    assert net["subnets"] == [] and net["description"] == "mine" and net["revision_number"] == 1
    updated = neutron.put("/networks/" + net["id"], {"network": {"name": "renamed"}})
    assert updated.status == 200
    assert updated.json()["network"]["name"] == "renamed"
    assert updated.json()["network"]["revision_number"] == 2
    assert neutron.delete("/networks/" + net["id"]).status == 204
    assert neutron.get("/networks/" + net["id"]).status == 404


def test_visibility(neutron):
    mine = _network(neutron)
    alt_names = {n["name"] for n in neutron.get("/networks", user="alt").json()["networks"]}
    assert alt_names == {"private", "public"}
    for method in ("GET", "PUT", "DELETE"):
        result = neutron.call(
            method, "/networks/" + mine["id"], json={"network": {"name": "x"}}, user="alt"
        )
        assert result.status == 404, method
        assert error(result)[0] == "NetworkNotFound"
    admin_names = {n["name"] for n in neutron.get("/networks", user="admin").json()["networks"]}
    assert "net" in admin_names


def test_shared_and_external_are_admin_only(neutron):
    for attr in ("shared", "router:external"):
        refused = neutron.post("/networks", {"network": {"name": "x", attr: True}})
        assert refused.status == 403
        assert error(refused) == (
            "PolicyNotAuthorized",
            "(rule:create_network and rule:create_network:%s) is disallowed by policy" % attr,
        )
    shared = _network(neutron, "everyone", user="admin", shared=True)
    assert "everyone" in {
        n["name"] for n in neutron.get("/networks", user="alt").json()["networks"]
    }
    # seen, not owned: a 403 (neutron's policy hook), not a 404
    refused = neutron.put("/networks/" + shared["id"], {"network": {"name": "mine"}}, user="alt")
    assert refused.status == 403
    assert error(refused)[1] == "rule:update_network is disallowed by policy"
    assert neutron.delete("/networks/" + PRIVATE).status == 403
    own = _network(neutron)
    refused = neutron.put("/networks/" + own["id"], {"network": {"shared": True}})
    assert refused.status == 403


def test_provider_attributes_are_refused_to_a_member(neutron):
    """As Neutron 29 (neutron-29-networks.json's net_create_provider_member):
    its policy refuses a member's provider attribute (403); an admin's is
    unrecognized (no provider extension locally); a bad body stays a 400."""
    for attr, value in (("provider:network_type", "vxlan"), ("provider:segmentation_id", 7)):
        refused = neutron.post("/networks", {"network": {attr: value}})
        assert refused.status == 403
        assert error(refused) == (
            "PolicyNotAuthorized",
            "(rule:create_network and rule:create_network:%s) is disallowed by policy" % attr,
        )
    unknown = neutron.post(
        "/networks", {"network": {"provider:network_type": "vxlan"}}, user="admin"
    )
    assert error(unknown) == (
        "HTTPBadRequest",
        "Unrecognized attribute(s) 'provider:network_type'",
    )
    bad = neutron.post("/networks", {"network": {"provider:network_type": "vxlan", "x": 1}})
    assert bad.status == 400
    # nothing was made
    assert "" not in {n["name"] for n in neutron.get("/networks", user="admin").json()["networks"]}


def test_another_projects_network_for_an_admin(neutron):
    demo = neutron.project_id("demo")
    made = _network(neutron, "for-demo", user="admin", project_id=demo)
    assert made["project_id"] == demo
    refused = neutron.post("/networks", {"network": {"name": "x", "tenant_id": "other"}})
    assert refused.status == 403


@pytest.mark.parametrize(
    "body,message",
    [
        ({"network": {"bogus": 1}}, "Unrecognized attribute(s) 'bogus'"),
        ({"network": {"name": 5}}, "Invalid input for name. Reason: '5' is not a valid string."),
        (
            {"network": {"admin_state_up": "maybe"}},
            "Invalid input for operation: 'maybe' cannot be converted to boolean.",
        ),
        (
            {"network": {"mtu": 10}},
            "Invalid input for mtu. Reason: '10' is not in range 68 through 9000.",
        ),
        ({"net": {}}, "Unable to find 'network' in request body"),
        ({"network": []}, "Invalid format: []"),
        (
            {"network": {"project_id": "a", "tenant_id": "b"}},
            "'project_id' and 'tenant_id' do not match",
        ),
    ],
)
def test_bad_network_bodies(neutron, body, message):
    result = neutron.post("/networks", body)
    assert result.status == 400
    assert error(result)[1] == message
    assert len(neutron.get("/networks").json()["networks"]) == 2


def test_network_in_use(neutron):
    net = _network(neutron)
    _subnet(neutron, net["id"])
    port = neutron.create("ports", "port", {"network_id": net["id"]})
    refused = neutron.delete("/networks/" + net["id"])
    assert refused.status == 409
    assert error(refused) == (
        "NetworkInUse",
        "Unable to complete operation on network %s. There are one or more ports still in use "
        "on the network, id for these ports is: %s." % (net["id"], port["id"]),
    )
    neutron.delete("/ports/" + port["id"])
    assert neutron.delete("/networks/" + net["id"]).status == 204
    assert neutron.get("/subnets?network_id=" + net["id"]).json()["subnets"] == []


def test_subnets(neutron):
    net = _network(neutron)
    subnet = _subnet(neutron, net["id"], name="sub")
    assert subnet["gateway_ip"] == "192.168.10.1"
    assert subnet["allocation_pools"] == [{"start": "192.168.10.2", "end": "192.168.10.254"}]
    assert (subnet["enable_dhcp"], subnet["ip_version"]) == (True, 4)
    assert neutron.get("/networks/" + net["id"]).json()["network"]["subnets"] == [subnet["id"]]
    overlap = neutron.post(
        "/subnets",
        {"subnet": {"network_id": net["id"], "cidr": "192.168.10.128/25", "ip_version": 4}},
    )
    assert overlap.status == 400
    assert "overlaps with another subnet" in error(overlap)[1]
    renamed = neutron.put("/subnets/" + subnet["id"], {"subnet": {"name": "renamed"}})
    assert renamed.json()["subnet"]["name"] == "renamed"
    read_only = neutron.put("/subnets/" + subnet["id"], {"subnet": {"cidr": "10.1.0.0/24"}})
    assert read_only.status == 400
    assert error(read_only)[1] == "Cannot update read-only attribute cidr"
    pooled = _subnet(
        neutron,
        _network(neutron, "n2")["id"],
        cidr="10.5.0.0/24",
        gateway_ip=None,
        allocation_pools=[{"start": "10.5.0.100", "end": "10.5.0.101"}],
    )
    assert pooled["gateway_ip"] is None


@pytest.mark.parametrize(
    "extra,status,kind",
    [
        # convert_to_cidr's InvalidInput (10.0.0.1/24 it takes as 10.0.0.0/24)
        ({"cidr": "nonsense"}, 400, "InvalidInput"),
        ({"cidr": "10.0.0.0/33"}, 400, "InvalidInput"),
        ({"ip_version": 6}, 400, "InvalidInput"),
        ({"gateway_ip": "10.99.0.1"}, 400, "InvalidInput"),
        (
            {"allocation_pools": [{"start": "10.7.0.9", "end": "10.7.0.3"}]},
            400,
            "InvalidAllocationPool",
        ),
        ({"network_id": "4fd44f30-0000-4a4b-a2b0-0e6c2dbd2a4b"}, 404, "NetworkNotFound"),
        ({"network_id": PRIVATE}, 403, "PolicyNotAuthorized"),
    ],
)
def test_bad_subnets(neutron, extra, status, kind):
    net = _network(neutron)
    body = {"network_id": net["id"], "cidr": "10.7.0.0/24", "ip_version": 4, **extra}
    result = neutron.post("/subnets", {"subnet": body})
    assert result.status == status, result.body
    assert error(result)[0] == kind


def test_required_subnet_attributes(neutron):
    net = _network(neutron)
    result = neutron.post("/subnets", {"subnet": {"network_id": net["id"], "ip_version": 4}})
    assert result.status == 400
    # no cidr: neutron (subnet_allocation) asks for a subnet pool instead
    assert error(result) == (
        "BadRequest",
        "Bad subnets request: a subnetpool must be specified in the absence of a cidr.",
    )


def test_subnet_in_use(neutron):
    net = _network(neutron)
    subnet = _subnet(neutron, net["id"])
    port = neutron.create("ports", "port", {"network_id": net["id"]})
    refused = neutron.delete("/subnets/" + subnet["id"])
    assert refused.status == 409
    assert error(refused) == (
        "SubnetInUse",
        "Unable to complete operation on subnet %s: One or more ports have an IP allocation "
        "from this subnet." % subnet["id"],
    )
    neutron.delete("/ports/" + port["id"])
    assert neutron.delete("/subnets/" + subnet["id"]).status == 204


def test_subnets_of_others(neutron):
    net = _network(neutron)
    subnet = _subnet(neutron, net["id"])
    assert neutron.get("/subnets/" + subnet["id"], user="alt").status == 404
    assert subnet["id"] not in [
        s["id"] for s in neutron.get("/subnets", user="alt").json()["subnets"]
    ]
    # the shared network's subnet is visible to all, changed by its owner only
    private_subnet = neutron.get("/subnets?network_id=" + PRIVATE, user="alt").json()["subnets"]
    assert len(private_subnet) == 1
    refused = neutron.delete("/subnets/" + private_subnet[0]["id"], user="alt")
    assert refused.status == 403
