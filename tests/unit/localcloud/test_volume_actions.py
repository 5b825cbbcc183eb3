"""Cinder's volume actions in the local cloud: the legacy attach flow
(reserve, attach, begin/roll detaching, detach, unreserve), connections,
force-detach, the bootable and read-only flags and the image metadata,
each with Cinder's refusals."""

import pytest

from tests.unit.localcloud.volume_harness import CIRROS
from tests.unit.localcloud.volume_harness import MISSING
from tests.unit.localcloud.volume_harness import cinder_cloud
from tests.unit.localcloud.volume_harness import message

cinder = pytest.fixture(cinder_cloud, name="cinder")

SERVER = "11111111-2222-4333-8444-555555555555"
NOVA_USING = "ConflictNovaUsingAttachment: Detach volume from instance %s using the Compute API"


def act(cinder, volume_id, name, value=None, user="demo", expect=202):
    result = cinder.post("/volumes/%s/action" % volume_id, {name: value}, user=user)
    assert result.status == expect, result.body
    return result


def attached(cinder, **attach):
    volume = cinder.create()["id"]
    act(cinder, volume, "os-reserve")
    attach.setdefault("instance_uuid", SERVER)
    act(cinder, volume, "os-attach", dict({"mountpoint": "/dev/vdc"}, **attach))
    return volume


def test_reserve_attach_detach(cinder):
    volume = cinder.create()["id"]
    act(cinder, volume, "os-reserve")
    assert cinder.show(volume)["status"] == "attaching"
    act(cinder, volume, "os-attach", {"instance_uuid": SERVER, "mountpoint": "/dev/vdc"})
    shown = cinder.show(volume)
    assert shown["status"] == "in-use"
    assert [(a["server_id"], a["device"]) for a in shown["attachments"]] == [(SERVER, "/dev/vdc")]
    act(cinder, volume, "os-begin_detaching")
    assert cinder.show(volume)["status"] == "detaching"
    act(cinder, volume, "os-roll_detaching")
    assert cinder.show(volume)["status"] == "in-use"
    act(cinder, volume, "os-detach", {"attachment_id": None})
    shown = cinder.show(volume)
    assert (shown["status"], shown["attachments"]) == ("available", [])


def test_attach_shows_the_visible_admin_metadata(cinder):
    """As Cinder 29 (cinder-29-actions.json's show_in_use, show_detached,
    show_flags): os-attach adds ``readonly: 'False'`` and the mode to the
    volume's metadata, a detach takes the mode away, the flag shows; the
    metadata API keeps the user's keys only."""
    volume = cinder.create(metadata={"k": "v"})["id"]
    assert cinder.show(volume)["metadata"] == {"k": "v"}
    act(cinder, volume, "os-reserve")
    act(cinder, volume, "os-attach", {"instance_uuid": SERVER, "mountpoint": "/dev/vdc"})
    in_use = {"k": "v", "readonly": "False", "attached_mode": "rw"}
    assert cinder.show(volume)["metadata"] == in_use
    listed = cinder.get("/volumes/detail").json()["volumes"]
    assert [v["metadata"] for v in listed if v["id"] == volume] == [in_use]
    assert cinder.get("/volumes/%s/metadata" % volume).json()["metadata"] == {"k": "v"}
    act(cinder, volume, "os-detach", {"attachment_id": None})
    assert cinder.show(volume)["metadata"] == {"k": "v", "readonly": "False"}
    act(cinder, volume, "os-update_readonly_flag", {"readonly": True})
    assert cinder.show(volume)["metadata"] == {"k": "v", "readonly": "True"}


def test_unreserve_goes_back(cinder):
    volume = cinder.create()["id"]
    act(cinder, volume, "os-reserve")
    act(cinder, volume, "os-unreserve")
    assert cinder.show(volume)["status"] == "available"
    # not reserved: nothing to do
    act(cinder, volume, "os-unreserve")
    assert cinder.show(volume)["status"] == "available"


def test_reserve_and_begin_detaching_refusals(cinder):
    volume = attached(cinder)
    result = act(cinder, volume, "os-reserve", expect=400)
    assert message(result) == (
        "Invalid volume: Volume status must be available to reserve, but the status is in-use."
    )
    free = cinder.create()["id"]
    result = act(cinder, free, "os-begin_detaching", expect=400)
    assert message(result) == (
        "Invalid volume: Unable to detach volume. Volume status must be 'in-use' and"
        " attach_status must be 'attached' to detach."
    )


