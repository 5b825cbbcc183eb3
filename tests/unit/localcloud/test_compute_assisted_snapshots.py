"""Local cloud: ``/os-assisted-volume-snapshots`` answers as nova 34's
AssistedVolumeSnapshotsController (tests/fixtures/compute/realcloud/
nova-34-proxies.json): the schema, the admin policy (after the schema), a
volume attached to no server, and the answers for an attached one."""

import json
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.unit.localcloud.volume_harness import cinder_cloud

RECORDED = json.loads(
    (Path(__file__).parents[2] / "fixtures/compute/realcloud/nova-34-proxies.json").read_text()
)
REAL = RECORDED["exchanges"]
PATH = "/os-assisted-volume-snapshots"
cinder = pytest.fixture(cinder_cloud, name="cinder")


def _user(real):
    return "admin" if real["request"]["user"] == "admin" else "demo"


@pytest.mark.parametrize(
    "name",
    ["avs_create_not_attached", "avs_create_bad_type", "avs_create_missing", "avs_create_member"],
)
def test_create_answers_as_nova(cinder, name):
    real = REAL[name]
    answer = cinder.nova(
        "POST", PATH, real["request"]["body"], user=_user(real), version=real["request"]["version"]
    )
    assert (answer.status, answer.json()) == (real["status"], real["body"])


@pytest.mark.parametrize(
    "name",
    [
        "avs_delete_not_attached",
        "avs_delete_no_info",
        "avs_delete_bad_json",
        "avs_delete_no_volume",
        "avs_delete_extra_2.75",
        "avs_delete_member",
    ],
)
def test_delete_answers_as_nova(cinder, name):
    real = REAL[name]
    answer = cinder.nova(
        "DELETE", real["request"]["path"], user=_user(real), version=real["request"]["version"]
    )
    assert (answer.status, answer.json()) == (real["status"], real["body"])


def test_a_bad_body_is_400_before_the_policy(cinder):
    answer = cinder.nova("POST", PATH, {"snapshot": {}}, user="demo")
    assert answer.status == 400


def test_attached_volume_snapshot_create_and_delete(cinder):
    server = cinder.server()
    cinder.show_server(server)
    volume = cinder.create()["id"]
    cinder.show(volume)
    assert cinder.attach(server, volume).status == 200
    info = {"snapshot_id": str(uuid.uuid4()), "type": "qcow2", "new_file": "f.qcow2"}
    created = cinder.nova(
        "POST", PATH, {"snapshot": {"volume_id": volume, "create_info": info}}, user="admin"
    )
    # nova's answer: create_info's optional id (None without it)
    assert (created.status, created.json()) == (
        200,
        {"snapshot": {"id": None, "volumeId": volume}},
    )
    snap_id = str(uuid.uuid4())
    created = cinder.nova(
        "POST",
        PATH,
        {"snapshot": {"volume_id": volume, "create_info": dict(info, id=snap_id)}},
        user="admin",
    )
    assert created.json() == {"snapshot": {"id": snap_id, "volumeId": volume}}
    delete_info = quote(json.dumps({"volume_id": volume, "type": "qcow2"}))
    deleted = cinder.nova(
        "DELETE", PATH + "/%s?delete_info=%s" % (snap_id, delete_info), user="admin"
    )
    assert deleted.status == 204 and deleted.body == b""


def test_a_server_with_a_task_is_refused(cinder):
    server = cinder.server()
    cinder.show_server(server)
    volume = cinder.create()["id"]
    cinder.show(volume)
    assert cinder.attach(server, volume).status == 200
    with cinder.cloud.store.transaction() as db:
        db.execute("UPDATE servers SET task_state = 'rebooting' WHERE id = ?", (server,))
    info = {"snapshot_id": "s", "type": "qcow2", "new_file": "f"}
    refused = cinder.nova(
        "POST", PATH, {"snapshot": {"volume_id": volume, "create_info": info}}, user="admin"
    )
    assert (refused.status, refused.json()["badRequest"]["message"]) == (
        400,
        "Instance %s in task_state rebooting. Cannot do_volume_snapshot_create while the"
        " instance is in this state." % server,
    )
