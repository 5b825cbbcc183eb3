"""Cold and live migration, evacuation and the migration records, in process.

Texts and statuses are nova 34's (tests/fixtures/compute/realcloud/
nova-34-migrations.json records the real answers for the error paths).
"""

import json
import pathlib

import pytest

from occli.localcloud.compute import scheduler
from tests.unit.localcloud.compute_harness import CIRROS
from tests.unit.localcloud.compute_harness import Nova
from tests.unit.localcloud.compute_harness import fault
from tests.unit.localcloud.compute_harness import make_cloud

_RECORDED = json.loads(
    (
        pathlib.Path(__file__).parents[2] / "fixtures/compute/realcloud/nova-34-migrations.json"
    ).read_text()
)
REAL, IDS = _RECORDED["exchanges"], _RECORDED["ids"]
REAL_SERVER = IDS["server_id"]
RAM = 512  # flavor 1


@pytest.fixture
def live_nova(tmp_path):
    """Live migrations stay running until aborted or forced."""
    return Nova(make_cloud(tmp_path / "data", live_migration_time=3600))


def _boot(nova, **kw):
    sid = nova.create(user="admin", **kw)
    assert nova.show(sid, user="admin")["status"] == "ACTIVE"
    return sid


def _host(nova, sid):
    return nova.show(sid, user="admin", version="2.80")["OS-EXT-SRV-ATTR:host"]


def _usage(nova):
    with nova.cloud.store.read() as db:
        return {s.host: s.used["MEMORY_MB"] for s in scheduler.host_states(db)}


def _migrations(nova, version="2.80", query=""):
    result = nova.get("/os-migrations" + query, user="admin", version=version)
    assert result.status == 200, result.body
    return result.json()["migrations"]


def _service_id(nova, host):
    services = nova.get(
        "/os-services?binary=nova-compute&host=" + host, user="admin", version="2.53"
    )
    return services.json()["services"][0]["id"]


def _force_down(nova, host, down=True):
    services = nova.get(
        "/os-services?binary=nova-compute&host=" + host, user="admin", version="2.53"
    )
    (service,) = services.json()["services"]
    result = nova.put(
        "/os-services/" + service["id"], {"forced_down": down}, user="admin", version="2.53"
    )
    assert result.status == 200, result.body


def _same_text(result, name):
    """The local answer's status and message are the real nova's."""
    real = REAL[name]
    ((_, body),) = real["body"].items()
    local_message = fault(result)[2]
    assert result.status == real["status"], (result.status, result.body)
    # ids differ: compare with the real server's id replaced
    assert local_message.split(" instance ")[0] == body["message"].split(" instance ")[0]


# -- cold migration ------------------------------------------------------------


def test_cold_migration_confirm_moves_usage(nova):
    sid = _boot(nova)
    source = _host(nova, sid)
    assert nova.action(sid, {"migrate": None}, user="admin").status == 202
    server = nova.show(sid, user="admin")
    assert server["status"] == "VERIFY_RESIZE"
    dest = server["OS-EXT-SRV-ATTR:host"]
    assert dest != source
    usage = _usage(nova)
    assert usage[source] == RAM and usage[dest] == RAM
    (record,) = _migrations(nova)
    assert record["migration_type"] == "migration"
    assert record["status"] == "finished"
    assert (record["source_compute"], record["dest_compute"]) == (source, dest)
    assert record["dest_host"].startswith("192.168.122.")
    assert record["old_instance_type_id"] == record["new_instance_type_id"]
    assert nova.action(sid, {"confirmResize": None}, user="admin").status == 204
    assert nova.show(sid, user="admin")["status"] == "ACTIVE"
    assert _usage(nova)[source] == 0 and _usage(nova)[dest] == RAM
    assert _migrations(nova)[0]["status"] == "confirmed"


def test_cold_migration_revert_goes_back(nova):
    sid = _boot(nova)
    source = _host(nova, sid)
    nova.action(sid, {"migrate": None}, user="admin")
    dest = _host(nova, sid)
    assert nova.action(sid, {"revertResize": None}, user="admin").status == 202
    assert nova.show(sid, user="admin")["status"] == "ACTIVE"
    assert _host(nova, sid) == source
    assert _usage(nova)[dest] == 0 and _usage(nova)[source] == RAM
    assert _migrations(nova)[0]["status"] == "reverted"


