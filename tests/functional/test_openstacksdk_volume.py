"""openstacksdk's block storage calls against the local cloud's Cinder:
volumes and snapshots through the cloud layer, boot from volume, and the
refusals a user of that client meets (another client than occli, so the
local cloud's answers are checked against what it expects)."""

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


def _name():
    return "sdk-vol-%s" % uuid.uuid4().hex[:8]


def test_volume_snapshot_and_clone(conn):
    volume = conn.create_volume(size=1, name=_name(), image=IMAGE, wait=True, timeout=60)
    snapshot = clone = None
    try:
        assert (volume.status, volume.is_bootable) == ("available", True)
        assert volume.id in [v.id for v in conn.list_volumes()]
        snapshot = conn.create_volume_snapshot(volume.id, name=_name(), wait=True, timeout=60)
        assert snapshot.status == "available"
        clone = conn.create_volume(
            size=2, name=_name(), snapshot_id=snapshot.id, wait=True, timeout=60
        )
        assert (clone.size, clone.snapshot_id) == (2, snapshot.id)
    finally:
        if clone is not None:
            conn.delete_volume(clone.id, wait=True, timeout=60)
        if snapshot is not None:
            conn.delete_volume_snapshot(snapshot.id, wait=True, timeout=60)
        conn.delete_volume(volume.id, wait=True, timeout=60)


def test_attached_volume_cannot_be_deleted(conn):
    from openstack import exceptions

    server = conn.create_server(_name(), image=IMAGE, flavor="m1.tiny", wait=True, timeout=60)
    volume = conn.create_volume(size=1, name=_name(), wait=True, timeout=60)
    try:
        conn.attach_volume(server, volume, wait=True, timeout=60)
        with pytest.raises(exceptions.BadRequestException) as refused:
            conn.block_storage.delete_volume(volume.id)
        assert "must not be migrating, attached" in str(refused.value)
    finally:
        conn.delete_server(server.id, wait=True, timeout=60)
        conn.delete_volume(volume.id, wait=True, timeout=60)


def test_boot_from_volume_deletes_it_with_the_server(conn):
    server = conn.create_server(
        _name(),
        image=IMAGE,
        flavor="m1.tiny",
        boot_from_volume=True,
        volume_size=1,
        terminate_volume=True,
        wait=True,
        timeout=60,
    )
    volumes = [v["id"] for v in server["os-extended-volumes:volumes_attached"]]
    assert len(volumes) == 1
    assert conn.get_volume(volumes[0]).status == "in-use"
    conn.delete_server(server.id, wait=True, timeout=60)
    assert conn.get_volume(volumes[0]) is None
