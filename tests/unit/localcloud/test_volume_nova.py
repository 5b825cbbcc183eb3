"""Nova's side of volumes in the local cloud: ``os-volume_attachments``,
block device mappings with real volumes and snapshots, what a server
delete does to its volumes, and the adoption of pre-Cinder data."""

import pytest

from tests.unit.localcloud.volume_harness import CIRROS
from tests.unit.localcloud.volume_harness import MISSING
from tests.unit.localcloud.volume_harness import Cinder
from tests.unit.localcloud.volume_harness import cinder_cloud
from tests.unit.localcloud.volume_harness import make_cloud
from tests.unit.localcloud.volume_harness import message

cinder = pytest.fixture(cinder_cloud, name="cinder")
ATTACHMENTS = "/servers/%s/os-volume_attachments"


def _volume(cinder, user="demo", **extra):
    created = cinder.create(user=user, **extra)
    cinder.show(created["id"], user=user)
    return created["id"]


def _server(cinder, user="demo", **extra):
    server = cinder.server(user=user, **extra)
    cinder.show_server(server, user=user)
    return server


def test_attach_and_detach(cinder):
    server, first, second = _server(cinder), _volume(cinder), _volume(cinder)
    result = cinder.attach(server, first, tag="data", delete_on_termination=True)
    assert result.status == 200
    assert result.json()["volumeAttachment"] == {
        "id": first,
        "serverId": server,
        "volumeId": first,
        "device": "/dev/vdb",
        "tag": "data",
        "delete_on_termination": True,
    }
    assert cinder.attach(server, second).json()["volumeAttachment"]["device"] == "/dev/vdc"
    volume = cinder.show(first)
    assert volume["status"] == "in-use"
    assert [(a["server_id"], a["device"]) for a in volume["attachments"]] == [(server, "/dev/vdb")]
    shown = cinder.show_server(server)
    assert shown["os-extended-volumes:volumes_attached"] == [
        {"id": first, "delete_on_termination": True},
        {"id": second, "delete_on_termination": False},
    ]
    old = cinder.show_server(server, version="2.1")["os-extended-volumes:volumes_attached"]
    assert old == [{"id": first}, {"id": second}]
    assert cinder.nova("DELETE", (ATTACHMENTS % server) + "/" + first).status == 202
    assert cinder.show(first)["status"] == "available"
    assert cinder.show(first)["attachments"] == []
    gone = cinder.nova("GET", (ATTACHMENTS % server) + "/" + first)
    assert (gone.status, message(gone)) == (
        404,
        "Instance %s is not attached to volume %s" % (server, first),
    )


def test_attachment_views_follow_the_microversion(cinder):
    server, volume = _server(cinder), _volume(cinder)
    cinder.attach(server, volume, version="2.49", tag="t")
    path = ATTACHMENTS % server

    def listed(version):
        return cinder.nova("GET", path, version=version).json()["volumeAttachments"][0]

    assert set(listed("2.1")) == {"id", "volumeId", "serverId", "device"}
    assert listed("2.70")["tag"] == "t"
    assert listed("2.79")["delete_on_termination"] is False
    at_289 = listed("2.89")
    assert "id" not in at_289 and {"attachment_id", "bdm_uuid"} <= set(at_289)
    attachment = cinder.get("/attachments?volume_id=" + volume).json()["attachments"][0]
    assert at_289["attachment_id"] == attachment["id"]
    shown = cinder.nova("GET", path + "/" + volume, version="2.79").json()["volumeAttachment"]
    assert shown["volumeId"] == volume and shown["tag"] == "t"
    assert cinder.nova("GET", path + "?limit=0").json()["volumeAttachments"] == []
    assert cinder.nova("GET", path + "?colour=1", version="2.75").status == 400


def test_tag_and_delete_on_termination_need_their_microversions(cinder):
    server, volume = _server(cinder), _volume(cinder)
    assert cinder.attach(server, volume, version="2.48", tag="t").status == 400
    too_old = cinder.attach(server, volume, version="2.78", delete_on_termination=True)
    assert too_old.status == 400
    assert cinder.attach(server, volume, device="sdb").status == 400


def test_attach_refusals(cinder):
    server, volume = _server(cinder), _volume(cinder)
    missing = cinder.attach(server, MISSING)
    assert (missing.status, message(missing)) == (404, "Volume %s could not be found." % MISSING)
    theirs = _volume(cinder, user="alt")
    assert cinder.attach(server, theirs).status == 404
    assert cinder.attach(server, volume).status == 200
    again = cinder.attach(server, volume)
    assert (again.status, message(again)) == (
        400,
        "Invalid volume: volume %s is already attached to instances: %s" % (volume, server),
    )
    other = _server(cinder)
    assert cinder.attach(other, volume).status == 400
    used = cinder.attach(server, _volume(cinder), device="/dev/vdb")
    assert (used.status, message(used)) == (409, "The supplied device path (/dev/vdb) is in use.")
    alt_server = _server(cinder, user="alt")
    assert cinder.attach(alt_server, _volume(cinder)).status == 404


