"""Local cloud: ``createImage`` and ``createBackup`` as nova makes them
(image properties, queued → active with the server's operation, rotation,
the 2.45 answer, state and volume-backed refusals)."""

from tests.unit.localcloud.compute_harness import CIRROS
from tests.unit.localcloud.compute_harness import fault


def _image(nova, image_id, user="demo"):
    return nova.client.get("/image/v2/images/" + image_id, token=nova.tokens[user])


def _images(nova, query="", user="demo"):
    result = nova.client.get("/image/v2/images" + query, token=nova.tokens[user])
    return result.json()["images"]


def _backup(nova, server_id, name, rotation, backup_type="daily", version="2.45", **extra):
    body = {"name": name, "backup_type": backup_type, "rotation": rotation, **extra}
    return nova.action(server_id, {"createBackup": body}, version=version)


def test_snapshot_is_queued_then_active_with_nova_properties(slow_nova, clock):
    server_id = slow_nova.create(metadata={"role": "web"})
    clock.advance(11)
    slow_nova.show(server_id)
    answer = slow_nova.action(
        server_id, {"createImage": {"name": "snap", "metadata": {"k": "v"}}}, version="2.45"
    )
    assert answer.status == 202
    image_id = answer.json()["image_id"]
    shown = slow_nova.show(server_id, version="2.45")
    assert shown["OS-EXT-STS:task_state"] == "image_snapshot_pending"
    queued = _image(slow_nova, image_id).json()
    assert queued["status"] == "queued" and queued["size"] is None
    assert queued["disk_format"] is None and queued["container_format"] is None
    assert [i["id"] for i in _images(slow_nova, "?status=queued")] == [image_id]
    clock.advance(11)
    active = _image(slow_nova, image_id).json()
    assert active["status"] == "active" and active["size"] > 0
    assert active["name"] == "snap"
    assert active["visibility"] == "private"
    assert active["owner"] == slow_nova.project_id("demo")
    # nova's properties: the base image's, then its own, then the request's
    assert active["os_distro"] == "cirros" and active["base_image_ref"] == CIRROS
    assert active["image_type"] == "snapshot" and active["instance_uuid"] == server_id
    assert (active["owner_project_name"], active["owner_user_name"]) == ("demo", "demo")
    assert active["k"] == "v" and "role" not in active
    assert active["min_disk"] >= 1
    assert slow_nova.show(server_id)["OS-EXT-STS:task_state"] is None
    assert [i["id"] for i in _images(slow_nova, "?status=active") if i["id"] == image_id]


def test_admin_snapshot_of_a_member_server_is_shared(nova):
    server_id = nova.create()
    image_id = nova.action(
        server_id, {"createImage": {"name": "by-admin"}}, user="admin", version="2.45"
    ).json()["image_id"]
    image = _image(nova, image_id, user="admin").json()
    assert image["visibility"] == "shared"
    assert image["instance_owner"] == nova.project_id("demo")
    assert image["owner"] == nova.project_id("admin")
    assert (image["owner_project_name"], image["owner_user_name"]) == ("demo", "demo")
    assert image["user_id"] != image["owner"]


def test_snapshot_location_before_2_45_and_state_conflict(nova):
    server_id = nova.create()
    old = nova.action(server_id, {"createImage": {"name": "s"}}, version="2.44")
    assert old.status == 202 and old.body == b""
    assert "/image/v2/images/" in old.header("Location")
    with nova.cloud.store.transaction() as db:
        db.execute("UPDATE servers SET vm_state = 'error' WHERE id = ?", (server_id,))
    assert fault(nova.action(server_id, {"createImage": {"name": "x"}})) == (
        "conflictingRequest",
        409,
        "Cannot 'createImage' instance %s while it is in vm_state error" % server_id,
    )


