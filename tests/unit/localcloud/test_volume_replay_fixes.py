"""What the replay of the real Cinder 29 (test_volume_realcloud_replay.py)
found the local one doing differently, each rule on its own."""

import re

import pytest

from tests.unit.localcloud.volume_harness import MISSING
from tests.unit.localcloud.volume_harness import cinder_cloud
from tests.unit.localcloud.volume_harness import message

cinder = pytest.fixture(cinder_cloud, name="cinder")

NOVA_USING = "ConflictNovaUsingAttachment: Detach volume from instance %s using the Compute API"


def act(cinder, volume_id, name, value=None, user="demo", expect=202):
    result = cinder.post("/volumes/%s/action" % volume_id, {name: value}, user=user)
    assert result.status == expect, result.body
    return result


def identity(cinder, method, path, json=None):
    result = cinder.client.request(method, path, json=json, token=cinder.tokens["admin"])
    assert result.status < 300, result.body
    return result


def test_detach_of_a_missing_attachment_is_nova_s(cinder):
    """Cinder's ``attachment_deletion_allowed`` finds no attachment, so no
    instance to name: 409, also for the one just detached."""
    volume = cinder.create()["id"]
    server = "11111111-2222-4333-8444-555555555555"
    act(cinder, volume, "os-attach", {"instance_uuid": server, "mountpoint": "/dev/vdb"})
    result = act(cinder, volume, "os-detach", {"attachment_id": MISSING}, expect=409)
    assert message(result) == NOVA_USING % ""
    assert cinder.show(volume)["status"] == "in-use"
    (attachment,) = cinder.show(volume)["attachments"]
    act(cinder, volume, "os-detach", {"attachment_id": attachment["attachment_id"]})
    assert cinder.show(volume)["status"] == "available"
    result = act(
        cinder, volume, "os-detach", {"attachment_id": attachment["attachment_id"]}, expect=409
    )
    assert message(result) == NOVA_USING % ""
    # no attachment at all and none named: nothing to refuse
    act(cinder, volume, "os-detach", None)


def test_a_service_detaches_nova_s_attachment(cinder):
    """A caller with the ``service`` role is a service request, which Cinder
    lets detach what Nova still uses; Nova's own detach keeps working."""
    server = cinder.server()
    volume = cinder.create()["id"]
    assert cinder.attach(server, volume).status == 200
    result = act(cinder, volume, "os-detach", None, expect=409)
    assert message(result) == NOVA_USING % server
    (role,) = identity(cinder, "GET", "/v3/roles?name=service").json()["roles"]
    (user,) = identity(cinder, "GET", "/v3/users?name=demo").json()["users"]
    path = "/v3/projects/%s/users/%s/roles/%s" % (cinder.projects["demo"], user["id"], role["id"])
    identity(cinder, "PUT", path)
    cinder.tokens["demo"] = cinder.client.token("demo")
    act(cinder, volume, "os-detach", None)
    assert cinder.show(volume)["status"] == "available"
    other = cinder.create()["id"]
    assert cinder.attach(server, other).status == 200
    path = "/servers/%s/os-volume_attachments/%s" % (server, other)
    assert cinder.nova("DELETE", path).status == 202
    assert cinder.show(other)["status"] == "available"


def test_the_default_cgsnapshot_group_type_is_seeded(cinder):
    """Cinder's migration makes the group type its cgsnapshots went to;
    every caller lists it, its specs consistent snapshots."""
    listed = cinder.get("/group_types").json()["group_types"]
    assert [t["name"] for t in listed] == ["default_cgsnapshot_type"]
    assert listed[0]["description"] == "Default group type for migrating cgsnapshot"
    assert listed[0]["is_public"] is True
    shown = cinder.get("/group_types/" + listed[0]["id"], user="admin").json()["group_type"]
    assert shown["group_specs"] == {"consistent_group_snapshot_enabled": "<is> True"}


def test_only_the_volume_service_has_backend_fields(cinder):
    """Cinder's services view adds the replication fields (and
    ``backend_state`` from 3.49) to ``cinder-volume``'s only."""
    listed = cinder.get("/os-services", user="admin").json()["services"]
    by_binary = {s["binary"]: s for s in listed}
    volume = by_binary["cinder-volume"]
    assert (volume["backend_state"], volume["replication_status"]) == ("up", "disabled")
    assert (volume["active_backend_id"], volume["frozen"]) == (None, False)
    extra = {"backend_state", "replication_status", "active_backend_id", "frozen"}
    assert not extra & set(by_binary["cinder-scheduler"])
    old = cinder.get("/os-services", user="admin", version="3.48").json()["services"]
    (volume,) = [s for s in old if s["binary"] == "cinder-volume"]
    assert "backend_state" not in volume and volume["frozen"] is False


def test_force_delete_is_the_admin_s(cinder):
    """``os-force_delete`` deletes a volume whatever its status, refused to
    a member (after the lookup) and for an attached volume."""
    volume = cinder.create()["id"]
    result = act(cinder, volume, "os-force_delete", {}, expect=403)
    assert message(result) == (
        "Policy doesn't allow volume_extension:volume_admin_actions:force_delete to be performed."
    )
    result = act(cinder, MISSING, "os-force_delete", {}, user="admin", expect=404)
    assert message(result) == "Volume %s could not be found." % MISSING
    act(cinder, volume, "os-reset_status", {"status": "error_deleting"}, user="admin")
    assert cinder.delete("/volumes/" + volume).status == 400
    act(cinder, volume, "os-force_delete", {}, user="admin")
    assert cinder.get("/volumes/" + volume).status == 404
    attached = cinder.create()["id"]
    act(cinder, attached, "os-attach", {"host_name": "h", "mountpoint": "/dev/vdb"})
    act(cinder, attached, "os-force_delete", {}, user="admin", expect=400)
    assert cinder.show(attached)["status"] == "in-use"


def test_pool_capabilities_as_the_scheduler_reports_them(cinder):
    """The LVM pool's stats with what the scheduler's host manager adds
    (the backend's info and the ``timestamp`` of its last report), typed
    as Cinder's; the backend-only ``sparse_copy_volume`` is no pool's."""
    cinder.create(size=2)
    (pool,) = cinder.get("/scheduler-stats/get_pools?detail=true", user="admin").json()["pools"]
    caps = pool["capabilities"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}", caps["timestamp"])
    assert "sparse_copy_volume" not in caps
    assert isinstance(caps["total_capacity_gb"], float)
    assert caps["free_capacity_gb"] == caps["total_capacity_gb"] - 2
    assert (caps["allocated_capacity_gb"], caps["provisioned_capacity_gb"]) == (2, 2.0)
    assert (caps["reserved_percentage"], caps["QoS_support"]) == (0, False)
    assert (caps["vendor_name"], caps["driver_version"]) == ("Open Source", "3.0.0")