def test_cold_migration_to_a_host(nova):
    sid = _boot(nova)
    result = nova.action(sid, {"migrate": {"host": "host3"}}, user="admin", version="2.56")
    assert result.status == 202
    assert _host(nova, sid) == "host3"


def test_cold_migration_host_before_2_56_is_ignored(nova):
    sid = _boot(nova)
    result = nova.action(sid, {"migrate": {"host": "nosuchhost"}}, user="admin", version="2.55")
    assert result.status == 202
    assert nova.show(sid, user="admin")["status"] == "VERIFY_RESIZE"


@pytest.mark.parametrize(
    "host,name", [("nosuchhost", "migrate_unknown_host"), (None, "migrate_same_host")]
)
def test_cold_migration_bad_host(nova, host, name):
    sid = _boot(nova)
    result = nova.action(
        sid, {"migrate": {"host": host or _host(nova, sid)}}, user="admin", version="2.56"
    )
    assert result.status == 400
    assert fault(result)[2] == REAL[name]["body"]["badRequest"]["message"]
    assert _migrations(nova) == []


def test_cold_migration_body_schema(nova):
    sid = _boot(nova)
    result = nova.action(sid, {"migrate": {"hots": "x"}}, user="admin", version="2.56")
    assert (result.status, fault(result)[2]) == (
        400,
        REAL["migrate_bad_body"]["body"]["badRequest"]["message"],
    )


def test_cold_migration_of_a_stopped_server(nova):
    sid = _boot(nova)
    nova.action(sid, {"os-stop": None}, user="admin")
    assert nova.action(sid, {"migrate": None}, user="admin").status == 202
    server = nova.show(sid, user="admin")
    assert server["status"] == "VERIFY_RESIZE"
    nova.action(sid, {"confirmResize": None}, user="admin")
    assert nova.show(sid, user="admin")["status"] == "SHUTOFF"


def test_cold_migration_wrong_state(nova):
    sid = _boot(nova)
    nova.action(sid, {"suspend": None}, user="admin")
    result = nova.action(sid, {"migrate": None}, user="admin")
    _same_text(result, "migrate_suspended")


def test_cold_migration_member_refused(nova):
    sid = nova.create()
    result = nova.action(sid, {"migrate": None})
    assert (result.status, fault(result)[2]) == (
        403,
        "Policy doesn't allow os_compute_api:os-migrate-server:migrate to be performed.",
    )
    result = nova.action(sid, {"migrate": {"host": "host2"}}, version="2.56")
    assert fault(result)[2] == (
        "Policy doesn't allow os_compute_api:os-migrate-server:migrate:host to be performed."
    )


def test_cold_migration_source_down(nova):
    sid = _boot(nova)
    _force_down(nova, _host(nova, sid))
    result = nova.action(sid, {"migrate": None}, user="admin")
    assert (result.status, fault(result)[2]) == (409, "Service is unavailable at this time.")


def test_cold_migration_no_valid_host(tmp_path):
    nova = Nova(make_cloud(tmp_path / "d", compute_hosts=1))
    sid = _boot(nova)
    assert nova.action(sid, {"migrate": None}, user="admin").status == 202
    server = nova.show(sid, user="admin")
    # as nova 34 (server_after_migrate): back to ACTIVE, no fault
    assert server["status"] == REAL["server_after_migrate"]["status"]
    assert "fault" not in server
    (record,) = _migrations(nova)
    assert record["status"] == "error" and record["dest_compute"] is None
    assert _usage(nova)["host1"] == RAM