def test_attach_refusals(cinder):
    volume = attached(cinder)
    # the same instance again: nothing new
    act(cinder, volume, "os-attach", {"instance_uuid": SERVER, "mountpoint": "/dev/vdc"})
    assert len(cinder.get("/attachments?volume_id=" + volume).json()["attachments"]) == 1
    result = act(
        cinder, volume, "os-attach", {"instance_uuid": MISSING, "mountpoint": "/dev/vdd"},
        expect=400,
    )  # fmt: skip
    assert message(result) == (
        "Error attaching volume - InvalidVolume: Invalid volume: volume is already attached"
        " and multiple attachments are not enabled"
    )
    # mountpoint, and an instance or a host, are required
    free = cinder.create()["id"]
    act(cinder, free, "os-attach", {"instance_uuid": SERVER}, expect=400)
    act(cinder, free, "os-attach", {"mountpoint": "/dev/vdb"}, expect=400)


def test_readonly_flag_and_attach_mode(cinder):
    volume = cinder.create()["id"]
    act(cinder, volume, "os-update_readonly_flag", {"readonly": True})
    result = act(
        cinder, volume, "os-attach", {"host_name": "h1", "mountpoint": "/dev/vdb"}, expect=400
    )
    assert message(result) == (
        "Error attaching volume - InvalidVolumeAttachMode: Invalid attaching mode 'rw' for"
        " volume %s." % volume
    )
    act(cinder, volume, "os-attach", {"host_name": "h2", "mountpoint": "/dev/vdb", "mode": "ro"})
    info = act(cinder, volume, "os-initialize_connection", {"connector": {}}, expect=200)
    assert info.json()["connection_info"]["data"]["access_mode"] == "ro"
    result = act(cinder, volume, "os-update_readonly_flag", {"readonly": False}, expect=400)
    assert message(result) == (
        "Invalid volume: Volume %s status must be available to update readonly flag, but"
        " current status is: in-use." % volume
    )
    act(cinder, volume, "os-update_readonly_flag", {"readonly": "maybe"}, expect=400)


def test_detach_needs_the_attachment_when_several(cinder):
    created = cinder.post(
        "/types",
        {"volume_type": {"name": "multi", "extra_specs": {"multiattach": "<is> True"}}},
        user="admin",
    )
    assert created.status == 200, created.body
    volume = cinder.create(volume_type="multi")["id"]
    act(cinder, volume, "os-attach", {"instance_uuid": SERVER, "mountpoint": "/dev/vdb"})
    act(cinder, volume, "os-attach", {"instance_uuid": MISSING, "mountpoint": "/dev/vdb"})
    result = act(cinder, volume, "os-detach", {}, expect=409)
    assert message(result) == NOVA_USING % ""
    # reserved again (multiattach), attached in another mode than the first
    act(cinder, volume, "os-reserve")
    result = act(
        cinder, volume, "os-attach", {"host_name": "h", "mountpoint": "/dev/vdb", "mode": "ro"},
        expect=400,
    )  # fmt: skip
    assert message(result) == (
        "Error attaching volume - InvalidVolume: Invalid volume: being attached by different mode"
    )
    act(cinder, volume, "os-unreserve")
    first = cinder.get("/attachments?instance_id=" + SERVER).json()["attachments"][0]
    act(cinder, volume, "os-detach", {"attachment_id": first["id"]})
    assert cinder.show(volume)["status"] == "in-use"


def test_connections(cinder):
    volume = cinder.create()["id"]
    result = act(
        cinder, volume, "os-initialize_connection", {"connector": {"host": "h"}}, expect=200
    )
    info = result.json()["connection_info"]
    assert info["driver_volume_type"] == "iscsi"
    assert info["data"]["access_mode"] == "rw"
    assert info["enforce_multipath"] is False
    act(cinder, volume, "os-initialize_connection", {}, expect=400)
    act(cinder, volume, "os-reserve")
    act(cinder, volume, "os-terminate_connection", {"connector": {"host": "h"}})
    assert cinder.show(volume)["status"] == "available"