def test_attach_states(tmp_path, clock):
    cloud = make_cloud(tmp_path / "slow", build_time=10)
    try:
        slow = Cinder(cloud)
        server = slow.server()
        volume = slow.create()["id"]
        building = slow.attach(server, volume)
        assert (building.status, message(building)) == (
            409,
            "Cannot 'attach_volume' instance %s while it is in vm_state building" % server,
        )
        clock.advance(11)
        # a volume copied from an image takes the build time (a blank one
        # is made at once)
        creating = slow.create(imageRef=CIRROS)["id"]
        refused = slow.attach(server, creating)
        assert (refused.status, message(refused)) == (
            400,
            "Invalid volume: Volume %s status must be available or downloading to reserve, but"
            " the current status is creating." % creating,
        )
    finally:
        cloud.close()


def test_update_and_swap(cinder):
    server, volume, other = _server(cinder), _volume(cinder), _volume(cinder)
    cinder.attach(server, volume)
    path = (ATTACHMENTS % server) + "/" + volume

    def put(body, **kw):
        return cinder.nova("PUT", path, {"volumeAttachment": body}, **kw)

    assert put({"volumeId": volume, "delete_on_termination": True}, version="2.85").status == 202
    shown = cinder.nova("GET", path).json()["volumeAttachment"]
    assert shown["delete_on_termination"] is True
    immutable = put({"volumeId": volume, "device": "/dev/vdz"}, version="2.85")
    assert (immutable.status, message(immutable)) == (400, "The device property is not mutable")
    swap = put({"volumeId": other}, version="2.84")
    assert (swap.status, message(swap)) == (
        403,
        "Policy doesn't allow os_compute_api:os-volumes-attachments:swap to be performed.",
    )
    as_admin = put({"volumeId": other}, version="2.84", user="admin")
    assert (as_admin.status, message(as_admin)) == (
        409,
        "volume %s is not migrating; this API should only be called by Cinder" % volume,
    )


def test_detach_refusals(cinder):
    server, volume = _server(cinder), _volume(cinder)
    path = (ATTACHMENTS % server) + "/"
    assert cinder.nova("DELETE", path + MISSING).status == 404
    unattached = cinder.nova("DELETE", path + volume)
    assert (unattached.status, message(unattached)) == (
        404,
        "Instance %s is not attached to volume %s" % (server, volume),
    )
    cinder.attach(server, volume)
    assert cinder.nova("POST", "/servers/%s/action" % server, {"lock": None}).status == 202
    locked = cinder.nova("DELETE", path + volume)
    assert (locked.status, message(locked)) == (409, "Instance %s is locked" % server)
    assert cinder.nova("DELETE", path + volume, user="admin").status == 202


def test_boot_from_image_volume_and_delete_on_termination(cinder):
    bdm = {
        "uuid": CIRROS,
        "source_type": "image",
        "destination_type": "volume",
        "boot_index": 0,
        "volume_size": 1,
        "delete_on_termination": True,
    }
    server = _server(cinder, imageRef=None, block_device_mapping_v2=[bdm])
    shown = cinder.show_server(server)
    assert shown["image"] == ""
    [attached] = shown["os-extended-volumes:volumes_attached"]
    volume = cinder.show(attached["id"])
    assert (volume["status"], volume["bootable"]) == ("in-use", "true")
    assert volume["attachments"][0]["device"] == "/dev/vda"
    root = cinder.nova("DELETE", (ATTACHMENTS % server) + "/" + attached["id"])
    assert (root.status, message(root)) == (400, "Cannot detach a root device volume")
    assert cinder.nova("DELETE", "/servers/" + server).status == 204
    assert cinder.get("/volumes/" + attached["id"]).status == 404