def test_resize_records_a_migration(nova):
    sid = _boot(nova)
    host = _host(nova, sid)
    assert nova.action(sid, {"resize": {"flavorRef": "2"}}, user="admin").status == 202
    (record,) = _migrations(nova)
    assert record["migration_type"] == "resize"
    # nova's default allow_resize_to_same_host=False: another host
    dest = record["dest_compute"]
    assert record["source_compute"] == host != dest == _host(nova, sid)
    assert record["old_instance_type_id"] != record["new_instance_type_id"]
    # old flavor on the source, new on the destination until the confirm
    assert (_usage(nova)[host], _usage(nova)[dest]) == (RAM, 2048)
    nova.action(sid, {"confirmResize": None}, user="admin")
    assert (_usage(nova)[host], _usage(nova)[dest]) == (0, 2048)
    assert _migrations(nova)[0]["status"] == "confirmed"


def test_resize_revert_goes_back_to_the_source(nova):
    sid = _boot(nova)
    host = _host(nova, sid)
    nova.action(sid, {"resize": {"flavorRef": "2"}}, user="admin")
    assert _host(nova, sid) != host
    assert nova.action(sid, {"revertResize": None}, user="admin").status == 202
    server = nova.show(sid, user="admin", version="2.46")
    assert (server["status"], server["flavor"]["id"]) == ("ACTIVE", "1")
    assert _host(nova, sid) == host and _usage(nova)[host] == RAM


def test_resize_to_same_host_when_allowed(tmp_path):
    nova = Nova(make_cloud(tmp_path / "d", allow_resize_to_same_host=True))
    sid = _boot(nova)
    host = _host(nova, sid)
    nova.action(sid, {"resize": {"flavorRef": "2"}}, user="admin")
    (record,) = _migrations(nova)
    assert record["source_compute"] == record["dest_compute"] == host == _host(nova, sid)
    # old and new flavor both held on the host until the confirm
    assert _usage(nova)[host] == RAM + 2048


def test_resize_on_one_host_is_no_valid_host(tmp_path):
    # as nova 34 on one host (nova-34-failed-move-actions.json): accepted,
    # then the conductor finds no host; the server keeps its flavor
    nova = Nova(make_cloud(tmp_path / "d", compute_hosts=1))
    sid = _boot(nova)
    assert nova.action(sid, {"resize": {"flavorRef": "2"}}, user="admin").status == 202
    server = nova.show(sid, user="admin", version="2.46")
    assert (server["status"], server["flavor"]["id"]) == ("ACTIVE", "1")
    assert "fault" not in server
    (record,) = _migrations(nova)
    assert (record["status"], record["dest_compute"]) == ("error", None)
    assert _usage(nova)["host1"] == RAM
    confirm = nova.action(sid, {"confirmResize": None}, user="admin")
    assert confirm.status == 409


def test_confirm_not_resized(nova):
    sid = _boot(nova)
    result = nova.action(sid, {"confirmResize": None}, user="admin")
    _same_text(result, "confirm_not_resized")


# -- live migration ------------------------------------------------------------

AUTO = {"os-migrateLive": {"host": None, "block_migration": "auto"}}


def test_live_migration_completes(nova):
    sid = _boot(nova)
    source = _host(nova, sid)
    assert nova.action(sid, AUTO, user="admin", version="2.80").status == 202
    assert nova.show(sid, user="admin")["status"] == "ACTIVE"
    dest = _host(nova, sid)
    assert dest != source
    assert _usage(nova)[source] == 0 and _usage(nova)[dest] == RAM
    (record,) = _migrations(nova)
    assert (record["migration_type"], record["status"]) == ("live-migration", "completed")
    assert "links" not in record


def test_live_migration_forced_to_a_host(nova):
    sid = _boot(nova)
    body = {"os-migrateLive": {"host": "host3", "block_migration": True, "force": True}}
    assert nova.action(sid, body, user="admin", version="2.30").status == 202
    assert _host(nova, sid) == "host3"


def test_live_migration_of_a_paused_server(nova):
    sid = _boot(nova)
    nova.action(sid, {"pause": None}, user="admin")
    assert nova.action(sid, AUTO, user="admin", version="2.25").status == 202
    assert nova.show(sid, user="admin")["status"] == "PAUSED"