def test_backup_rotation_keeps_the_newest(nova, clock):
    server_id = nova.create()
    ids = []
    for index in range(3):
        clock.advance(2)
        answer = _backup(nova, server_id, "b%d" % index, 2)
        assert answer.status == 202, answer.body
        ids.append(answer.json()["image_id"])
    kept = {i["id"] for i in _images(nova) if i.get("image_type") == "backup"}
    assert kept == set(ids[1:])
    image = _image(nova, ids[-1]).json()
    assert (image["backup_type"], image["image_type"]) == ("daily", "backup")
    # another type rotates apart; rotation 0 deletes every backup of its type
    weekly = _backup(nova, server_id, "w", 1, backup_type="weekly").json()["image_id"]
    assert _backup(nova, server_id, "d0", 0).status == 202
    left = {i["id"] for i in _images(nova) if i.get("image_type") == "backup"}
    assert left == {weekly}


def test_backup_answers_and_checks(nova):
    server_id = nova.create()
    old = _backup(nova, server_id, "b", 1, version="2.44")
    (backup,) = [i for i in _images(nova) if i.get("image_type") == "backup"]
    assert old.status == 202 and old.header("Location").endswith(
        "/compute/v2.1/images/%s" % backup["id"]
    )
    # rotation 0 before 2.45: no Location (nova builds it only for a rotation)
    assert _backup(nova, server_id, "b", 0, version="2.44").header("Location") is None
    assert fault(_backup(nova, server_id, "b", -1)) == (
        "badRequest",
        400,
        "Invalid input for field/attribute rotation. Value: -1. -1 is less than the minimum of 0",
    )
    missing = nova.action(server_id, {"createBackup": {"name": "b", "backup_type": "daily"}})
    assert fault(missing)[2].endswith("'rotation' is a required property")
    volume_backed = nova.create(
        imageRef="",
        block_device_mapping_v2=[
            {
                "boot_index": 0,
                "uuid": CIRROS,
                "source_type": "image",
                "destination_type": "volume",
                "volume_size": 1,
            }
        ],
    )
    assert fault(_backup(nova, volume_backed, "b", 1)) == (
        "badRequest",
        400,
        "Backup is not supported for volume-backed instances.",
    )
    snap = nova.action(volume_backed, {"createImage": {"name": "bfv"}}, version="2.45")
    image = _image(nova, snap.json()["image_id"]).json()
    assert (image["status"], image["size"], image["bdm_v2"]) == ("active", 0, True)


def test_backup_policy_member_and_reader(nova):
    """nova's os_compute_api:os-create-backup is member-or-admin."""
    server_id = nova.create()
    assert _backup(nova, server_id, "b", 1).status == 202
    other = nova.create(user="admin")
    assert _backup(nova, other, "b", 1).status == 404


def test_volume_backed_snapshot_maps_cinder_snapshots(tmp_path):
    """With a volume service the boot volume is snapshotted (forced: it is
    in use) and the image maps that snapshot, as nova's
    snapshot_volume_backed."""
    import json

    from tests.unit.localcloud.volume_harness import Cinder
    from tests.unit.localcloud.volume_harness import make_cloud

    cloud = make_cloud(tmp_path / "data")
    try:
        cinder = Cinder(cloud)
        volume = cinder.create(size=2, imageRef=CIRROS)["id"]
        cinder.show(volume)
        bdm = {"uuid": volume, "source_type": "volume", "destination_type": "volume"}
        server = cinder.server(imageRef=None, block_device_mapping_v2=[dict(bdm, boot_index=0)])
        cinder.show_server(server)
        answer = cinder.nova(
            "POST", "/servers/%s/action" % server, {"createImage": {"name": "bfv-snap"}}
        )
        assert answer.status == 202, answer.body
        image = cinder.client.get(
            "/image/v2/images/" + answer.json()["image_id"], token=cinder.tokens["demo"]
        ).json()
        (mapping,) = json.loads(image["block_device_mapping"])
        assert (mapping["source_type"], mapping["boot_index"], mapping["volume_size"]) == (
            "snapshot",
            0,
            2,
        )
        snapshot = cinder.get("/snapshots/" + mapping["snapshot_id"]).json()["snapshot"]
        assert snapshot["volume_id"] == volume and snapshot["name"] == "snapshot for bfv-snap"
        assert (image["status"], image["size"]) == ("active", 0)
    finally:
        cloud.close()
