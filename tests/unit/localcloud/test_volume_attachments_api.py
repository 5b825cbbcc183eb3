"""Cinder's attachments API (3.27+) in the local cloud: reserve, connect
with a connector, complete (3.44), delete, list and show, the state
rules (reserved → attaching → attached → the volume ``in-use``) and
Cinder's refusals; Nova attaches through the same records."""

import pytest

from tests.unit.localcloud.volume_harness import MISSING
from tests.unit.localcloud.volume_harness import cinder_cloud
from tests.unit.localcloud.volume_harness import message

cinder = pytest.fixture(cinder_cloud, name="cinder")

SERVER = "11111111-2222-4333-8444-555555555555"
CONNECTOR = {
    "initiator": "iqn.1993-08.org.debian:01:cad181614cec",
    "ip": "192.168.1.20",
    "platform": "x86_64",
    "host": "tempest-1",
    "os_type": "linux2",
    "multipath": False,
    "mountpoint": "/dev/vdb",
}


def create(cinder, volume_id, expect=200, version="3.70", user="demo", **attachment):
    attachment.setdefault("instance_uuid", SERVER)
    attachment["volume_uuid"] = volume_id
    result = cinder.post("/attachments", {"attachment": attachment}, version=version, user=user)
    assert result.status == expect, result.body
    return result.json()["attachment"] if expect == 200 else result


def complete(cinder, attachment_id, version="3.70", user="demo"):
    return cinder.post(
        "/attachments/%s/action" % attachment_id, {"os-complete": None}, version=version, user=user
    )


def test_reserve_then_update_then_complete(cinder):
    volume = cinder.create()["id"]
    reserved = create(cinder, volume)
    assert reserved["status"] == "reserved"
    assert reserved["instance"] == SERVER
    assert reserved["connection_info"] == {}
    assert reserved["attach_mode"] == "null"
    assert reserved["attached_at"] == ""
    assert cinder.show(volume)["status"] == "reserved"
    assert cinder.show(volume)["attachments"] == []

    updated = cinder.put(
        "/attachments/" + reserved["id"], {"attachment": {"connector": CONNECTOR}}
    )
    assert updated.status == 200, updated.body
    attachment = updated.json()["attachment"]
    assert attachment["status"] == "attaching"
    assert attachment["attach_mode"] == "rw"
    assert attachment["attached_at"]
    info = attachment["connection_info"]
    assert info["driver_volume_type"] == "iscsi"
    assert info["access_mode"] == "rw"
    assert info["attachment_id"] == reserved["id"]
    assert cinder.show(volume)["status"] == "attaching"

    done = complete(cinder, reserved["id"])
    assert done.status == 204, done.body
    shown = cinder.show(volume)
    assert shown["status"] == "in-use"
    assert shown["attachments"][0]["attachment_id"] == reserved["id"]
    assert shown["attachments"][0]["device"] == "/dev/vdb"
    got = cinder.get("/attachments/" + reserved["id"]).json()["attachment"]
    assert got["status"] == "attached"


def test_create_with_connector_and_mode(cinder):
    volume = cinder.create()["id"]
    attachment = create(cinder, volume, connector=CONNECTOR, mode="ro")
    assert attachment["status"] == "attaching"
    assert attachment["attach_mode"] == "ro"
    assert attachment["connection_info"]["driver_volume_type"] == "iscsi"
    # mode is 3.54's: refused by the schema before it
    other = cinder.create()["id"]
    result = create(cinder, other, expect=400, version="3.53", mode="ro")
    assert "mode" in message(result)


def test_a_volume_in_use_is_not_reserved_again(cinder):
    volume = cinder.create()["id"]
    create(cinder, volume)
    result = create(cinder, volume, expect=400, instance_uuid=MISSING)
    assert message(result) == (
        "Invalid volume: Volume %s status must be available or downloading to reserve, but"
        " the current status is reserved." % volume
    )
    # the same instance may hold it twice (Nova moving the instance)
    assert create(cinder, volume)["status"] == "reserved"


def test_a_multiattach_type_takes_several_instances(cinder):
    created = cinder.post(
        "/types",
        {"volume_type": {"name": "multi", "extra_specs": {"multiattach": "<is> True"}}},
        user="admin",
    )
    assert created.status == 200, created.body
    volume = cinder.create(volume_type="multi")["id"]
    first = create(cinder, volume, connector=CONNECTOR)
    assert complete(cinder, first["id"]).status == 204
    second = create(cinder, volume, instance_uuid=MISSING, connector=CONNECTOR)
    assert second["status"] == "attaching"
    assert cinder.show(volume)["status"] == "attaching"


def test_duplicate_connectors_are_a_conflict(cinder):
    volume = cinder.create()["id"]
    first = create(cinder, volume, connector=CONNECTOR)
    assert complete(cinder, first["id"]).status == 204
    second = create(cinder, volume)  # the same instance, in-use: allowed
    result = cinder.put("/attachments/" + second["id"], {"attachment": {"connector": CONNECTOR}})
    assert result.status == 409
    assert message(result) == (
        "Resource conflict: duplicate connectors detected on volume %s" % volume
    )
    assert first["id"] != second["id"]


