"""openstacksdk's most used calls against the local cloud: create_server
with a named network and a floating IP (``auto_ip``), and a volume made,
attached and detached, as a user of another client would run them."""

import uuid

import pytest

from tests.functional.harness import IMAGE

pytestmark = pytest.mark.filterwarnings(
    "ignore::PendingDeprecationWarning:openstack", "ignore::DeprecationWarning:openstack"
)


@pytest.fixture
def conn(occli_env):
    import openstack

    return openstack.connect(cloud="local")


def test_create_server_on_a_network_with_a_floating_ip(conn):
    name = "sdk-%s" % uuid.uuid4().hex[:8]
    server = conn.create_server(
        name, image=IMAGE, flavor="m1.tiny", network="private", auto_ip=True, wait=True, timeout=60
    )
    try:
        assert server.status == "ACTIVE"
        kinds = {a["OS-EXT-IPS:type"]: a["addr"] for a in server.addresses["private"]}
        assert set(kinds) == {"fixed", "floating"}
        fip = conn.network.find_ip(kinds["floating"])
        port = next(conn.network.ports(device_id=server.id))
        assert (fip.port_id, fip.fixed_ip_address) == (port.id, kinds["fixed"])
    finally:
        conn.delete_server(server.id, wait=True, delete_ips=True, timeout=60)
    assert conn.network.find_ip(kinds["floating"]) is None


def test_create_and_attach_a_volume(conn):
    name = "sdk-%s" % uuid.uuid4().hex[:8]
    server = conn.create_server(
        name, image=IMAGE, flavor="m1.tiny", network="private", wait=True, timeout=60
    )
    volume = conn.create_volume(size=1, name=name, wait=True, timeout=60)
    try:
        assert volume.status == "available"
        attachment = conn.attach_volume(server, volume, wait=True, timeout=60)
        assert attachment.device == "/dev/vdb"
        assert conn.get_volume(volume.id).status == "in-use"
        conn.detach_volume(server, volume, wait=True, timeout=60)
        assert conn.get_volume(volume.id).status == "available"
    finally:
        conn.delete_server(server.id, wait=True, timeout=60)
        conn.delete_volume(volume.id, wait=True, timeout=60)