def test_live_migration_running_then_forced(live_nova):
    nova = live_nova
    sid = _boot(nova)
    source = _host(nova, sid)
    nova.action(sid, AUTO, user="admin", version="2.80")
    assert nova.show(sid, user="admin")["status"] == "MIGRATING"
    (record,) = nova.get("/servers/%s/migrations" % sid, user="admin", version="2.80").json()[
        "migrations"
    ]
    assert record["status"] == "running" and record["server_uuid"] == sid
    dest = record["dest_compute"]
    assert _usage(nova)[source] == RAM and _usage(nova)[dest] == RAM
    listed = _migrations(nova, "2.23")[0]
    assert listed["links"][0]["href"].endswith("/servers/%s/migrations/%d" % (sid, record["id"]))
    shown = nova.get(
        "/servers/%s/migrations/%d" % (sid, record["id"]), user="admin", version="2.59"
    ).json()["migration"]
    assert shown["uuid"] == record["uuid"] and "user_id" not in shown
    path = "/servers/%s/migrations/%d/action" % (sid, record["id"])
    assert nova.post(path, {"force_complete": None}, user="admin", version="2.22").status == 202
    assert nova.show(sid, user="admin")["status"] == "ACTIVE"
    assert _host(nova, sid) == dest
    assert _usage(nova)[source] == 0
    assert _migrations(nova)[0]["status"] == "completed"
    assert nova.get("/servers/%s/migrations" % sid, user="admin", version="2.23").json() == {
        "migrations": []
    }


def test_live_migration_aborted(live_nova):
    nova = live_nova
    sid = _boot(nova)
    source = _host(nova, sid)
    nova.action(sid, AUTO, user="admin", version="2.80")
    (record,) = _migrations(nova)
    path = "/servers/%s/migrations/%d" % (sid, record["id"])
    assert nova.delete(path, user="admin", version="2.24").status == 202
    assert nova.show(sid, user="admin")["status"] == "ACTIVE"
    assert _host(nova, sid) == source
    assert _usage(nova)[source] == RAM and sum(_usage(nova).values()) == RAM
    assert _migrations(nova)[0]["status"] == "cancelled"
    result = nova.get(path, user="admin", version="2.24")
    assert fault(result)[2] == "Live migration %d for server %s is not in progress." % (
        record["id"],
        sid,
    )


def test_abort_queued_only_from_2_65(tmp_path, clock):
    nova = Nova(make_cloud(tmp_path / "d", build_time=30, live_migration_time=600))
    sid = nova.create(user="admin")
    clock.advance(31)
    nova.action(sid, AUTO, user="admin", version="2.80")
    (record,) = _migrations(nova)
    assert record["status"] == "queued"
    path = "/servers/%s/migrations/%d" % (sid, record["id"])
    result = nova.delete(path, user="admin", version="2.64")
    assert (result.status, fault(result)[2]) == (
        400,
        "Migration %d state of instance %s is queued. Cannot abort live migration while the "
        "migration is in this state." % (record["id"], sid),
    )
    force = nova.post(path + "/action", {"force_complete": None}, user="admin", version="2.80")
    assert fault(force)[2].endswith(
        "is queued. Cannot force complete while the migration is in this state."
    )
    clock.advance(15)
    assert _migrations(nova)[0]["status"] == "preparing"
    assert nova.delete(path, user="admin", version="2.65").status == 202
    assert _migrations(nova)[0]["status"] == "cancelled"


def test_live_migration_statuses_over_time(tmp_path, clock):
    nova = Nova(make_cloud(tmp_path / "d", build_time=30, live_migration_time=120))
    sid = nova.create(user="admin")
    clock.advance(31)
    nova.action(sid, AUTO, user="admin", version="2.80")
    seen = []
    for step in (0, 12, 12, 76):
        clock.advance(step)
        seen.append(_migrations(nova)[0]["status"])
    assert seen == ["queued", "preparing", "running", "running"]
    assert nova.show(sid, user="admin")["status"] == "MIGRATING"
    clock.advance(21)
    assert _migrations(nova)[0]["status"] == "completed"
    assert nova.show(sid, user="admin")["status"] == "ACTIVE"


