"""The local Neutron's subnet pools (``subnet_allocation``,
``default-subnetpools``): their CRUD and policy, and subnets allocated
from them, with neutron's texts for every refusal."""

import pytest

from tests.unit.localcloud.network_harness import Neutron
from tests.unit.localcloud.network_harness import error
from tests.unit.localcloud.network_harness import make_cloud


@pytest.fixture
def neutron(tmp_path):
    cloud = make_cloud(tmp_path / "data")
    yield Neutron(cloud)
    cloud.close()


def _pool(neutron, user="demo", **body):
    body.setdefault("name", "pool")
    body.setdefault("prefixes", ["10.10.0.0/16"])
    return neutron.create("subnetpools", "subnetpool", body, user=user)


def _refused(neutron, body, status=400, user="demo"):
    result = neutron.post("/subnetpools", {"subnetpool": body}, user=user)
    assert result.status == status, result.body
    return error(result)


def _subnet(neutron, network_id, user="demo", **body):
    body.setdefault("ip_version", 4)
    result = neutron.post("/subnets", {"subnet": dict(body, network_id=network_id)}, user=user)
    return result


def _network(neutron, user="demo"):
    return neutron.create("networks", "network", {"name": "pooled"}, user=user)["id"]


# -- the pool ------------------------------------------------------------------------


def test_create_shows_neutron_fields_with_prefix_lengths_as_text(neutron):
    pool = _pool(neutron, prefixes=["10.10.0.0/17", "10.10.128.0/17", "10.20.0.0/24"])
    assert pool["prefixes"] == ["10.10.0.0/16", "10.20.0.0/24"]  # compacted
    assert (pool["min_prefixlen"], pool["max_prefixlen"], pool["default_prefixlen"]) == (
        "8",
        "32",
        "8",
    )
    assert pool["ip_version"] == 4
    assert pool["default_quota"] is None
    assert pool["address_scope_id"] is None
    assert pool["is_default"] is False and pool["shared"] is False
    assert pool["project_id"] == pool["tenant_id"] == neutron.project_id("demo")
    assert pool["revision_number"] == 0 and pool["description"] == ""
    assert neutron.get("/subnetpools/%s" % pool["id"]).json()["subnetpool"] == pool
    six = _pool(neutron, name="six", prefixes=["fd00::/48"])
    assert (six["min_prefixlen"], six["max_prefixlen"], six["ip_version"]) == ("64", "128", 6)


@pytest.mark.parametrize(
    ("body", "kind", "message"),
    [
        ({"prefixes": []}, "EmptySubnetPoolPrefixList", "Empty subnet pool prefix list."),
        (
            {"prefixes": ["10.0.0.0/8", "fd00::/48"]},
            "PrefixVersionMismatch",
            "Cannot mix IPv4 and IPv6 prefixes in a subnet pool.",
        ),
        (
            {"min_prefixlen": 24, "max_prefixlen": 20},
            "IllegalSubnetPoolPrefixBounds",
            "Illegal prefix bounds: min_prefixlen=24, max_prefixlen=20.",
        ),
        (
            {"max_prefixlen": 33},
            "IllegalSubnetPoolPrefixBounds",
            "Illegal prefix bounds: max_prefixlen=33, ip_version_max=32.",
        ),
        (
            {"min_prefixlen": 16, "default_prefixlen": 12},
            "IllegalSubnetPoolPrefixBounds",
            "Illegal prefix bounds: default_prefixlen=12, min_prefixlen=16.",
        ),
        (
            {"max_prefixlen": 24, "default_prefixlen": 28},
            "IllegalSubnetPoolPrefixBounds",
            "Illegal prefix bounds: default_prefixlen=28, max_prefixlen=24.",
        ),
        (
            {"name": " "},
            "HTTPBadRequest",
            "Invalid input for name. Reason: ' ' Blank strings are not permitted.",
        ),
        (
            {"min_prefixlen": -1},
            "HTTPBadRequest",
            "Invalid input for min_prefixlen. Reason: '-1' should be non-negative.",
        ),
        (
            {"default_quota": "many"},
            "InvalidInput",
            "Invalid input for operation: 'many' is not an integer.",
        ),
        (
            {"prefixes": ["10.0.0.0/8", "10.0.0.0/8"]},
            "HTTPBadRequest",
            "Invalid input for prefixes. Reason: Duplicate items in the list: '10.0.0.0/8'.",
        ),
        (
            {"prefixes": ["10.0.0.1/8"]},
            "HTTPBadRequest",
            "Invalid input for prefixes. Reason: '10.0.0.1/8' isn't a recognized IP subnet "
            "cidr, '10.0.0.0/8' is recommended.",
        ),
    ],
)
def test_create_refusals(neutron, body, kind, message):
    body = dict({"name": "bad", "prefixes": ["10.10.0.0/16"]}, **body)
    assert _refused(neutron, body) == (kind, message)
    assert neutron.get("/subnetpools").json()["subnetpools"] == []


