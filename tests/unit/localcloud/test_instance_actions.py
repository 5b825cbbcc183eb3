"""``/servers/{id}/os-instance-actions`` in-process: what each route records,
the views per microversion and role, paging and its errors, compared with
the upstream samples and what nova 34 answered
(``tests/fixtures/compute/realcloud/nova-34-lifecycle-instance-actions.json``)."""

import pytest

from tests.shape import assert_same_shape
from tests.unit.fakes import load_fixture
from tests.unit.localcloud.compute_harness import CIRROS
from tests.unit.localcloud.volume_harness import cinder_cloud

cinder = pytest.fixture(cinder_cloud, name="cinder")
REAL = load_fixture("compute", "realcloud", "nova-34-lifecycle-instance-actions.json")
REAL_SERVER = REAL["exchanges"][0]["path"].split("/")[2]


def real(note, who=None):
    """``(status, body)`` nova 34 answered for the exchange ``note``."""
    for exchange in REAL["exchanges"]:
        if exchange["note"] == note and who in (None, exchange["as"]):
            return exchange["status"], exchange["response"]
    raise KeyError(note)


def real_message(note, server_id):
    status, body = real(note)
    ((_, fault),) = body.items()
    return status, fault["message"].replace(REAL_SERVER, server_id)


def message(result):
    ((_, fault),) = result.json().items()
    return result.status, fault["message"]


def actions(nova, server_id, version="2.58", user="demo", query=""):
    result = nova.get(
        "/servers/%s/os-instance-actions%s" % (server_id, query), version=version, user=user
    )
    assert result.status == 200, result.body
    return result.json()


def show(nova, server_id, request_id, version, user="demo"):
    result = nova.get(
        "/servers/%s/os-instance-actions/%s" % (server_id, request_id), version=version, user=user
    )
    assert result.status == 200, result.body
    return result.json()["instanceAction"]


@pytest.fixture
def server(nova):
    server_id = nova.create()
    nova.show(server_id)
    return server_id


def test_every_action_is_recorded_newest_first_with_the_request_id(nova, server):
    for body in ({"os-stop": None}, {"os-start": None}, {"lock": None}, {"unlock": None}):
        result = nova.action(server, body)
        assert result.status == 202, result.body
        nova.show(server)
    listed = actions(nova, server)["instanceActions"]
    assert [a["action"] for a in listed] == ["unlock", "lock", "start", "stop", "create"]
    demo = nova.show(server)
    assert {a["user_id"] for a in listed} == {demo["user_id"]}
    assert {a["project_id"] for a in listed} == {demo["tenant_id"]}
    stop_request = listed[3]["request_id"]
    assert stop_request.startswith("req-")
    # the request id is the one the action answered with
    result = nova.action(server, {"os-stop": None})
    assert actions(nova, server)["instanceActions"][0]["request_id"] == result.header(
        "x-openstack-request-id"
    )


def test_refused_and_unrecorded_actions_leave_no_trace(nova, server):
    assert nova.action(server, {"os-start": None}).status == 409
    assert nova.action(server, {"os-getConsoleOutput": {}}).status == 200
    assert [a["action"] for a in actions(nova, server)["instanceActions"]] == ["create"]


def test_lock_events_run_on_the_controller_as_nova_api(nova, server):
    nova.action(server, {"lock": None})
    lock = actions(nova, server)["instanceActions"][0]
    events = show(nova, server, lock["request_id"], "2.62", user="admin")["events"]
    assert [(e["event"], e["host"]) for e in events] == [("api_lock", "controller")]
    recorded = {a["action"]: a["events"] for a in REAL["events_per_action"]}
    assert recorded["lock"] == ["api_lock"] and recorded["resetState"] == []


def test_events_as_nova_34_recorded_them(nova, server):
    recorded = {a["action"]: a["events"] for a in REAL["events_per_action"]}
    nova.action(server, {"rescue": None})
    nova.show(server)
    nova.action(server, {"unrescue": None})
    nova.show(server)
    nova.action(server, {"changePassword": {"adminPass": "x"}})
    nova.action(server, {"trigger_crash_dump": None}, version="2.17")
    nova.action(server, {"os-resetState": {"state": "active"}}, user="admin")
    nova.action(server, {"os-stop": None})
    nova.show(server)
    for action in actions(nova, server)["instanceActions"]:
        events = show(nova, server, action["request_id"], "2.84", user="admin")["events"]
        assert [e["event"] for e in events] == recorded[action["action"]], action["action"]


