"""Local cloud: soft delete with ``reclaim_instance_interval`` (restore,
forceDelete, lazy reclaim) and forceDelete/restore with nova's default 0
(answers recorded from nova 34: tests/fixtures/compute/realcloud/
nova-34-server-extras.json)."""

import pytest

from tests.unit.localcloud.compute_harness import Nova
from tests.unit.localcloud.compute_harness import fault
from tests.unit.localcloud.compute_harness import make_cloud


@pytest.fixture
def reclaiming(tmp_path):
    """A cloud reclaiming soft-deleted servers after 60 (fake-clock) seconds."""
    cloud = make_cloud(tmp_path / "data", reclaim_instance_interval=60)
    yield Nova(cloud)
    cloud.close()


def _status(nova, server_id, user="demo"):
    return nova.show(server_id, user=user)["status"]


def test_delete_soft_deletes_then_restore(reclaiming, clock):
    server_id = reclaiming.create()
    assert _status(reclaiming, server_id) == "ACTIVE"
    assert reclaiming.delete("/servers/" + server_id).status == 204
    shown = reclaiming.show(server_id)
    assert (shown["status"], shown["OS-EXT-STS:power_state"]) == ("SOFT_DELETED", 4)
    listed = reclaiming.get("/servers/detail").json()["servers"]
    assert [s["status"] for s in listed if s["id"] == server_id] == ["SOFT_DELETED"]
    assert reclaiming.action(server_id, {"restore": None}).status == 202
    shown = reclaiming.show(server_id)
    assert (shown["status"], shown["OS-EXT-STS:power_state"]) == ("ACTIVE", 1)
    # restored: no reclaim any more
    clock.advance(120)
    assert _status(reclaiming, server_id) == "ACTIVE"


def test_soft_deleted_server_is_reclaimed_lazily(reclaiming, clock):
    server_id = reclaiming.create()
    reclaiming.delete("/servers/" + server_id)
    clock.advance(59)
    assert _status(reclaiming, server_id) == "SOFT_DELETED"
    clock.advance(2)
    assert reclaiming.get("/servers/" + server_id).status == 404
    listed = reclaiming.get("/servers").json()["servers"]
    assert server_id not in [s["id"] for s in listed]
    query = "/servers/detail?deleted=true&all_tenants=1"
    deleted = reclaiming.get(query, user="admin").json()["servers"]
    assert [s["status"] for s in deleted if s["id"] == server_id] == ["DELETED"]


def test_reclaimed_while_listing(reclaiming, clock):
    server_id = reclaiming.create()
    reclaiming.delete("/servers/" + server_id)
    clock.advance(61)
    listed = reclaiming.get("/servers/detail").json()["servers"]
    assert server_id not in [s["id"] for s in listed]


def test_force_delete_of_soft_deleted(reclaiming):
    server_id = reclaiming.create()
    reclaiming.delete("/servers/" + server_id)
    assert reclaiming.action(server_id, {"forceDelete": None}).status == 202
    assert reclaiming.get("/servers/" + server_id).status == 404


def test_locked_server_refusals(reclaiming):
    server_id = reclaiming.create()
    reclaiming.delete("/servers/" + server_id)
    reclaiming.action(server_id, {"lock": None}, user="admin")
    assert fault(reclaiming.action(server_id, {"restore": None})) == (
        "conflictingRequest",
        409,
        "Instance %s is locked" % server_id,
    )
    assert reclaiming.action(server_id, {"restore": None}, user="admin").status == 202


def test_never_launched_server_is_deleted_at_once(reclaiming):
    server_id = reclaiming.create()
    with reclaiming.cloud.store.transaction() as db:
        # as a build that failed (NoValidHost): ERROR, never launched
        db.execute(
            "UPDATE servers SET launched_at = NULL, pending = NULL, task_started_at = NULL,"
            " vm_state = 'error', task_state = NULL WHERE id = ?",
            (server_id,),
        )
    reclaiming.delete("/servers/" + server_id)
    assert reclaiming.get("/servers/" + server_id).status == 404


def test_without_interval_restore_conflicts_and_force_delete_deletes(nova):
    """nova 34 with reclaim_instance_interval 0: restore of an ACTIVE
    server is 409, forceDelete deletes it (202)."""
    server_id = nova.create()
    assert fault(nova.action(server_id, {"restore": None})) == (
        "conflictingRequest",
        409,
        "Cannot 'restore' instance %s while it is in vm_state active" % server_id,
    )
    nova.action(server_id, {"lock": None})
    assert fault(nova.action(server_id, {"forceDelete": None})) == (
        "conflictingRequest",
        409,
        "Instance %s is locked" % server_id,
    )
    nova.action(server_id, {"unlock": None})
    assert nova.action(server_id, {"forceDelete": None}).status == 202
    assert nova.get("/servers/" + server_id).status == 404
    assert nova.delete("/servers/" + nova.create()).status == 204


def test_reclaim_detaches_volumes_and_releases_ports(tmp_path, clock):
    """nova's reclaim deletes a soft-deleted server as a delete does: its
    volumes go available again (deleted with delete_on_termination), its
    ports are released, at the moment it is reclaimed."""
    from tests.unit.localcloud.volume_harness import Cinder
    from tests.unit.localcloud.volume_harness import make_cloud as cinder_cloud

    cloud = cinder_cloud(tmp_path / "cinder", reclaim_instance_interval=60)
    try:
        cinder = Cinder(cloud)
        server = cinder.server(networks="auto")
        kept, dropped = cinder.create()["id"], cinder.create()["id"]
        assert cinder.attach(server, kept).status == 200
        assert cinder.attach(server, dropped, delete_on_termination=True).status == 200
        assert _bound_ports(cloud, server) == 1
        assert cinder.nova("DELETE", "/servers/" + server).status == 204
        # soft-deleted: restorable, so everything stays attached
        assert cinder.show(kept)["status"] == "in-use"
        clock.advance(61)
        # the server is read (and reclaimed) by a listing
        listed = cinder.nova("GET", "/servers").json()["servers"]
        assert server not in [s["id"] for s in listed]
        assert (cinder.show(kept)["status"], cinder.show(kept)["attachments"]) == ("available", [])
        assert cinder.get("/volumes/" + dropped).status == 404
        assert _bound_ports(cloud, server) == 0
    finally:
        cloud.close()


def _bound_ports(cloud, server_id):
    with cloud.store.read() as db:
        return db.execute(
            "SELECT COUNT(*) FROM network_ports WHERE device_id = ?", (server_id,)
        ).fetchone()[0]
