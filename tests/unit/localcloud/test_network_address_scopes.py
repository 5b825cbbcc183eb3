"""The local Neutron's address scopes (``address-scope``): CRUD, policy on
``shared``, and subnet pools joining them, with neutron's texts."""

import pytest

from tests.unit.localcloud.network_harness import Neutron
from tests.unit.localcloud.network_harness import error
from tests.unit.localcloud.network_harness import make_cloud


@pytest.fixture
def neutron(tmp_path):
    cloud = make_cloud(tmp_path / "data")
    yield Neutron(cloud)
    cloud.close()


def _scope(neutron, user="demo", **body):
    body.setdefault("name", "scope")
    body.setdefault("ip_version", 4)
    return neutron.create("address-scopes", "address_scope", body, user=user)


def _pool(neutron, user="demo", expect=201, **body):
    body.setdefault("name", "pool")
    body.setdefault("prefixes", ["10.10.0.0/16"])
    return neutron.create("subnetpools", "subnetpool", body, user=user, expect=expect)


def test_create_list_show_update_delete(neutron):
    scope = _scope(neutron)
    assert set(scope) == {"id", "name", "ip_version", "shared", "project_id", "tenant_id"}
    assert scope["shared"] is False and scope["project_id"] == neutron.project_id("demo")
    listed = neutron.get("/address-scopes?ip_version=4").json()["address_scopes"]
    assert listed == [scope]
    result = neutron.put(
        "/address-scopes/%s" % scope["id"], {"address_scope": {"name": "renamed"}}
    )
    assert result.status == 200, result.body
    assert result.json()["address_scope"]["name"] == "renamed"
    shown = neutron.get("/address-scopes/%s?fields=name" % scope["id"]).json()
    assert shown == {"address_scope": {"name": "renamed"}}
    assert neutron.delete("/address-scopes/%s" % scope["id"]).status == 204
    result = neutron.get("/address-scopes/%s" % scope["id"])
    assert result.status == 404
    assert error(result) == (
        "AddressScopeNotFound",
        "Address scope %s could not be found." % scope["id"],
    )


def test_ip_version_is_required_and_fixed(neutron):
    result = neutron.post("/address-scopes", {"address_scope": {"name": "x"}})
    assert result.status == 400
    assert error(result)[1] == (
        "Failed to parse request. Required attribute 'ip_version' not specified"
    )
    result = neutron.post("/address-scopes", {"address_scope": {"ip_version": 5}})
    assert result.status == 400
    assert error(result)[1] == "Invalid input for ip_version. Reason: 5 is not in valid_values."
    scope = _scope(neutron)
    result = neutron.put("/address-scopes/%s" % scope["id"], {"address_scope": {"ip_version": 6}})
    assert result.status == 400
    assert error(result)[1] == "Cannot update read-only attribute ip_version"


def test_shared_is_the_admins_and_cannot_be_undone(neutron):
    result = neutron.post("/address-scopes", {"address_scope": {"ip_version": 4, "shared": True}})
    assert result.status == 403
    assert error(result) == (
        "PolicyNotAuthorized",
        "(rule:create_address_scope and rule:create_address_scope:shared) is disallowed by policy",
    )
    own = _scope(neutron)
    result = neutron.put("/address-scopes/%s" % own["id"], {"address_scope": {"shared": True}})
    assert result.status == 403
    assert error(result)[1] == (
        "(rule:update_address_scope and rule:update_address_scope:shared) is disallowed by policy"
    )
    shared = _scope(neutron, user="admin", shared=True)
    result = neutron.put(
        "/address-scopes/%s" % shared["id"], {"address_scope": {"shared": False}}, user="admin"
    )
    assert result.status == 400
    assert error(result) == (
        "AddressScopeUpdateError",
        "Unable to update address scope %s : Shared address scope can't be unshared."
        % shared["id"],
    )


def test_members_see_their_own_and_shared_ones(neutron):
    private = _scope(neutron, name="private")
    shared = _scope(neutron, user="admin", name="shared", shared=True)
    listed = neutron.get("/address-scopes", user="alt").json()["address_scopes"]
    names = [s["name"] for s in listed]
    assert names == ["shared"]
    assert neutron.get("/address-scopes/%s" % private["id"], user="alt").status == 404
    result = neutron.delete("/address-scopes/%s" % shared["id"], user="alt")
    assert result.status == 403
    assert error(result)[1] == "rule:delete_address_scope is disallowed by policy"
    result = neutron.put(
        "/address-scopes/%s" % private["id"], {"address_scope": {"name": "x"}}, user="alt"
    )
    assert result.status == 404


def test_a_pool_joins_a_scope_of_its_family_without_overlap(neutron):
    scope = _scope(neutron)
    pool = _pool(neutron, address_scope_id=scope["id"])
    assert pool["address_scope_id"] == scope["id"]
    overlap = {"name": "overlap", "prefixes": ["10.10.5.0/24"], "address_scope_id": scope["id"]}
    result = _pool(neutron, expect=409, **overlap)
    assert error(result) == (
        "AddressScopePrefixConflict",
        "Failed to associate address scope: subnetpools within an address scope must have "
        "unique prefixes.",
    )
    six = _pool(neutron, name="six", prefixes=["fd00::/48"])
    result = neutron.put(
        "/subnetpools/%s" % six["id"], {"subnetpool": {"address_scope_id": scope["id"]}}
    )
    assert result.status == 400
    assert error(result) == (
        "IllegalSubnetPoolIpVersionAssociationToAddressScope",
        "Illegal subnetpool association: subnetpool %s cannot associate with address scope "
        "%s because subnetpool ip_version is not 4." % (six["id"], scope["id"]),
    )
    # leaving the scope
    result = neutron.put(
        "/subnetpools/%s" % pool["id"], {"subnetpool": {"address_scope_id": None}}
    )
    assert result.status == 200, result.body
    assert result.json()["subnetpool"]["address_scope_id"] is None