def test_list_views_per_microversion_match_the_samples(nova, server):
    nova.action(server, {"os-stop": None})
    old = actions(nova, server, version="2.1")
    assert_same_shape(
        old, load_fixture("compute", "os-instance-actions", "instance-actions-list-resp.json")
    )
    new = actions(nova, server, version="2.58")
    assert_same_shape(
        new,
        load_fixture("compute", "os-instance-actions", "v2.58", "instance-actions-list-resp.json"),
    )
    paged = actions(nova, server, version="2.66", query="?limit=1")
    sample = load_fixture(
        "compute", "os-instance-actions", "v2.84", "instance-actions-list-with-limit-resp.json"
    )
    assert_same_shape(paged, sample)
    assert paged["links"][0]["href"].endswith(
        "/servers/%s/os-instance-actions?limit=1&marker=%s"
        % (server, paged["instanceActions"][0]["request_id"])
    )
    after = actions(nova, server, query="?marker=" + paged["instanceActions"][0]["request_id"])
    assert [a["action"] for a in after["instanceActions"]] == ["create"]
    assert actions(nova, server, query="?limit=0") == {"instanceActions": []}


@pytest.mark.parametrize(
    ("note", "query", "version"),
    [
        ("unknown marker", "?marker=req-nope", "2.58"),
        ("limit not a number", "?limit=x", "2.58"),
        ("negative limit", "?limit=-1", "2.58"),
        ("unknown query parameter (2.58+)", "?foo=1", "2.58"),
        ("changes-since not a date-time", "?changes-since=bad", "2.58"),
        ("empty limit", "?limit=", "2.58"),
        ("empty marker", "?marker=", "2.58"),
        ("empty changes-since", "?changes-since=", "2.58"),
        ("repeated limit", "?limit=1&limit=2", "2.58"),
        ("changes-before at 2.65", "?changes-before=2020-01-01T00:00:00Z", "2.65"),
        (
            "changes-since after changes-before",
            "?changes-before=2020-01-01T00:00:00Z&changes-since=2021-01-01T00:00:00Z",
            "2.66",
        ),
    ],
)
def test_query_errors_as_nova_34(nova, server, note, query, version):
    result = nova.get("/servers/%s/os-instance-actions%s" % (server, query), version=version)
    assert message(result) == real_message(note, server)


def test_a_date_alone_is_a_changes_since(nova, server):
    assert real("changes-since a date only")[0] == 200
    listed = actions(nova, server, query="?changes-since=2020-01-01")
    assert [a["action"] for a in listed["instanceActions"]] == ["create"]


def test_before_2_58_the_query_is_ignored(nova, server):
    assert real("unknown query parameter before 2.58")[0] == 200
    listed = actions(nova, server, version="2.57", query="?foo=1&limit=0")
    assert [a["action"] for a in listed["instanceActions"]] == ["create"]


def test_changes_since_and_before_filter_on_updated_at(nova, server, clock):
    clock.advance(60)
    nova.action(server, {"os-stop": None})
    stop_time = actions(nova, server)["instanceActions"][0]["updated_at"]
    since = actions(nova, server, query="?changes-since=%sZ" % stop_time)
    assert [a["action"] for a in since["instanceActions"]] == ["stop"]
    before = actions(nova, server, version="2.66", query="?changes-before=%s" % stop_time)
    assert [a["action"] for a in before["instanceActions"]] == ["stop", "create"]
    earlier = actions(
        nova, server, version="2.66", query="?changes-before=2000-01-01T00:00:00%2B00:00"
    )
    assert earlier["instanceActions"] == []


@pytest.mark.parametrize("version", ["2.50", "2.51", "2.62", "2.84"])
@pytest.mark.parametrize("who", ["member", "admin"])
def test_show_views_as_nova_34_answered(nova, server, version, who):
    _, recorded = real("show create at %s" % version, who)
    create = actions(nova, server)["instanceActions"][-1]
    user = "demo" if who == "member" else "admin"
    shown = show(nova, server, create["request_id"], version, user=user)
    assert_same_shape(shown, recorded["instanceAction"])


def test_show_unknown_request_id(nova, server):
    result = nova.get("/servers/%s/os-instance-actions/req-nope" % server)
    assert message(result) == real_message("show unknown request id", server)


def test_events_run_until_the_operation_completes(slow_nova, clock):
    server = slow_nova.create()
    clock.advance(10)
    slow_nova.show(server)
    slow_nova.action(server, {"os-stop": None})
    stop = actions(slow_nova, server)["instanceActions"][0]
    (event,) = show(slow_nova, server, stop["request_id"], "2.51")["events"]
    assert event["finish_time"] is None and event["result"] is None
    assert stop["updated_at"] == stop["start_time"]
    clock.advance(10)
    (event,) = show(slow_nova, server, stop["request_id"], "2.51")["events"]
    assert event["result"] == "Success" and event["finish_time"] > event["start_time"]
    assert actions(slow_nova, server)["instanceActions"][0]["updated_at"] == event["finish_time"]


