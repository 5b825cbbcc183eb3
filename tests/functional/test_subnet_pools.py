"""Subnet pools and address scopes against the local cloud's Neutron:
occli's ``address scope``/``subnet pool`` commands and ``subnet create
--subnet-pool`` (demo user, cloud ``local``), and openstacksdk's
``create_subnet_pool`` and ``create_subnet(subnetpool_id=…)`` reading the
bodies as a real Neutron's."""

import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import ok
from tests.functional.harness import point_client_at


def unique(prefix):
    return "%s-%s" % (prefix, uuid.uuid4().hex[:8])


@pytest.fixture
def occli(occli_env, run_occli):
    return run_occli


def test_a_subnet_from_a_pool_of_a_scope(occli):
    scope, pool, net = unique("scope"), unique("pool"), unique("net")
    made = as_json(occli("address", "scope", "create", scope, "-f", "json"))
    try:
        created = as_json(
            occli("subnet", "pool", "create", pool, "--pool-prefix", "10.77.0.0/16",
                  "--default-prefix-length", "26", "--address-scope", scope, "-f", "json")
        )  # fmt: skip
        assert created["address_scope_id"] == made["id"]
        assert created["default_prefixlen"] == "26" and created["min_prefixlen"] == "8"
        ok(occli("network", "create", net))
        subnet = as_json(
            occli("subnet", "create", unique("sub"), "--network", net, "--subnet-pool", pool,
                  "-f", "json")
        )  # fmt: skip
        assert subnet["cidr"] == "10.77.0.0/26" and subnet["subnetpool_id"] == created["id"]
        shown = as_json(occli("network", "show", net, "-f", "json"))
        assert shown["ipv4_address_scope"] == made["id"]
        code, out, err = occli("subnet", "pool", "delete", pool)
        assert code == 1 and "Subnet pool has existing allocations" in err
        listed = as_json(occli("subnet", "pool", "list", "--address-scope", scope, "-f", "json"))
        assert [p["Name"] for p in listed] == [pool]
    finally:
        occli("network", "delete", net)
        occli("subnet", "pool", "delete", pool)
        ok(occli("address", "scope", "delete", scope))


@pytest.fixture
def conn(localcloud, monkeypatch, tmp_path):
    """openstacksdk on cloud ``local`` (skipped without openstacksdk)."""
    openstack = pytest.importorskip("openstack")
    point_client_at(localcloud, monkeypatch, tmp_path / "cache", cloud="local")
    connection = openstack.connect(cloud="local")
    yield connection
    connection.close()


def test_openstacksdk_pools(conn):
    pool = conn.network.create_subnet_pool(
        name=unique("sdk-pool"), prefixes=["10.78.0.0/16"], default_prefix_length=24
    )
    network = conn.network.create_network(name=unique("sdk-net"))
    try:
        assert pool.default_prefix_length == 24 and pool.prefixes == ["10.78.0.0/16"]
        subnet = conn.network.create_subnet(
            network_id=network.id, ip_version=4, subnet_pool_id=pool.id, prefix_length=25
        )
        assert subnet.cidr == "10.78.0.0/25" and subnet.subnet_pool_id == pool.id
        found = conn.network.find_subnet_pool(pool.name)
        assert found is not None and found.id == pool.id
        zones = {(z.name, z.resource) for z in conn.network.availability_zones()}
        assert zones == {("nova", "network"), ("nova", "router")}
        assert conn.network.find_extension("subnet_allocation") is not None
    finally:
        conn.network.delete_network(network.id)
        conn.network.delete_subnet_pool(pool.id)