def test_name_and_prefixes_are_required(neutron):
    assert _refused(neutron, {"prefixes": ["10.0.0.0/8"]}) == (
        "HTTPBadRequest",
        "Failed to parse request. Required attribute 'name' not specified",
    )
    assert _refused(neutron, {"name": "p"})[1] == (
        "Failed to parse request. Required attribute 'prefixes' not specified"
    )


@pytest.mark.parametrize("attr", ["shared", "is_default"])
def test_shared_and_default_are_the_admins(neutron, attr):
    body = {"name": "p", "prefixes": ["10.0.0.0/8"], attr: True}
    assert _refused(neutron, body, 403) == (
        "PolicyNotAuthorized",
        "(rule:create_subnetpool and rule:create_subnetpool:%s) is disallowed by policy" % attr,
    )
    assert _pool(neutron, user="admin", **{attr: True})[attr] is True


def test_one_default_pool_per_family(neutron):
    _pool(neutron, user="admin", is_default=True)
    assert _refused(
        neutron, {"name": "again", "prefixes": ["10.99.0.0/16"], "is_default": True}, user="admin"
    ) == (
        "InvalidInput",
        "Invalid input for operation: A default subnetpool for this IP family has already "
        "been set. Only one default may exist per IP family.",
    )
    assert _pool(neutron, user="admin", name="v6", prefixes=["fd00::/48"], is_default=True)


def test_visibility_own_and_shared(neutron):
    private = _pool(neutron, name="private")
    shared = _pool(neutron, user="admin", name="shared", prefixes=["10.50.0.0/16"], shared=True)
    names = [p["name"] for p in neutron.get("/subnetpools", user="alt").json()["subnetpools"]]
    assert names == ["shared"]
    result = neutron.get("/subnetpools/%s" % private["id"], user="alt")
    assert result.status == 404
    assert error(result) == (
        "SubnetPoolNotFound",
        "Subnet pool %s could not be found." % private["id"],
    )
    result = neutron.put(
        "/subnetpools/%s" % shared["id"], {"subnetpool": {"name": "mine"}}, user="alt"
    )
    assert result.status == 403
    assert error(result)[1] == "rule:update_subnetpool is disallowed by policy"
    result = neutron.delete("/subnetpools/%s" % shared["id"], user="alt")
    assert result.status == 403
    assert error(result)[1] == "rule:delete_subnetpool is disallowed by policy"
    assert (
        neutron.get("/subnetpools?shared=true", user="admin").json()["subnetpools"][0]["id"]
        == (shared["id"])
    )