def test_a_nova_attachment_is_detached_through_nova(cinder):
    server = cinder.server()
    volume = cinder.create()["id"]
    assert cinder.attach(server, volume).status == 200
    result = act(cinder, volume, "os-detach", {}, expect=409)
    assert message(result) == NOVA_USING % server
    act(cinder, volume, "os-terminate_connection", {"connector": None}, expect=409)
    act(cinder, volume, "os-force_detach", {}, user="admin", expect=409)
    assert cinder.show(volume)["status"] == "in-use"


def test_force_detach_is_an_admins(cinder):
    volume = attached(cinder)
    result = act(cinder, volume, "os-force_detach", {}, expect=403)
    assert "volume_extension:volume_admin_actions:force_detach" in message(result)
    # another project's volume is not found before the policy
    act(cinder, volume, "os-force_detach", {}, user="alt", expect=404)
    act(cinder, volume, "os-force_detach", {"attachment_id": None}, user="admin")
    assert cinder.show(volume)["status"] == "available"


def test_set_bootable(cinder):
    volume = cinder.create()["id"]
    act(cinder, volume, "os-set_bootable", {"bootable": "true"}, expect=200)
    assert cinder.show(volume)["bootable"] == "true"
    act(cinder, volume, "os-set_bootable", {"bootable": False}, expect=200)
    assert cinder.show(volume)["bootable"] == "false"
    act(cinder, volume, "os-set_bootable", {"bootable": "sometimes"}, expect=400)
    act(cinder, volume, "os-set_bootable", {"bootable": True}, user="alt", expect=404)


def test_image_metadata(cinder):
    volume = cinder.create(imageRef=CIRROS)["id"]
    shown = act(cinder, volume, "os-show_image_metadata", expect=200).json()["metadata"]
    assert shown["image_id"] == CIRROS
    result = act(
        cinder, volume, "os-set_image_metadata", {"metadata": {"hw_disk_bus": "scsi"}}, expect=200
    )
    assert result.json()["metadata"]["hw_disk_bus"] == "scsi"
    assert result.json()["metadata"]["image_id"] == CIRROS
    assert cinder.show(volume)["volume_image_metadata"]["hw_disk_bus"] == "scsi"
    act(cinder, volume, "os-unset_image_metadata", {"key": "hw_disk_bus"}, expect=200)
    assert "hw_disk_bus" not in cinder.show(volume)["volume_image_metadata"]
    result = act(cinder, volume, "os-unset_image_metadata", {"key": "nope"}, expect=404)
    assert message(result) == "Glance metadata for volume/snapshot %s cannot be found." % volume
    act(cinder, volume, "os-set_image_metadata", {"metadata": {"k": 1}}, expect=400)


def test_image_metadata_refused_while_uploading(cinder):
    volume = cinder.create(imageRef=CIRROS)["id"]
    reset = act(cinder, volume, "os-reset_status", {"status": "uploading"}, user="admin")
    assert reset.status == 202
    result = act(cinder, volume, "os-set_image_metadata", {"metadata": {"k": "v"}}, expect=400)
    assert message(result) == (
        "Invalid volume: Updating volume metadata is not allowed for volumes in uploading status."
    )
    result = act(cinder, volume, "os-unset_image_metadata", {"key": "image_id"}, expect=400)
    assert message(result) == (
        "Invalid volume: Deleting volume metadata is not allowed for volumes in uploading status."
    )


def test_maintenance_refusals(cinder):
    volume = cinder.create()["id"]
    act(cinder, volume, "os-reset_status", {"status": "maintenance"}, user="admin")
    result = act(
        cinder, volume, "os-attach", {"host_name": "h", "mountpoint": "/dev/vdb"}, expect=400
    )
    assert message(result) == "Invalid volume: The volume cannot be attached in maintenance mode."
    result = act(cinder, volume, "os-set_bootable", {"bootable": True}, expect=400)
    assert message(result) == "Invalid volume: The volume cannot be updated during maintenance."
    result = act(cinder, volume, "os-initialize_connection", {"connector": {}}, expect=400)
    assert message(result) == (
        "Invalid volume: The volume connection cannot be initialized in maintenance mode."
    )


def test_an_unknown_action_is_refused(cinder):
    volume = cinder.create()["id"]
    result = act(cinder, volume, "os-nothing", expect=400)
    assert message(result) == (
        "There is no such action: os-nothing. Verify the request body and Content-Type header"
        " and try again."
    )