@pytest.mark.parametrize(
    "name",
    [
        "live_v2_24_missing_doc",
        "live_v2_25_auto",
        "live_force_no_host",
        "live_force_v2_68",
    ],
)
def test_live_migration_bodies(nova, name):
    sid = _boot(nova)
    real = REAL[name]
    result = nova.action(
        sid, real["request"]["body"], user="admin", version=real["request"]["version"]
    )
    assert (result.status, fault(result)[2]) == (
        real["status"],
        real["body"]["badRequest"]["message"],
    )


@pytest.mark.parametrize(
    "action,name", [("os-stop", "live_stopped"), ("suspend", "live_suspended")]
)
def test_live_migration_wrong_state(nova, action, name):
    sid = _boot(nova)
    nova.action(sid, {action: None}, user="admin")
    _same_text(nova.action(sid, AUTO, user="admin", version="2.80"), name)


def test_live_migration_unknown_host(nova):
    sid = _boot(nova)
    body = {"os-migrateLive": {"host": "nosuchhost", "block_migration": "auto"}}
    result = nova.action(sid, body, user="admin", version="2.80")
    assert (result.status, fault(result)[2]) == (
        400,
        "Compute host nosuchhost could not be found.",
    )


def test_live_migration_no_valid_host(tmp_path):
    nova = Nova(make_cloud(tmp_path / "d", compute_hosts=1))
    sid = _boot(nova)
    # from 2.34 the conductor's checks are asynchronous: 202, then error
    assert nova.action(sid, AUTO, user="admin", version="2.34").status == 202
    assert nova.show(sid, user="admin")["status"] == "ACTIVE"
    assert _migrations(nova)[0]["status"] == "error"
    body = {"os-migrateLive": {"host": None, "block_migration": False}}
    result = nova.action(sid, body, user="admin", version="2.33")
    assert (result.status, fault(result)[2]) == (400, scheduler.NO_VALID_HOST)


def test_live_migration_member_refused(nova):
    sid = nova.create()
    result = nova.action(sid, AUTO, version="2.80")
    assert fault(result)[2] == (
        "Policy doesn't allow os_compute_api:os-migrate-server:migrate_live to be performed."
    )


def test_abort_and_force_when_not_migrating(nova):
    sid = _boot(nova)
    for name, call in (
        (
            "abort_not_migrating",
            lambda: nova.delete("/servers/%s/migrations/1" % sid, user="admin", version="2.80"),
        ),
        (
            "force_complete_not_migrating",
            lambda: nova.post(
                "/servers/%s/migrations/1/action" % sid,
                {"force_complete": None},
                user="admin",
                version="2.80",
            ),
        ),
    ):
        result = call()
        # nova's text without a state value (real nova: tests/fixtures/…
        # REAL[name] was answered while a migration was starting)
        assert (result.status, REAL[name]["status"]) == (409, 409)
        assert fault(result)[2] == "Instance %s is in an invalid state for '%s'" % (
            sid,
            {"abort_not_migrating": "abort live migration"}.get(name, "force_complete"),
        )


def test_another_servers_migration_is_not_found(live_nova):
    nova = live_nova
    one, two = _boot(nova, name="one"), _boot(nova, name="two")
    nova.action(one, AUTO, user="admin", version="2.80")
    nova.action(two, AUTO, user="admin", version="2.80")
    record = [m for m in _migrations(nova) if m["instance_uuid"] == one][0]
    result = nova.delete(
        "/servers/%s/migrations/%d" % (two, record["id"]), user="admin", version="2.80"
    )
    assert (result.status, fault(result)[2]) == (
        404,
        "Migration %d not found for instance %s" % (record["id"], two),
    )
    result = nova.get("/servers/%s/migrations/999999" % one, user="admin", version="2.80")
    assert fault(result)[2] == REAL["server_migration_show_missing"]["body"]["itemNotFound"][
        "message"
    ].replace(REAL_SERVER, one)


@pytest.mark.parametrize(
    "name", ["server_migrations_v2_22", "force_complete_v2_21", "abort_v2_23"]
)
def test_server_migrations_gates(nova, name):
    sid = _boot(nova)
    real = REAL[name]["request"]
    path = real["path"].replace(REAL_SERVER, sid)
    result = nova.call(
        real["method"], path, json=real["body"], user="admin", version=real["version"]
    )
    assert result.status == 404