def test_a_deleted_servers_actions_from_2_21(nova, server):
    assert nova.delete("/servers/" + server).status == 204
    gone = nova.get("/servers/%s/os-instance-actions" % server, version="2.20")
    assert message(gone) == real_message("deleted server's actions at 2.20", server)
    for user in ("demo", "admin"):
        listed = actions(nova, server, version="2.21", user=user)["instanceActions"]
        assert [a["action"] for a in listed] == ["delete", "create"]
    delete = show(nova, server, listed[0]["request_id"], "2.84", user="admin")
    assert [e["event"] for e in delete["events"]] == ["compute_terminate_instance"]


def test_another_projects_server_is_not_found(nova, server):
    other = nova.create(user="admin")
    result = nova.get("/servers/%s/os-instance-actions" % other, version="2.21")
    assert result.status == 404
    assert message(result)[1] == "Instance %s could not be found." % other


def test_multiple_create_records_each_server(nova):
    nova.create(min_count=2, max_count=2, name="twin")
    listed = nova.get("/servers?name=twin").json()["servers"]
    assert len(listed) == 2
    requests = {actions(nova, s["id"])["instanceActions"][0]["request_id"] for s in listed}
    assert len(requests) == 1


def test_an_unscheduled_server_has_a_create_action_without_events(nova, server):
    body = {
        "server": {"name": "nowhere", "flavorRef": "1", "imageRef": CIRROS},
        "os:scheduler_hints": {"same_host": server, "different_host": server},
    }
    created = nova.post("/servers", body)
    assert created.status == 202, created.body
    nowhere = created.json()["server"]["id"]
    assert nova.show(nowhere)["status"] == "ERROR"
    (create,) = actions(nova, nowhere)["instanceActions"]
    assert create["action"] == "create"
    assert show(nova, nowhere, create["request_id"], "2.84", user="admin")["events"] == []


def test_volume_attach_and_detach_are_recorded(cinder):
    server = cinder.server()
    first = cinder.create()["id"]
    second = cinder.create()["id"]
    for volume in (first, second):
        cinder.show(volume)
    cinder.nova("GET", "/servers/" + server)
    assert cinder.attach(server, first).status == 200
    path = "/servers/%s/os-volume_attachments/%s" % (server, first)
    # 2.85: changing delete_on_termination alone swaps nothing
    same = {"volumeAttachment": {"volumeId": first, "delete_on_termination": True}}
    assert cinder.nova("PUT", path, same, user="admin").status == 202
    # a swap nova refuses (nothing migrates the volume here) records nothing
    swap = {"volumeAttachment": {"volumeId": second}}
    assert cinder.nova("PUT", path, swap, user="admin").status == 409
    cinder.nova("GET", "/servers/" + server)
    assert cinder.nova("DELETE", path).status == 202
    listed = cinder.nova("GET", "/servers/%s/os-instance-actions" % server).json()
    assert [a["action"] for a in listed["instanceActions"]] == [
        "detach_volume",
        "attach_volume",
        "create",
    ]


def test_a_lock_during_a_build_ends_at_once(slow_nova, clock):
    server = slow_nova.create()
    clock.advance(4)
    slow_nova.action(server, {"lock": None})
    lock = actions(slow_nova, server)["instanceActions"][0]
    (event,) = show(slow_nova, server, lock["request_id"], "2.51")["events"]
    assert event["result"] == "Success"
    create = actions(slow_nova, server)["instanceActions"][1]
    (build,) = show(slow_nova, server, create["request_id"], "2.51")["events"]
    assert build["result"] is None
    clock.advance(6)
    (build,) = show(slow_nova, server, create["request_id"], "2.51")["events"]
    assert build["result"] == "Success"


def test_interface_attach_and_detach_are_recorded(tmp_path):
    from tests.unit.localcloud.compute_harness import Nova
    from tests.unit.localcloud.network_harness import PRIVATE
    from tests.unit.localcloud.network_harness import make_cloud

    cloud = make_cloud(tmp_path / "net")
    try:
        nova = Nova(cloud)
        server = nova.create()
        nova.show(server)
        base = "/servers/%s/os-interface" % server
        made = nova.post(base, {"interfaceAttachment": {"net_id": PRIVATE}})
        assert made.status == 200, made.body
        port = made.json()["interfaceAttachment"]["port_id"]
        assert nova.delete(base + "/" + port).status == 202
        listed = actions(nova, server)["instanceActions"]
        assert [a["action"] for a in listed] == ["detach_interface", "attach_interface", "create"]
        events = show(nova, server, listed[1]["request_id"], "2.84", user="admin")["events"]
        assert [e["event"] for e in events] == ["compute_attach_interface"]
    finally:
        cloud.close()