def test_update_grows_prefixes_and_rereads_bounds(neutron):
    pool = _pool(neutron, default_prefixlen=24, min_prefixlen=16)
    result = neutron.put(
        "/subnetpools/%s" % pool["id"],
        {"subnetpool": {"prefixes": ["10.10.0.0/16", "10.11.0.0/16"], "max_prefixlen": 28}},
    )
    assert result.status == 200, result.body
    updated = result.json()["subnetpool"]
    assert updated["prefixes"] == ["10.10.0.0/15"]
    # an update answers numbers and leaves an unset quota out, as Neutron 29
    assert updated["max_prefixlen"] == 28 and updated["default_prefixlen"] == 24
    assert "default_quota" not in updated
    assert updated["revision_number"] == 1
    shown = neutron.get("/subnetpools/%s" % pool["id"]).json()["subnetpool"]
    assert shown["max_prefixlen"] == "28" and shown["default_quota"] is None


@pytest.mark.parametrize(
    ("body", "status", "kind", "message"),
    [
        (
            {"prefixes": ["10.10.0.0/17"]},
            400,
            "IllegalSubnetPoolPrefixUpdate",
            "Illegal update to prefixes: Existing prefixes must be a subset of the new prefixes.",
        ),
        (
            {"max_prefixlen": 20},
            400,
            "IllegalSubnetPoolPrefixBounds",
            "Illegal prefix bounds: default_prefixlen=24, max_prefixlen=20.",
        ),
        (
            {"shared": True},
            400,
            "HTTPBadRequest",
            "Cannot update read-only attribute shared",
        ),
        (
            {"is_default": True},
            403,
            "PolicyNotAuthorized",
            "(rule:update_subnetpool and rule:update_subnetpool:is_default) is disallowed by "
            "policy",
        ),
    ],
)
def test_update_refusals(neutron, body, status, kind, message):
    pool = _pool(neutron, default_prefixlen=24)
    result = neutron.put("/subnetpools/%s" % pool["id"], {"subnetpool": body})
    assert result.status == status, result.body
    assert error(result) == (kind, message)
    assert neutron.get("/subnetpools/%s" % pool["id"]).json()["subnetpool"] == pool


def test_delete_refused_while_a_subnet_was_allocated(neutron):
    pool = _pool(neutron, default_prefixlen=24)
    result = _subnet(neutron, _network(neutron), subnetpool_id=pool["id"])
    assert result.status == 201, result.body
    subnet_id = result.json()["subnet"]["id"]
    refused = neutron.delete("/subnetpools/%s" % pool["id"])
    assert refused.status == 400
    assert error(refused) == (
        "SubnetPoolDeleteError",
        "Unable to delete subnet pool: Subnet pool has existing allocations.",
    )
    assert neutron.delete("/subnets/%s" % subnet_id).status == 204
    assert neutron.delete("/subnetpools/%s" % pool["id"]).status == 204
    assert neutron.get("/subnetpools/%s" % pool["id"]).status == 404


# -- subnets from a pool -----------------------------------------------------------------


def test_subnets_are_carved_in_order_with_their_gateway(neutron):
    pool = _pool(neutron, default_prefixlen=24)
    network_id = _network(neutron)
    first = _subnet(neutron, network_id, subnetpool_id=pool["id"]).json()["subnet"]
    second = _subnet(neutron, network_id, subnetpool_id=pool["id"], prefixlen=26)
    assert second.status == 201, second.body
    second = second.json()["subnet"]
    assert first["cidr"] == "10.10.0.0/24" and first["gateway_ip"] == "10.10.0.1"
    assert first["allocation_pools"] == [{"start": "10.10.0.2", "end": "10.10.0.254"}]
    assert first["subnetpool_id"] == pool["id"]
    # the smallest free block that holds a /26 (neutron sorts them by size)
    assert second["cidr"] == "10.10.1.0/26"
    third = _subnet(neutron, network_id, subnetpool_id=pool["id"], prefixlen=26)
    assert third.json()["subnet"]["cidr"] == "10.10.1.64/26"
    listed = neutron.get("/subnets?subnetpool_id=%s" % pool["id"]).json()["subnets"]
    assert len(listed) == 3