def test_server_migrations_member_refused(nova):
    sid = nova.create()
    result = nova.get("/servers/%s/migrations" % sid, version="2.80")
    assert fault(result)[2] == (
        "Policy doesn't allow os_compute_api:servers:migrations:index to be performed."
    )


# -- evacuation ----------------------------------------------------------------


def test_evacuate_needs_the_service_down(nova):
    sid = _boot(nova)
    result = nova.action(sid, {"evacuate": {}}, user="admin", version="2.80")
    assert (result.status, fault(result)[2]) == (
        400,
        "Compute service of %s is still in use." % _host(nova, sid),
    )
    assert _migrations(nova) == []


def test_evacuate_from_a_down_host(nova):
    sid = _boot(nova)
    source = _host(nova, sid)
    _force_down(nova, source)
    result = nova.action(sid, {"evacuate": {"onSharedStorage": False}}, user="admin")
    assert result.status == 200
    assert len(result.json()["adminPass"]) == 12
    server = nova.show(sid, user="admin")
    assert server["status"] == "ACTIVE" and _host(nova, sid) != source
    (record,) = _migrations(nova)
    assert (record["migration_type"], record["status"]) == ("evacuation", "done")
    assert _usage(nova)[source] == 0


def test_evacuate_to_a_host_stopped_from_2_95(nova):
    sid = _boot(nova)
    _force_down(nova, _host(nova, sid))
    result = nova.action(sid, {"evacuate": {"host": "host3"}}, user="admin", version="2.95")
    assert (result.status, result.body) == (200, b"")
    assert nova.show(sid, user="admin")["status"] == "SHUTOFF"
    assert _host(nova, sid) == "host3"


@pytest.mark.parametrize(
    "body,name",
    [
        ({"host": "nosuchhost"}, "evacuate_unknown_host"),
        ({"force": True}, "evacuate_force_no_host"),
    ],
)
def test_evacuate_bad_requests(nova, body, name):
    sid = _boot(nova)
    real = REAL[name]
    result = nova.action(sid, {"evacuate": body}, user="admin", version=real["request"]["version"])
    ((_, expected),) = real["body"].items()
    assert (result.status, fault(result)[2]) == (real["status"], expected["message"])


def test_evacuate_same_host_and_shared_storage(nova):
    sid = _boot(nova)
    result = nova.action(
        sid, {"evacuate": {"host": _host(nova, sid)}}, user="admin", version="2.80"
    )
    assert fault(result)[2] == REAL["evacuate_same_host"]["body"]["badRequest"]["message"]
    result = nova.action(sid, {"evacuate": {}}, user="admin", version="2.13")
    assert (
        fault(result)[2] == REAL["evacuate_v2_13_missing_shared"]["body"]["badRequest"]["message"]
    )
    result = nova.action(
        sid,
        {"evacuate": {"onSharedStorage": True, "adminPass": "x"}},
        user="admin",
        version="2.13",
    )
    assert fault(result)[2] == "admin password can't be changed on existing disk"


def test_evacuate_wrong_state_and_member(nova):
    sid = _boot(nova)
    nova.action(sid, {"suspend": None}, user="admin")
    _force_down(nova, _host(nova, sid))
    _same_text(
        nova.action(sid, {"evacuate": {}}, user="admin", version="2.80"), "evacuate_suspended"
    )
    mine = nova.create()
    result = nova.action(mine, {"evacuate": {}}, version="2.80")
    assert fault(result)[2] == "Policy doesn't allow os_compute_api:os-evacuate to be performed."


# -- /os-migrations --------------------------------------------------------------


def _three_moves(nova):
    one, two = _boot(nova, name="one"), _boot(nova, name="two")
    nova.action(one, {"migrate": None}, user="admin")
    nova.action(two, AUTO, user="admin", version="2.80")
    nova.action(one, {"confirmResize": None}, user="admin")
    nova.action(one, AUTO, user="admin", version="2.80")
    return one, two


