"""Cinder's snapshots in the local cloud: create (force for in-use volumes
before 3.66), lazy progress, list, update, delete rules (and the admin's
os-force_delete) and ownership."""

import json
import pathlib

import pytest

from tests.shape import assert_same_shape
from tests.unit.localcloud.volume_harness import cinder_cloud
from tests.unit.localcloud.volume_harness import message

cinder = pytest.fixture(cinder_cloud, name="cinder")
SAMPLE = pathlib.Path(__file__).parents[2] / "fixtures/volume/snapshots/v3.65"


def _available(cinder, user="demo", **volume):
    created = cinder.create(user=user, **volume)
    cinder.show(created["id"], user=user)
    return created


def test_create_show_list(cinder):
    volume = _available(cinder, size=2)
    snap = cinder.snapshot(volume["id"], name="s1", description="d", metadata={"k": "v"})
    assert (snap["status"], snap["size"], snap["volume_id"]) == ("creating", 2, volume["id"])
    shown = cinder.get("/snapshots/" + snap["id"]).json()["snapshot"]
    assert shown["status"] == "available"
    assert shown["os-extended-snapshot-attributes:progress"] == "100%"
    sample = json.loads((SAMPLE / "snapshot-show-response.json").read_text())["snapshot"]
    assert_same_shape(shown, sample)
    listed = cinder.get("/snapshots").json()["snapshots"]
    assert [s["id"] for s in listed] == [snap["id"]]
    assert "os-extended-snapshot-attributes:progress" not in listed[0]
    detail = cinder.get("/snapshots/detail?volume_id=" + volume["id"]).json()["snapshots"]
    assert detail[0]["os-extended-snapshot-attributes:project_id"] == cinder.projects["demo"]
    assert cinder.get("/snapshots?name=other").json()["snapshots"] == []
    assert cinder.get("/snapshots?colour=red").status == 400


def test_in_use_volume_needs_force_before_366(cinder):
    volume = _available(cinder)
    server = cinder.server()
    assert cinder.attach(server, volume["id"]).status == 200
    body = {"snapshot": {"volume_id": volume["id"]}}
    refused = cinder.post("/snapshots", body, version="3.65")
    assert refused.status == 400
    assert message(refused) == (
        "Invalid volume: Volume %s status must be available, but current status is: in-use."
        % volume["id"]
    )
    forced = {"snapshot": {"volume_id": volume["id"], "force": True}}
    assert cinder.post("/snapshots", forced, version="3.65").status == 202
    assert cinder.post("/snapshots", body, version="3.66").status == 202
    no_force = {"snapshot": {"volume_id": volume["id"], "force": False}}
    result = cinder.post("/snapshots", no_force, version="3.66")
    assert result.status == 400
    assert message(result).startswith("Since microversion 3.66 the 'force' flag is invalid")


def test_others_snapshots_and_volumes_are_not_found(cinder):
    volume = _available(cinder, user="alt")
    snap = cinder.snapshot(volume["id"], user="alt")
    result = cinder.get("/snapshots/" + snap["id"])
    assert (result.status, message(result)) == (
        404,
        "Snapshot %s could not be found." % snap["id"],
    )
    assert cinder.delete("/snapshots/" + snap["id"]).status == 404
    stolen = cinder.post("/snapshots", {"snapshot": {"volume_id": volume["id"]}})
    assert (stolen.status, message(stolen)) == (
        404,
        "Volume %s could not be found." % volume["id"],
    )
    assert cinder.get("/snapshots").json()["snapshots"] == []
    every = cinder.get("/snapshots?all_tenants=1", user="admin").json()["snapshots"]
    assert snap["id"] in [s["id"] for s in every]


def test_update_and_delete(cinder):
    volume = _available(cinder)
    snap = cinder.snapshot(volume["id"], name="a")
    updated = cinder.put("/snapshots/" + snap["id"], {"snapshot": {"name": "b"}})
    assert updated.status == 200 and updated.json()["snapshot"]["name"] == "b"
    assert cinder.put("/snapshots/" + snap["id"], {"snapshot": {}}).status == 400
    assert cinder.delete("/snapshots/" + snap["id"]).status == 202
    assert cinder.get("/snapshots/" + snap["id"]).status == 404


def test_delete_while_creating_is_400(tmp_path, clock):
    from tests.unit.localcloud.volume_harness import Cinder
    from tests.unit.localcloud.volume_harness import make_cloud

    cloud = make_cloud(tmp_path / "slow", build_time=10)
    try:
        slow = Cinder(cloud)
        volume = slow.create()
        clock.advance(11)
        snap = slow.snapshot(volume["id"])
        result = slow.delete("/snapshots/" + snap["id"])
        assert result.status == 400
        assert message(result) == (
            "Invalid snapshot: Snapshot status must be available or error and must not be part"
            " of a group."
        )
        # os-force_delete: admin only (after the lookup), whatever the status
        action = "/snapshots/%s/action" % snap["id"]
        refused = slow.post(action, {"os-force_delete": {}})
        assert (refused.status, message(refused)) == (
            403,
            "Policy doesn't allow volume_extension:snapshot_admin_actions:force_delete"
            " to be performed.",
        )
        assert slow.post(action, {"os-force_delete": {}}, user="alt").status == 404
        unknown = slow.post(action, {"os-reset_status": {}}, user="admin")
        assert (unknown.status, message(unknown)) == (
            400,
            (
                "There is no such action: os-reset_status. Verify the request body and"
                " Content-Type header and try again."
            ),
        )
        assert slow.get("/snapshots/" + snap["id"]).json()["snapshot"]["status"] == "creating"
        assert slow.post(action, {"os-force_delete": {}}, user="admin").status == 202
        assert slow.get("/snapshots/" + snap["id"]).status == 404
    finally:
        cloud.close()


def test_snapshot_quota(cinder):
    body = {"quota_set": {"snapshots": 1}}
    path = "/os-quota-sets/" + cinder.projects["demo"]
    assert cinder.put(path, body, user="admin", project=False).status == 200
    volume = _available(cinder)
    cinder.snapshot(volume["id"])
    result = cinder.post("/snapshots", {"snapshot": {"volume_id": volume["id"]}})
    assert result.status == 413
    assert result.json() == {
        "overLimit": {
            "code": 413,
            "message": "SnapshotLimitExceeded: Maximum number of snapshots allowed (1) exceeded",
            "retryAfter": "0",
        }
    }
    assert result.header("Retry-After") == "0"
