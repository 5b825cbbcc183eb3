"""Instance actions of operations nova's API accepts and its conductor
then fails with NoValidHost: the conductor's events end in ``Error`` with
the failure as details and the action's message is ``Error``, as nova 34
recorded them
(``tests/fixtures/compute/realcloud/nova-34-failed-move-actions.json``)."""

from tests.shape import assert_same_shape
from tests.unit.fakes import load_fixture
from tests.unit.localcloud.compute_harness import Nova
from tests.unit.localcloud.compute_harness import make_cloud

REAL = load_fixture("compute", "realcloud", "nova-34-failed-move-actions.json")["exchanges"]
NO_VALID_HOST = "No valid host was found. There are not enough hosts available."


def _one_host(tmp_path):
    return Nova(make_cloud(tmp_path / "d", compute_hosts=1))


def _last_action(nova, server_id, user="admin", version="2.84"):
    listed = nova.get(
        "/servers/%s/os-instance-actions" % server_id, user=user, version=version
    ).json()["instanceActions"]
    shown = nova.get(
        "/servers/%s/os-instance-actions/%s" % (server_id, listed[0]["request_id"]),
        user=user,
        version=version,
    )
    assert shown.status == 200, shown.body
    return shown.json()["instanceAction"]


def test_cold_migrate_no_valid_host_events_as_nova(tmp_path):
    nova = _one_host(tmp_path)
    sid = nova.create(user="admin")
    assert nova.action(sid, {"migrate": None}, user="admin").status == 202
    action = _last_action(nova, sid)
    real = REAL["migrate_no_valid_host"]["body"]["instanceAction"]
    assert_same_shape(action, real)
    assert action["message"] == real["message"] == "Error"
    local = {(e["event"], e["result"], e["details"]) for e in action["events"]}
    assert local == {(e["event"], e["result"], e["details"]) for e in real["events"]}
    assert all(e["traceback"].startswith("  File ") for e in action["events"])


def test_a_successful_action_has_no_message(tmp_path):
    nova = _one_host(tmp_path)
    sid = nova.create()
    nova.action(sid, {"os-stop": None})
    action = _last_action(nova, sid, user="demo")
    assert action["action"] == "stop" and action["message"] is None
    assert {e["result"] for e in action["events"]} == {"Success"}


def test_live_migrate_no_valid_host_event_is_an_error(tmp_path):
    nova = _one_host(tmp_path)
    sid = nova.create(user="admin")
    body = {"os-migrateLive": {"host": None, "block_migration": "auto"}}
    assert nova.action(sid, body, user="admin", version="2.34").status == 202
    action = _last_action(nova, sid)
    assert action["message"] == "Error"
    assert [(e["event"], e["result"], e["details"]) for e in action["events"]] == [
        ("conductor_live_migrate_instance", "Error", NO_VALID_HOST)
    ]


def test_unshelve_no_valid_host_schedule_event_is_an_error(tmp_path):
    nova = _one_host(tmp_path)
    sid = nova.create()
    nova.action(sid, {"shelve": None})
    with nova.cloud.store.transaction() as db:
        db.execute("UPDATE compute_nodes SET vcpus = 0")
    assert nova.action(sid, {"unshelve": None}).status == 202
    action = _last_action(nova, sid)
    assert action["action"] == "unshelve" and action["message"] == "Error"
    events = {e["event"]: (e["result"], e["details"]) for e in action["events"]}
    # nova's conductor never casts to the compute host
    assert events == {
        "get_image_info": ("Success", None),
        "schedule_instances": ("Error", NO_VALID_HOST),
    }
    # the member sees the events from 2.51, never their details
    member = _last_action(nova, sid, user="demo")
    assert {e["result"] for e in member["events"]} == {"Success", "Error"}
    assert all("details" not in e and "traceback" not in e for e in member["events"])


def test_evacuate_no_valid_host_event_is_an_error(tmp_path):
    nova = Nova(make_cloud(tmp_path / "d", compute_hosts=1))
    sid = nova.create(user="admin")
    host = nova.show(sid, user="admin")["OS-EXT-SRV-ATTR:host"]
    services = nova.get(
        "/os-services?binary=nova-compute&host=" + host, user="admin", version="2.53"
    ).json()["services"]
    nova.put(
        "/os-services/" + services[0]["id"], {"forced_down": True}, user="admin", version="2.53"
    )
    assert nova.action(sid, {"evacuate": {}}, user="admin", version="2.80").status == 200
    action = _last_action(nova, sid)
    assert [(e["event"], e["result"]) for e in action["events"]] == [
        ("conductor_rebuild_server", "Error")
    ]


def test_a_successful_move_records_no_error(tmp_path):
    nova = Nova(make_cloud(tmp_path / "d", compute_hosts=2))
    sid = nova.create(user="admin")
    assert nova.action(sid, {"migrate": None}, user="admin").status == 202
    action = _last_action(nova, sid)
    assert action["message"] is None
    assert {e["result"] for e in action["events"]} == {"Success"}


def test_resize_no_valid_host_events_as_nova(tmp_path):
    nova = _one_host(tmp_path)
    sid = nova.create(user="admin")
    assert nova.action(sid, {"resize": {"flavorRef": "2"}}, user="admin").status == 202
    action = _last_action(nova, sid)
    real = REAL["resize_no_valid_host"]["body"]["instanceAction"]
    assert action["action"] == real["action"] == "resize"
    assert action["message"] == real["message"] == "Error"
    local = {(e["event"], e["result"], e["details"]) for e in action["events"]}
    assert local == {(e["event"], e["result"], e["details"]) for e in real["events"]}