def test_a_scope_in_use_is_not_deleted(neutron):
    scope = _scope(neutron)
    _pool(neutron, address_scope_id=scope["id"])
    result = neutron.delete("/address-scopes/%s" % scope["id"])
    assert result.status == 409
    assert error(result) == (
        "AddressScopeInUse",
        "Unable to complete operation on address scope %s. There are one or more subnet "
        "pools in use on the address scope." % scope["id"],
    )


def test_another_projects_scope(neutron):
    private = _scope(neutron)
    result = _pool(neutron, user="alt", expect=404, address_scope_id=private["id"])
    assert error(result) == (
        "AddressScopeNotFound",
        "Address scope %s could not be found." % private["id"],
    )
    shared = _scope(neutron, user="admin", shared=True)
    pool = _pool(neutron, user="alt", address_scope_id=shared["id"])
    # a pool in a shared scope of another project's stays as it is
    result = neutron.put(
        "/subnetpools/%s" % pool["id"], {"subnetpool": {"name": "renamed"}}, user="alt"
    )
    assert result.status == 400
    assert error(result) == (
        "IllegalSubnetPoolUpdate",
        "Illegal subnetpool update : subnetpool %s cannot be updated when associated with "
        "shared address scope %s." % (pool["id"], shared["id"]),
    )


def test_a_network_shows_the_scope_of_its_pools(neutron):
    scope = _scope(neutron)
    six = _scope(neutron, name="six", ip_version=6)
    pool = _pool(neutron, address_scope_id=scope["id"], default_prefixlen=24)
    pool6 = _pool(neutron, name="pool6", prefixes=["fd00::/48"], address_scope_id=six["id"])
    network = neutron.create("networks", "network", {"name": "scoped"})
    assert (network["ipv4_address_scope"], network["ipv6_address_scope"]) == (None, None)
    for pool_id, version in ((pool["id"], 4), (pool6["id"], 6)):
        body = {"network_id": network["id"], "ip_version": version, "subnetpool_id": pool_id}
        assert neutron.post("/subnets", {"subnet": body}).status == 201
    shown = neutron.get("/networks/%s" % network["id"]).json()["network"]
    assert (shown["ipv4_address_scope"], shown["ipv6_address_scope"]) == (scope["id"], six["id"])
    listed = neutron.get("/networks?name=scoped").json()["networks"]
    assert listed[0]["ipv4_address_scope"] == scope["id"]


def test_a_network_joins_pools_of_its_address_scope_only(neutron):
    scope = _scope(neutron)
    first = _pool(neutron, address_scope_id=scope["id"], default_prefixlen=24)
    second = _pool(neutron, name="second", prefixes=["10.20.0.0/16"], address_scope_id=scope["id"])
    unscoped = _pool(neutron, name="unscoped", prefixes=["10.30.0.0/16"], default_prefixlen=24)
    network = neutron.create("networks", "network", {"name": "scoped"})["id"]

    def subnet(**body):
        body = dict(body, network_id=network, ip_version=4)
        return neutron.post("/subnets", {"subnet": body})

    assert subnet(subnetpool_id=first["id"]).status == 201
    # another pool of the same scope: allowed
    joined = subnet(subnetpool_id=second["id"], prefixlen=24)
    assert joined.status == 201, joined.body
    expected = (
        "NetworkAddressScopeAffinityError",
        "Subnets of the same address family hosted on the same network must all participate "
        "in the same address scope.",
    )
    for body in ({"subnetpool_id": unscoped["id"]}, {"cidr": "192.168.7.0/24"}):
        result = subnet(**body)
        assert result.status == 400, result.body
        assert error(result) == expected


def test_a_pool_is_not_rescoped_away_from_its_networks_other_subnets(neutron):
    scope = _scope(neutron)
    first = _pool(neutron, address_scope_id=scope["id"], default_prefixlen=24)
    second = _pool(
        neutron,
        name="second",
        prefixes=["10.20.0.0/16"],
        address_scope_id=scope["id"],
        default_prefixlen=24,
    )
    network = neutron.create("networks", "network", {"name": "scoped"})["id"]
    for pool in (first, second):
        body = {"network_id": network, "ip_version": 4, "subnetpool_id": pool["id"]}
        assert neutron.post("/subnets", {"subnet": body}).status == 201
    result = neutron.put(
        "/subnetpools/%s" % second["id"], {"subnetpool": {"address_scope_id": None}}
    )
    assert result.status == 200, result.body  # leaving: no scope to validate
    back = neutron.put(
        "/subnetpools/%s" % second["id"], {"subnetpool": {"address_scope_id": scope["id"]}}
    )
    assert back.status == 400
    assert error(back)[0] == "NetworkAddressScopeAffinityError"