def test_a_volume_in_error_is_refused(cinder):
    volume = cinder.create()["id"]
    attachment = create(cinder, volume)
    reset = cinder.post(
        "/volumes/%s/action" % volume, {"os-reset_status": {"status": "error"}}, user="admin"
    )
    assert reset.status == 202, reset.body
    result = create(cinder, volume, expect=400)
    assert message(result) == (
        "Invalid volume: Volume attachments can not be created if the volume is in an error"
        " state. The Volume %s currently has a status of: error " % volume
    )
    result = cinder.put(
        "/attachments/" + attachment["id"], {"attachment": {"connector": CONNECTOR}}
    )
    assert result.status == 409
    assert message(result).startswith(
        "Resource conflict: Volume attachments can not be updated if the volume is in an error"
    )


def test_delete_frees_the_volume_and_answers_the_rest(cinder):
    volume = cinder.create()["id"]
    attachment = create(cinder, volume, connector=CONNECTOR)
    assert complete(cinder, attachment["id"]).status == 204
    result = cinder.delete("/attachments/" + attachment["id"])
    assert result.status == 200, result.body
    assert result.json() == {"attachments": []}
    shown = cinder.show(volume)
    assert (shown["status"], shown["attachments"]) == ("available", [])
    assert cinder.get("/attachments/" + attachment["id"]).status == 404


def test_delete_of_one_leaves_the_status_the_others_give(cinder):
    volume = cinder.create()["id"]
    first = create(cinder, volume, connector=CONNECTOR)
    assert complete(cinder, first["id"]).status == 204
    second = create(cinder, volume)
    assert cinder.show(volume)["status"] == "in-use"
    left = cinder.delete("/attachments/" + first["id"]).json()["attachments"]
    assert [a["id"] for a in left] == [second["id"]]
    assert cinder.show(volume)["status"] == "reserved"


def test_bad_bodies_and_versions(cinder):
    volume = cinder.create()["id"]
    assert create(cinder, volume, expect=404, version="3.26").status == 404
    assert create(cinder, MISSING, expect=404).status == 404
    bad = cinder.post("/attachments", {"attachment": {"volume_uuid": volume, "x": 1}})
    assert bad.status == 400
    attachment = create(cinder, volume)
    empty = cinder.put("/attachments/" + attachment["id"], {"attachment": {"connector": {}}})
    assert empty.status == 400
    assert complete(cinder, attachment["id"], version="3.43").status == 404
    other = cinder.post("/attachments/%s/action" % attachment["id"], {"os-x": None})
    assert (other.status, message(other)) == (
        400,
        "There is no such action: os-x. Verify the request body and Content-Type header and try"
        " again.",
    )
    two = cinder.post(
        "/attachments/%s/action" % attachment["id"], {"os-complete": None, "os-x": None}
    )
    assert (two.status, message(two)) == (400, "Malformed request body")


def test_list_filters_pages_and_projects(cinder):
    volume = cinder.create()["id"]
    first = create(cinder, volume)
    second = create(cinder, volume)
    listed = cinder.get("/attachments").json()["attachments"]
    assert [a["id"] for a in listed] == [second["id"], first["id"]]
    assert set(listed[0]) == {"id", "status", "instance", "volume_id"}
    detail = cinder.get("/attachments/detail?limit=1").json()["attachments"]
    assert [a["id"] for a in detail] == [second["id"]]
    assert "connection_info" in detail[0]
    paged = cinder.get("/attachments?marker=" + second["id"]).json()["attachments"]
    assert [a["id"] for a in paged] == [first["id"]]
    by_status = cinder.get("/attachments?status=attached").json()["attachments"]
    assert by_status == []
    # another project sees none of them and cannot touch one
    assert cinder.get("/attachments", user="alt").json()["attachments"] == []
    assert cinder.get("/attachments/" + first["id"], user="alt").status == 404
    assert cinder.delete("/attachments/" + first["id"], user="alt").status == 404
    assert complete(cinder, first["id"], user="alt").status == 404
    every = cinder.get("/attachments?all_tenants=1", user="admin").json()["attachments"]
    assert {first["id"], second["id"]} <= {a["id"] for a in every}
    # an admin narrows every project's to one project's volumes
    mine = "/attachments?all_tenants=1&project_id=" + cinder.projects["demo"]
    assert len(cinder.get(mine, user="admin").json()["attachments"]) == 2
    other = "/attachments?all_tenants=1&project_id=" + cinder.projects["alt"]
    assert cinder.get(other, user="admin").json()["attachments"] == []


def test_nova_attaches_through_the_attachments(cinder):
    server = cinder.server()
    volume = cinder.create()["id"]
    assert cinder.attach(server, volume).status == 200
    found = cinder.get("/attachments/detail?volume_id=" + volume).json()["attachments"]
    assert len(found) == 1
    assert (found[0]["status"], found[0]["instance"]) == ("attached", server)
    assert found[0]["connection_info"]["attachment_id"] == found[0]["id"]
    assert cinder.show(volume)["status"] == "in-use"
    # Nova still uses it: Cinder's bug #2004555 refusal
    result = cinder.delete("/attachments/" + found[0]["id"])
    assert result.status == 409
    assert message(result) == (
        "ConflictNovaUsingAttachment: Detach volume from instance %s using the Compute"
        " API" % server
    )
    detached = cinder.nova("DELETE", "/servers/%s/os-volume_attachments/%s" % (server, volume))
    assert detached.status == 202, detached.body
    assert cinder.get("/attachments?volume_id=" + volume).json()["attachments"] == []
    assert cinder.show(volume)["status"] == "available"