def test_boot_from_existing_volume_keeps_it(cinder):
    volume = _volume(cinder, imageRef=CIRROS)
    bdm = {"uuid": volume, "source_type": "volume", "destination_type": "volume", "boot_index": 0}
    server = _server(cinder, imageRef=None, block_device_mapping_v2=[bdm])
    assert cinder.show(volume)["status"] == "in-use"
    assert cinder.nova("DELETE", "/servers/" + server).status == 204
    assert cinder.show(volume)["status"] == "available"
    in_use_server = _server(cinder, imageRef=None, block_device_mapping_v2=[bdm])
    refused = cinder.nova(
        "POST",
        "/servers",
        {
            "server": {
                "name": "b",
                "flavorRef": "1",
                "networks": "none",
                "block_device_mapping_v2": [bdm],
            }
        },
    )
    assert refused.status == 400
    assert message(refused).startswith("Invalid volume: Volume %s status must be" % volume)
    del in_use_server


def test_boot_volume_checks(cinder):
    def create(bdm):
        body = {"server": {"name": "b", "flavorRef": "1", "networks": "none"}}
        body["server"]["block_device_mapping_v2"] = [bdm]
        return cinder.nova("POST", "/servers", body)

    base = {"source_type": "volume", "destination_type": "volume", "boot_index": 0}
    missing = create(dict(base, uuid=MISSING))
    assert message(missing) == (
        "Block Device Mapping is Invalid: failed to get volume %s." % MISSING
    )
    theirs = _volume(cinder, user="alt", imageRef=CIRROS)
    assert create(dict(base, uuid=theirs)).status == 400
    blank = _volume(cinder)
    not_bootable = create(dict(base, uuid=blank))
    assert message(not_bootable) == "Block Device %s is not bootable." % blank
    snapshot = dict(base, uuid=MISSING, source_type="snapshot")
    assert message(create(snapshot)) == (
        "Block Device Mapping is Invalid: failed to get snapshot %s." % MISSING
    )


def test_boot_from_snapshot_creates_a_volume(cinder):
    volume = _volume(cinder, imageRef=CIRROS, size=2)
    snap = cinder.snapshot(volume)
    cinder.get("/snapshots/" + snap["id"])
    bdm = {
        "uuid": snap["id"],
        "source_type": "snapshot",
        "destination_type": "volume",
        "boot_index": 0,
    }
    server = _server(cinder, imageRef=None, block_device_mapping_v2=[bdm])
    [attached] = cinder.show_server(server)["os-extended-volumes:volumes_attached"]
    created = cinder.show(attached["id"])
    assert (created["snapshot_id"], created["size"], created["bootable"]) == (
        snap["id"],
        2,
        "true",
    )
    # delete_on_termination false: the volume stays, detached
    cinder.nova("DELETE", "/servers/" + server)
    assert cinder.show(attached["id"])["status"] == "available"


def test_a_cinder_refusal_fails_the_build(cinder):
    demo = cinder.projects["demo"]
    body = {"quota_set": {"volumes": 0}}
    assert cinder.put("/os-quota-sets/" + demo, body, user="admin", project=False).status == 200
    bdm = {
        "uuid": CIRROS,
        "source_type": "image",
        "destination_type": "volume",
        "boot_index": 0,
        "volume_size": 1,
    }
    server = cinder.server(imageRef=None, block_device_mapping_v2=[bdm])
    shown = cinder.show_server(server)
    assert shown["status"] == "ERROR"
    # Cinder's fault middleware names the exception class in the message
    # Nova gets back (cinder/api/middleware/fault.py, a safe exception)
    assert shown["fault"]["message"] == (
        "Build of instance %s aborted: VolumeLimitExceeded: Maximum number of volumes"
        " allowed (0) exceeded for quota 'volumes'." % server
    )
    assert cinder.get("/volumes").json()["volumes"] == []


def test_volumes_of_older_data_are_adopted(tmp_path):
    """Servers made before the volume service existed keep their volumes:
    a migration gives each listed id a volume, in-use, attached."""
    from tests.unit.localcloud.compute_harness import make_cloud as compute_cloud

    data = tmp_path / "data"
    old = compute_cloud(data)
    try:
        from tests.unit.localcloud.compute_harness import Nova

        nova = Nova(old)
        bdm = {
            "uuid": MISSING,
            "source_type": "volume",
            "destination_type": "volume",
            "boot_index": 1,
        }
        server = nova.create(networks="none", version="2.96", block_device_mapping_v2=[
            {"uuid": CIRROS, "source_type": "image", "destination_type": "local",
             "boot_index": 0}, bdm])  # fmt: skip
    finally:
        old.close()
    new = make_cloud(data)
    try:
        cinder = Cinder(new)
        volume = cinder.show(MISSING)
        assert volume["status"] == "in-use"
        assert volume["attachments"][0]["server_id"] == server
        assert cinder.nova("DELETE", (ATTACHMENTS % server) + "/" + MISSING).status == 202
        assert cinder.show(MISSING)["status"] == "available"
    finally:
        new.close()