def test_os_migrations_fields_per_version(nova):
    _three_moves(nova)
    for version, real in (
        ("2.1", "os_migrations_v2_1"),
        ("2.23", "os_migrations_v2_23"),
        ("2.59", "os_migrations_v2_59"),
        ("2.80", "os_migrations_v2_80"),
    ):
        local = _migrations(nova, version)
        expected = REAL[real]["body"]["migrations"][0]
        assert sorted(local[0]) == sorted(expected), version
    # before 2.59 oldest first; then newest first
    assert [m["id"] for m in _migrations(nova, "2.1")] == [1, 2, 3]
    assert [m["id"] for m in _migrations(nova, "2.59")] == [3, 2, 1]


def test_os_migrations_filters(nova):
    one, two = _three_moves(nova)
    assert {m["instance_uuid"] for m in _migrations(nova, query="?instance_uuid=" + two)} == {two}
    assert [m["status"] for m in _migrations(nova, query="?status=confirmed")] == ["confirmed"]
    lives = _migrations(nova, query="?migration_type=live-migration")
    assert len(lives) == 2
    host = lives[0]["dest_compute"]
    assert all(
        host in (m["source_compute"], m["dest_compute"])
        for m in _migrations(nova, query="?host=" + host)
    )
    assert _migrations(nova, query="?changes-before=2000-01-01T00:00:00Z") == []
    assert len(_migrations(nova, query="?changes-since=2000-01-01T00:00:00Z")) == 3
    user = _migrations(nova)[0]["user_id"]
    assert len(_migrations(nova, query="?user_id=" + user)) == 3
    assert _migrations(nova, query="?project_id=other") == []


def test_os_migrations_paging(nova):
    _three_moves(nova)
    result = nova.get("/os-migrations?limit=2", user="admin", version="2.80").json()
    assert len(result["migrations"]) == 2
    href = result["migrations_links"][0]["href"]
    marker = result["migrations"][-1]["uuid"]
    assert href.endswith("/v2.1/os-migrations?limit=2&marker=" + marker)
    rest = _migrations(nova, query="?marker=" + marker)
    assert [m["id"] for m in rest] == [1]


@pytest.mark.parametrize(
    "name",
    [
        "os_migrations_bad_marker",
        "os_migrations_unknown_param",
        "os_migrations_user_id_v2_79",
        "os_migrations_before_lt_since",
        "os_migrations_bad_since",
        "os_migrations_bad_limit",
    ],
)
def test_os_migrations_query_errors(nova, name):
    real = REAL[name]
    result = nova.get(real["request"]["path"], user="admin", version=real["request"]["version"])
    assert (result.status, fault(result)[2]) == (400, real["body"]["badRequest"]["message"])


def test_os_migrations_old_versions_ignore_unknown_params(nova):
    _three_moves(nova)
    assert len(_migrations(nova, "2.58", "?foo=bar&changes-since=2100-01-01T00:00:00Z")) == 3


def test_os_migrations_member_refused(nova):
    result = nova.get("/os-migrations", version="2.80")
    assert (result.status, fault(result)[2]) == (
        403,
        REAL["os_migrations_member"]["body"]["forbidden"]["message"],
    )


def test_hypervisors_show_both_hosts_during_a_move(nova):
    sid = _boot(nova)
    source = _host(nova, sid)
    nova.action(sid, {"migrate": None}, user="admin")
    dest = _host(nova, sid)

    def used():
        found = nova.get("/os-hypervisors/detail", user="admin", version="2.87").json()
        return {h["hypervisor_hostname"]: h["memory_mb_used"] - 512 for h in found["hypervisors"]}

    assert used()[source] == used()[dest] == RAM
    nova.action(sid, {"confirmResize": None}, user="admin")
    assert (used()[source], used()[dest]) == (0, RAM)


OWN = [name for name in REAL if name.startswith("own_")]