def test_a_specific_cidr_and_a_gateway_inside_the_pool(neutron):
    pool = _pool(neutron, default_prefixlen=24)
    network_id = _network(neutron)
    specific = _subnet(neutron, network_id, subnetpool_id=pool["id"], cidr="10.10.7.0/24")
    assert specific.status == 201, specific.body
    assert specific.json()["subnet"]["cidr"] == "10.10.7.0/24"
    by_gateway = _subnet(neutron, network_id, subnetpool_id=pool["id"], gateway_ip="10.10.9.1")
    assert by_gateway.status == 201, by_gateway.body
    assert by_gateway.json()["subnet"]["cidr"] == "10.10.9.0/24"
    taken = _subnet(neutron, _network(neutron), subnetpool_id=pool["id"], cidr="10.10.7.0/25")
    assert taken.status == 500
    assert error(taken) == (
        "SubnetAllocationError",
        "Failed to allocate subnet: Cannot allocate requested subnet from the available set "
        "of prefixes.",
    )


def test_use_default_subnetpool(neutron):
    network_id = _network(neutron)
    result = _subnet(neutron, network_id, use_default_subnetpool=True)
    assert result.status == 400
    assert error(result) == (
        "BadRequest",
        "Bad subnets request: No default subnetpool found for IPv4.",
    )
    pool = _pool(neutron, user="admin", is_default=True, shared=True, default_prefixlen=26)
    result = _subnet(neutron, network_id, use_default_subnetpool=True)
    assert result.status == 201, result.body
    assert result.json()["subnet"]["subnetpool_id"] == pool["id"]
    assert result.json()["subnet"]["cidr"] == "10.10.0.0/26"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            {"cidr": "10.10.0.0/24", "prefixlen": 24},
            "Bad subnets request: cidr and prefixlen must not be supplied together.",
        ),
        (
            {"use_default_subnetpool": True, "subnetpool_id": "POOL"},
            "Bad subnets request: subnetpool_id and use_default_subnetpool cannot both be "
            "specified.",
        ),
        ({}, "Bad subnets request: a subnetpool must be specified in the absence of a cidr."),
        (
            {
                "subnetpool_id": "POOL",
                "allocation_pools": [{"start": "10.10.0.5", "end": "10.10.0.9"}],
            },
            "Bad subnets request: allocation_pools allowed only for specific subnet requests..",
        ),
        (
            {"subnetpool_id": "POOL", "ip_version": 6},
            "Bad subnets request: Cannot allocate IPv6 subnet from IPv4 subnet pool.",
        ),
    ],
)
def test_subnet_request_refusals(neutron, body, message):
    pool = _pool(neutron)
    body = {k: pool["id"] if v == "POOL" else v for k, v in body.items()}
    result = _subnet(neutron, _network(neutron), **body)
    assert result.status == 400, result.body
    assert error(result) == ("BadRequest", message)
    assert neutron.get("/subnets?subnetpool_id=%s" % pool["id"]).json()["subnets"] == []


@pytest.mark.parametrize(
    ("prefixlen", "kind", "message"),
    [
        (
            30,
            "MaxPrefixSubnetAllocationError",
            "Unable to allocate subnet with prefix length 30, maximum allowed prefix is 28.",
        ),
        (
            18,
            "MinPrefixSubnetAllocationError",
            "Unable to allocate subnet with prefix length 18, minimum allowed prefix is 20.",
        ),
    ],
)
def test_prefix_length_bounds(neutron, prefixlen, kind, message):
    pool = _pool(neutron, min_prefixlen=20, max_prefixlen=28)
    result = _subnet(neutron, _network(neutron), subnetpool_id=pool["id"], prefixlen=prefixlen)
    assert result.status == 400
    assert error(result) == (kind, message)


