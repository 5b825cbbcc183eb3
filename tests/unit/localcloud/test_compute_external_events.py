"""Local cloud: ``POST /os-server-external-events`` answers as nova 34's
ServerExternalEventsController (tests/fixtures/compute/realcloud/
nova-34-proxies.json): per-event codes, 200/207, the names each
microversion accepts, the admin policy and the instance actions recorded."""

import json
import uuid
from pathlib import Path

import pytest

REAL_FILE = Path(__file__).parents[2] / "fixtures/compute/realcloud/nova-34-proxies.json"
RECORDED = json.loads(REAL_FILE.read_text())
REAL = RECORDED["exchanges"]
PATH = "/os-server-external-events"


def _replay(nova, name, server_id, unknown):
    """Send the recorded request ``name`` with this cloud's server (and a
    fresh unknown uuid); return (status, body) and the real ones, ids
    replaced likewise."""
    real = REAL[name]
    text = json.dumps(real["request"]["body"])
    ids = {RECORDED["ids"]["server_id"]: server_id}
    for event in real["body"]["events"] if real["status"] in (200, 207) else []:
        if event["server_uuid"] not in ids:
            ids[event["server_uuid"]] = unknown
    for old, new in ids.items():
        text = text.replace(old, new)
    request = real["request"]
    user = "admin" if request["user"] == "admin" else "demo"
    answer = nova.post(PATH, json.loads(text), user=user, version=request["version"])
    expected = json.dumps(real["body"])
    for old, new in ids.items():
        expected = expected.replace(old, new)
    return (answer.status, answer.json()), (real["status"], json.loads(expected))


@pytest.mark.parametrize(
    "name",
    [
        "events_network_changed",
        "events_plugged_status",
        "events_unknown_server",
        "events_mixed",
        "events_volume_extended_no_tag",
        "events_power_update",
        "events_member",
    ],
)
def test_events_answer_as_nova(shared_nova, name):
    server_id = shared_nova.create()
    got, real = _replay(shared_nova, name, server_id, str(uuid.uuid4()))
    assert got == real


@pytest.mark.parametrize(
    "name",
    [
        "events_volume_extended_2.50",
        "events_power_update_2.75",
        "events_accelerator_2.81",
        "events_reimaged_2.92",
        "events_bad_status",
        "events_empty",
        "events_bad_uuid",
        "events_extra_key",
    ],
)
def test_event_validation_is_novas(shared_nova, name):
    server_id = shared_nova.create()
    real = REAL[name]
    body = json.loads(
        json.dumps(real["request"]["body"]).replace(RECORDED["ids"]["server_id"], server_id)
    )
    answer = shared_nova.post(PATH, body, user="admin", version=real["request"]["version"])
    expected = json.dumps(real["body"]).replace(RECORDED["ids"]["server_id"], server_id)
    assert (answer.status, answer.json()) == (real["status"], json.loads(expected))


def test_later_events_at_their_microversions(shared_nova):
    server_id = shared_nova.create()
    for name, version in (("accelerator-request-bound", "2.82"), ("volume-reimaged", "2.93")):
        event = {"name": name, "server_uuid": server_id, "tag": "x"}
        answer = shared_nova.post(PATH, {"events": [event]}, user="admin", version=version)
        assert answer.status == 200
        assert answer.json() == {"events": [dict(event, status="completed", code=200)]}


def test_a_server_without_host_is_422(shared_nova):
    server_id = shared_nova.create()
    with shared_nova.cloud.store.transaction() as db:
        db.execute("UPDATE servers SET host = NULL WHERE id = ?", (server_id,))
    event = {"name": "network-changed", "server_uuid": server_id}
    answer = shared_nova.post(PATH, {"events": [event]}, user="admin", version="2.1")
    assert answer.status == 207
    assert answer.json()["events"] == [dict(event, status="failed", code=422)]


def test_volume_extended_and_power_update_record_actions(shared_nova):
    server_id = shared_nova.create()
    events = [
        {"name": "volume-extended", "server_uuid": server_id, "tag": str(uuid.uuid4())},
        {"name": "power-update", "server_uuid": server_id, "tag": "POWER_OFF"},
        {"name": "power-update", "server_uuid": server_id, "tag": "SOMETHING"},
        {"name": "network-changed", "server_uuid": server_id},
    ]
    answer = shared_nova.post(PATH, {"events": events}, user="admin", version="2.76")
    assert answer.status == 200, answer.body
    listed = shared_nova.get(
        "/servers/%s/os-instance-actions" % server_id, user="admin", version="2.51"
    ).json()["instanceActions"]
    # nova 34 recorded start and extend_volume for its events (newest first)
    assert [a["action"] for a in REAL["events_actions"]["body"]["instanceActions"]][:2] == [
        "start",
        "extend_volume",
    ]
    assert [a["action"] for a in listed] == ["stop", "extend_volume", "create"]
    assert listed[0]["request_id"] == answer.header("x-openstack-request-id")
    assert listed[0]["project_id"] == shared_nova.project_id("admin")
