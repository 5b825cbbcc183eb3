"""openstacksdk against the local cloud's networks: the headline of issue
13, ``conn.create_server(..., network='private', auto_ip=True, wait=True)``
(openstacksdk resolves ``private`` through Neutron, boots, waits, then
takes a floating IP from ``public`` and associates it with the server's
port), then the same connection tears it down."""

import pytest

from tests.functional.harness import point_client_at

openstack = pytest.importorskip("openstack")


@pytest.fixture
def conn(localcloud, monkeypatch, tmp_path):
    point_client_at(localcloud, monkeypatch, tmp_path / "cache", cloud="local")
    connection = openstack.connect(cloud="local")
    yield connection
    connection.close()


def test_create_server_with_auto_ip(conn):
    server = conn.create_server(
        "sdk-auto-ip",
        image="cirros-0.6.2-x86_64-disk",
        flavor="m1.tiny",
        network="private",
        auto_ip=True,
        wait=True,
        timeout=60,
    )
    try:
        assert server.status == "ACTIVE"
        kinds = {entry["OS-EXT-IPS:type"]: entry["addr"] for entry in server.addresses["private"]}
        assert kinds["fixed"].startswith("10.0.")
        assert kinds["floating"].startswith("172.24.4.")
        (fip,) = [f for f in conn.network.ips() if f.floating_ip_address == kinds["floating"]]
        port = conn.network.get_port(fip.port_id)
        assert port.device_id == server.id
        assert port.device_owner.startswith("compute:")
        assert port.fixed_ips[0]["ip_address"] == kinds["fixed"]
    finally:
        assert conn.delete_server(server.id, wait=True, delete_ips=True, timeout=60)
    assert conn.get_server("sdk-auto-ip") is None
    assert not [p for p in conn.network.ports(device_id=server.id)]
    assert not [f for f in conn.network.ips() if f.floating_ip_address == kinds["floating"]]


def test_network_resources_through_the_sdk(conn):
    """Security groups and rules, a port on ``private``, a server booted on
    that port: the port survives the server, unbound."""
    group = conn.network.create_security_group(name="sdk-web", description="web")
    rule = conn.network.create_security_group_rule(
        security_group_id=group.id,
        direction="ingress",
        protocol="tcp",
        port_range_min=80,
        port_range_max=80,
        remote_ip_prefix="0.0.0.0/0",
    )
    names = [g.name for g in conn.network.security_groups()]
    assert "default" in names and "sdk-web" in names
    network = conn.network.find_network("private", ignore_missing=False)
    port = conn.network.create_port(network_id=network.id, security_group_ids=[group.id])
    server = conn.create_server(
        "sdk-on-port",
        image="cirros-0.6.2-x86_64-disk",
        flavor="m1.tiny",
        nics=[{"port-id": port.id}],
        wait=True,
        timeout=60,
    )
    try:
        assert conn.network.get_port(port.id).device_id == server.id
        # openstacksdk adds a floating IP by itself (auto_ip defaults to True)
        fixed = [a["addr"] for a in server.addresses["private"] if a["OS-EXT-IPS:type"] == "fixed"]
        assert fixed == [port.fixed_ips[0]["ip_address"]]
    finally:
        conn.delete_server(server.id, wait=True, delete_ips=True, timeout=60)
    kept = conn.network.get_port(port.id)
    assert kept.device_id == ""
    conn.network.delete_port(port)
    conn.network.delete_security_group_rule(rule)
    conn.network.delete_security_group(group)
    assert conn.network.find_security_group("sdk-web") is None