def test_insufficient_prefix_space(neutron):
    pool = _pool(neutron, prefixes=["10.10.0.0/24"], min_prefixlen=24)
    network_id = _network(neutron)
    assert _subnet(neutron, network_id, subnetpool_id=pool["id"]).status == 201
    result = _subnet(neutron, _network(neutron), subnetpool_id=pool["id"])
    assert result.status == 500
    assert error(result) == (
        "SubnetAllocationError",
        "Failed to allocate subnet: Insufficient prefix space to allocate subnet size /24.",
    )


def test_default_quota_counts_addresses(neutron):
    # 512 addresses: two /24s, not a third
    pool = _pool(neutron, default_prefixlen=24, default_quota=512)
    for _ in range(2):
        assert _subnet(neutron, _network(neutron), subnetpool_id=pool["id"]).status == 201
    result = _subnet(neutron, _network(neutron), subnetpool_id=pool["id"])
    assert result.status == 409
    assert error(result) == (
        "SubnetPoolQuotaExceeded",
        "Per-project subnet pool prefix quota exceeded.",
    )


def test_a_network_draws_one_family_from_one_pool(neutron):
    pool = _pool(neutron, default_prefixlen=24)
    other = _pool(neutron, name="other", prefixes=["10.20.0.0/16"], default_prefixlen=24)
    network_id = _network(neutron)
    assert _subnet(neutron, network_id, subnetpool_id=pool["id"]).status == 201
    expected = (
        "NetworkSubnetPoolAffinityError",
        "Subnets hosted on the same network must be allocated from the same subnet pool.",
    )
    for body in ({"subnetpool_id": other["id"]}, {"cidr": "192.168.5.0/24"}):
        result = _subnet(neutron, network_id, **body)
        assert result.status == 400, result.body
        assert error(result) == expected


def test_another_projects_private_pool_is_not_found(neutron):
    pool = _pool(neutron)
    result = _subnet(neutron, _network(neutron, user="alt"), user="alt", subnetpool_id=pool["id"])
    assert result.status == 404
    assert error(result) == (
        "SubnetPoolNotFound",
        "Subnet pool %s could not be found." % pool["id"],
    )


def test_a_shared_pool_serves_other_projects(neutron):
    pool = _pool(neutron, user="admin", shared=True, default_prefixlen=24)
    result = _subnet(neutron, _network(neutron, user="alt"), user="alt", subnetpool_id=pool["id"])
    assert result.status == 201, result.body
    assert result.json()["subnet"]["project_id"] == neutron.project_id("alt")


def test_the_subnetpool_quota_counts_pools(neutron):
    result = neutron.put(
        "/quotas/%s" % neutron.project_id("demo"),
        {"quota": {"subnetpool": 1}},
        user="admin",
    )
    assert result.status == 200, result.body
    _pool(neutron)
    refused = _refused(neutron, {"name": "second", "prefixes": ["10.30.0.0/16"]}, 409)
    assert refused == ("OverQuota", "Quota exceeded for resources: ['subnetpool'].")


def test_pools_take_tags_and_drop_them_with_the_pool(neutron):
    pool = _pool(neutron)
    other = _pool(neutron, name="other", prefixes=["10.40.0.0/16"])
    result = neutron.put("/subnetpools/%s/tags" % pool["id"], {"tags": ["blue", "red"]})
    assert result.status == 200, result.body
    assert neutron.get("/subnetpools/%s" % pool["id"]).json()["subnetpool"]["tags"] == [
        "blue",
        "red",
    ]
    listed = neutron.get("/subnetpools?tags=blue").json()["subnetpools"]
    assert [p["id"] for p in listed] == [pool["id"]]
    result = neutron.put("/subnetpools/%s/tags" % other["id"], {"tags": ["x"]}, user="alt")
    assert result.status == 404
    assert neutron.delete("/subnetpools/%s" % pool["id"]).status == 204
    with neutron.cloud.store.read() as db:
        left = db.execute(
            "SELECT COUNT(*) FROM network_tags WHERE resource_id = ?", (pool["id"],)
        ).fetchone()[0]
    assert left == 0