@pytest.mark.parametrize("name", OWN)
def test_member_on_its_own_server_as_real_nova(nova, name):
    """Each policy refusal of a member on its own server, replayed."""
    sid = nova.create()
    real = REAL[name]
    request = real["request"]
    path = request["path"].replace(IDS["member_server_id"], sid)
    result = nova.call(request["method"], path, json=request["body"], version="2.96")
    assert (result.status, fault(result)[2]) == (
        real["status"],
        real["body"]["forbidden"]["message"],
    )


@pytest.mark.parametrize(
    "name,hosts",
    [
        ("live_unknown_host_active", 3),
        ("live_same_host_v2_33", 3),
        ("live_no_host_v2_33", 1),
        ("evacuate_shared_v2_14", 3),
        ("evacuate_shared_with_pass_v2_13", 3),
        ("force_complete_bad_body", 3),
        ("migration_action_unknown", 3),
    ],
)
def test_bad_requests_as_real_nova(tmp_path, name, hosts):
    nova = Nova(make_cloud(tmp_path / "d", compute_hosts=hosts))
    sid = _boot(nova)
    real = REAL[name]
    request = real["request"]
    version = "2.96" if request["version"] == "latest" else request["version"]
    body = json.loads(json.dumps(request["body"]).replace("realcloud-compute1", _host(nova, sid)))
    path = request["path"].replace(IDS["member_server_id"], sid)
    result = nova.call(request["method"], path, json=body, user="admin", version=version)
    expected = real["body"]["badRequest"]["message"]
    expected = expected.replace(IDS["member_server_id"], sid).replace(
        "realcloud-compute1", _host(nova, sid)
    )
    assert (result.status, fault(result)[2]) == (400, expected)


def test_moves_keep_the_group_policy(nova):
    group = nova.post(
        "/os-server-groups",
        {"server_group": {"name": "g", "policy": "anti-affinity"}},
        user="admin",
        version="2.64",
    ).json()["server_group"]
    members = []

    def member(name):
        body = {
            "server": {"name": name, "flavorRef": "1", "imageRef": CIRROS, "networks": "none"},
            "os:scheduler_hints": {"group": group["id"]},
        }
        result = nova.post("/servers", body, user="admin", version="2.64")
        members.append(result.json()["server"]["id"])

    member("a")
    member("b")
    taken = {_host(nova, sid) for sid in members}
    (free,) = {"host1", "host2", "host3"} - taken
    nova.action(members[0], AUTO, user="admin", version="2.80")
    assert _host(nova, members[0]) == free
    member("c")
    # every host holds a member now: no host keeps the policy
    nova.action(members[1], {"migrate": None}, user="admin")
    assert _migrations(nova, query="?instance_uuid=" + members[1])[0]["status"] == "error"


def test_force_complete_ends_now(tmp_path, clock):
    nova = Nova(make_cloud(tmp_path / "d", live_migration_time=600))
    sid = _boot(nova)
    nova.action(sid, AUTO, user="admin", version="2.80")
    (record,) = _migrations(nova)
    clock.advance(100)
    path = "/servers/%s/migrations/%d/action" % (sid, record["id"])
    assert nova.post(path, {"force_complete": None}, user="admin", version="2.80").status == 202
    now = clock.now.strftime("%Y-%m-%dT%H:%M:%S")
    assert nova.show(sid, user="admin")["updated"] == now + "Z"
    done = _migrations(nova)[0]
    assert done["status"] == "completed" and done["updated_at"].startswith(now)


def test_evacuate_without_a_host_ends_in_error(tmp_path):
    nova = Nova(make_cloud(tmp_path / "d", compute_hosts=2))
    sid = _boot(nova)
    other = ({"host1", "host2"} - {_host(nova, sid)}).pop()
    _force_down(nova, _host(nova, sid))
    nova.put(
        "/os-services/" + _service_id(nova, other),
        {"status": "disabled"},
        user="admin",
        version="2.53",
    )
    assert nova.action(sid, {"evacuate": {}}, user="admin", version="2.80").status == 200
    server = nova.show(sid, user="admin")
    # nova's conductor: NoValidHost puts the server in ERROR with the fault
    assert server["status"] == "ERROR"
    assert server["fault"]["message"] == scheduler.NO_VALID_HOST
    assert _migrations(nova)[0]["status"] == "error"
