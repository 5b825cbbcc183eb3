"""Server actions: allowed and forbidden states (nova's 409 messages),
locks, lazy task completion, rebuild/resize/createImage, metadata."""

import pytest

from tests.unit.localcloud.compute_harness import CIRROS
from tests.unit.localcloud.compute_harness import UBUNTU
from tests.unit.localcloud.compute_harness import fault

SIMPLE = {
    # action: (allowed vm_states, vm_state afterwards, task_state meanwhile)
    "pause": (("active",), "paused", "pausing"),
    "unpause": (("paused",), "active", "unpausing"),
    "suspend": (("active",), "suspended", "suspending"),
    "resume": (("suspended",), "active", "resuming"),
    "os-start": (("stopped",), "active", "powering-on"),
    "os-stop": (("active", "error"), "stopped", "powering-off"),
}
NAMES = {"os-start": "start", "os-stop": "stop"}
STATES = ("active", "paused", "suspended", "stopped", "error", "resized")
# libvirt's: a suspended domain is managed-saved, i.e. shut off (4)
POWER = {"active": 1, "paused": 3, "suspended": 4, "stopped": 4}


def put_in_state(nova, server_id, vm_state, task_state=None):
    """Force a launched server into a state, dropping any pending operation."""
    with nova.cloud.store.transaction() as db:
        db.execute(
            "UPDATE servers SET vm_state = ?, task_state = ?,"
            " pending = NULL, task_started_at = NULL,"
            " launched_at = '2020-01-01T00:00:00.000000',"
            " power_state = ? WHERE id = ?",
            (vm_state, task_state, POWER.get(vm_state, 0), server_id),
        )


def conflict(result):
    assert result.status == 409, result.body
    name, _, message = fault(result)
    assert name == "conflictingRequest"
    return message


@pytest.mark.parametrize("action", sorted(SIMPLE))
@pytest.mark.parametrize("state", STATES)
def test_simple_action_states(shared_nova, action, state):
    nova = shared_nova
    allowed, end, _ = SIMPLE[action]
    server_id = nova.create()
    nova.show(server_id)
    put_in_state(nova, server_id, state)
    result = nova.action(server_id, {action: None})
    if state in allowed:
        assert result.status == 202, result.body
        server = nova.show(server_id)
        assert server["OS-EXT-STS:vm_state"] == end
        assert server["OS-EXT-STS:task_state"] is None
        assert server["OS-EXT-STS:power_state"] == POWER[end]
    else:
        assert conflict(result) == (
            "Cannot '%s' instance %s while it is in vm_state %s"
            % (NAMES.get(action, action), server_id, state)
        )


@pytest.mark.parametrize("action", sorted(SIMPLE))
def test_task_in_progress_blocks_actions(slow_nova, clock, action):
    allowed, end, task = SIMPLE[action]
    server_id = slow_nova.create()
    clock.advance(11)
    put_in_state(slow_nova, server_id, allowed[0])
    assert slow_nova.action(server_id, {action: None}).status == 202
    server = slow_nova.show(server_id)
    assert server["OS-EXT-STS:task_state"] == task
    again = slow_nova.action(server_id, {action: None})
    assert conflict(again) == (
        "Cannot '%s' instance %s while it is in task_state %s"
        % (NAMES.get(action, action), server_id, task)
    )
    clock.advance(10)
    server = slow_nova.show(server_id)
    assert server["OS-EXT-STS:task_state"] is None
    assert server["OS-EXT-STS:vm_state"] == end


def test_building_server_has_not_launched(slow_nova):
    server_id = slow_nova.create()
    message = conflict(slow_nova.action(server_id, {"pause": None}))
    assert message == ("Cannot 'pause' instance %s while it is in vm_state building" % server_id)


def test_status_during_actions(slow_nova, clock):
    server_id = slow_nova.create()
    clock.advance(10)
    assert slow_nova.action(server_id, {"reboot": {"type": "HARD"}}).status == 202
    server = slow_nova.show(server_id)
    assert (server["status"], server["OS-EXT-STS:task_state"]) == ("HARD_REBOOT", "rebooting_hard")
    clock.advance(10)
    assert slow_nova.action(server_id, {"pause": None}).status == 202
    assert slow_nova.show(server_id)["status"] == "ACTIVE"
    clock.advance(10)
    assert slow_nova.show(server_id)["status"] == "PAUSED"


@pytest.mark.parametrize(
    "state,soft,hard",
    [
        ("active", True, True),
        ("stopped", False, True),
        ("paused", False, True),
        ("suspended", False, True),
        ("error", False, True),
        ("resized", False, False),
    ],
)
def test_reboot_states(shared_nova, state, soft, hard):
    nova = shared_nova
    server_id = nova.create()
    nova.show(server_id)
    for kind, ok in (("SOFT", soft), ("hard", hard)):
        put_in_state(nova, server_id, state)
        result = nova.action(server_id, {"reboot": {"type": kind}})
        if ok:
            assert result.status == 202
            assert nova.show(server_id)["status"] == "ACTIVE"
        else:
            assert conflict(result) == (
                "Cannot 'reboot' instance %s while it is in vm_state %s" % (server_id, state)
            )
    assert nova.action(server_id, {"reboot": {"type": "WARM"}}).status == 400
    assert nova.action(server_id, {"reboot": {}}).status == 400


def test_lock_semantics(nova):
    server_id = nova.create()
    nova.show(server_id)
    assert nova.action(server_id, {"lock": None}).status == 202
    assert nova.show(server_id, version="2.9")["locked"] is True
    for body in (
        {"pause": None},
        {"os-stop": None},
        {"reboot": {"type": "SOFT"}},
        {"rebuild": {"imageRef": CIRROS}},
        {"resize": {"flavorRef": "2"}},
    ):
        assert conflict(nova.action(server_id, body)) == "Instance %s is locked" % server_id
    assert (
        conflict(nova.post("/servers/%s/metadata" % server_id, {"metadata": {"a": "b"}}))
        == "Instance %s is locked" % server_id
    )
    assert nova.action(server_id, {"createImage": {"name": "snap"}}).status == 202
    assert nova.action(server_id, {"pause": None}, user="admin").status == 202
    assert nova.action(server_id, {"unlock": None}).status == 202
    assert nova.action(server_id, {"unpause": None}).status == 202


def test_admin_lock_cannot_be_lifted_by_owner(nova):
    server_id = nova.create()
    assert nova.action(server_id, {"lock": None}, user="admin").status == 202
    result = nova.action(server_id, {"unlock": None})
    assert result.status == 403
    assert nova.action(server_id, {"unlock": None}, user="admin").status == 202


def test_locked_reason_from_2_73(nova):
    server_id = nova.create()
    assert (
        nova.action(server_id, {"lock": {"locked_reason": "maint"}}, version="2.72").status == 202
    )
    assert nova.show(server_id, version="2.72")["locked"] is True
    assert nova.action(server_id, {"lock": {"bogus": 1}}, version="2.73").status == 400
    assert (
        nova.action(server_id, {"lock": {"locked_reason": "maint"}}, version="2.73").status == 202
    )
    server = nova.show(server_id, version="2.73")
    assert (server["locked"], server["locked_reason"]) == (True, "maint")
    assert "locked_reason" not in nova.show(server_id, version="2.72")
    nova.action(server_id, {"unlock": None})
    assert nova.show(server_id, version="2.73")["locked_reason"] is None


def test_malformed_and_unknown_actions(nova):
    server_id = nova.create()
    result = nova.action(server_id, {"pause": None, "unpause": None})
    assert fault(result) == ("badRequest", 400, "Malformed request body")
    result = nova.action(server_id, {"fly": None})
    assert fault(result) == ("badRequest", 400, "There is no such action: fly")
    assert nova.action("d7cd6e61-0000-4000-8000-000000000000", {"pause": None}).status == 404


def test_trigger_crash_dump_needs_2_17(nova):
    server_id = nova.create()
    nova.show(server_id)
    assert nova.action(server_id, {"trigger_crash_dump": None}, version="2.16").status == 404
    assert nova.action(server_id, {"trigger_crash_dump": None}, version="2.17").status == 202
    put_in_state(nova, server_id, "stopped")
    assert conflict(nova.action(server_id, {"trigger_crash_dump": None}, version="2.17")) == (
        "Cannot 'trigger_crash_dump' instance %s while it is in vm_state stopped" % server_id
    )


def test_rebuild(nova):
    server_id = nova.create(name="before")
    nova.show(server_id)
    result = nova.action(
        server_id,
        {
            "rebuild": {
                "imageRef": UBUNTU,
                "name": "after",
                "metadata": {"k": "v"},
                "adminPass": "pw",
            }
        },
        version="2.19",
    )
    assert result.status == 202
    body = result.json()["server"]
    assert body["status"] == "REBUILD"
    assert body["adminPass"] == "pw"
    assert body["image"]["id"] == UBUNTU
    assert result.header("Location") == body["links"][0]["href"]
    assert "OS-EXT-STS:vm_state" not in body
    server = nova.show(server_id)
    assert (server["name"], server["metadata"], server["status"]) == (
        "after",
        {"k": "v"},
        "ACTIVE",
    )
    late = nova.action(
        server_id, {"rebuild": {"imageRef": CIRROS, "user_data": "aGk="}}, version="2.57"
    ).json()["server"]
    assert late["user_data"] == "aGk="
    put_in_state(nova, server_id, "stopped")
    nova.action(server_id, {"rebuild": {"imageRef": CIRROS}})
    assert nova.show(server_id)["status"] == "SHUTOFF"
    put_in_state(nova, server_id, "paused")
    assert conflict(nova.action(server_id, {"rebuild": {"imageRef": CIRROS}})) == (
        "Cannot 'rebuild' instance %s while it is in vm_state paused" % server_id
    )
    missing = nova.action(
        server_id, {"rebuild": {"imageRef": "d7cd6e61-0000-4000-8000-000000000000"}}
    )
    assert missing.status in (400, 409)


def test_resize_confirm_and_revert(nova):
    server_id = nova.create(flavorRef="1")
    nova.show(server_id)
    assert (
        fault(nova.action(server_id, {"resize": {"flavorRef": "1"}}))[2]
        == "When resizing, instances must change flavor!"
    )
    assert nova.action(server_id, {"resize": {"flavorRef": "77"}}).status == 400
    assert conflict(nova.action(server_id, {"confirmResize": None})) == (
        "Cannot 'confirmResize' instance %s while it is in vm_state active" % server_id
    )
    assert nova.action(server_id, {"resize": {"flavorRef": "2"}}).status == 202
    server = nova.show(server_id)
    assert (server["status"], server["flavor"]["id"]) == ("VERIFY_RESIZE", "2")
    assert nova.action(server_id, {"revertResize": None}).status == 202
    server = nova.show(server_id)
    assert (server["status"], server["flavor"]["id"]) == ("ACTIVE", "1")
    nova.action(server_id, {"resize": {"flavorRef": "3"}})
    nova.show(server_id)
    result = nova.action(server_id, {"confirmResize": None})
    assert result.status == 204
    server = nova.show(server_id)
    assert (server["status"], server["flavor"]["id"]) == ("ACTIVE", "3")
    assert (
        fault(nova.action(server_id, {"resize": {"flavorRef": "1"}}))[2]
        == "Resize error: Unable to resize disk down."
    )


def test_resize_of_stopped_server_stays_stopped(nova):
    server_id = nova.create()
    nova.show(server_id)
    nova.action(server_id, {"os-stop": None})
    nova.show(server_id)
    nova.action(server_id, {"resize": {"flavorRef": "2"}})
    assert nova.show(server_id)["OS-EXT-STS:power_state"] == 4
    assert nova.action(server_id, {"confirmResize": None}).status == 204
    assert nova.show(server_id)["status"] == "SHUTOFF"


def test_create_image_by_version(nova):
    server_id = nova.create()
    nova.show(server_id)
    old = nova.action(server_id, {"createImage": {"name": "snap"}})
    assert old.status == 202 and old.body == b""
    location = old.header("Location")
    assert "/image/v2/images/" in location
    image_id = location.rsplit("/", 1)[1]
    image = nova.client.get("/image/v2/images/" + image_id, token=nova.tokens["demo"])
    assert image.status == 200 and image.json()["name"] == "snap"
    nova.show(server_id)
    new = nova.action(server_id, {"createImage": {"name": "snap2"}}, version="2.45")
    assert new.status == 202 and list(new.json()) == ["image_id"]
    assert new.header("Location") is None
    nova.show(server_id)
    put_in_state(nova, server_id, "error")
    assert conflict(nova.action(server_id, {"createImage": {"name": "x"}}))


def test_console_output(nova):
    server_id = nova.create()
    nova.show(server_id)
    full = nova.action(server_id, {"os-getConsoleOutput": {}}).json()["output"]
    assert "login:" in full and len(full.splitlines()) > 3
    tail = nova.action(server_id, {"os-getConsoleOutput": {"length": 2}})
    assert tail.json()["output"].splitlines() == full.splitlines()[-2:]
    assert nova.action(server_id, {"os-getConsoleOutput": {"length": "x"}}).status == 400


# -- metadata -----------------------------------------------------------------


def test_metadata_routes(nova):
    server_id = nova.create(metadata={"a": "1"})
    nova.show(server_id)
    path = "/servers/%s/metadata" % server_id
    assert nova.get(path).json() == {"metadata": {"a": "1"}}
    merged = nova.post(path, {"metadata": {"b": "2"}})
    assert merged.json() == {"metadata": {"a": "1", "b": "2"}}
    replaced = nova.put(path, {"metadata": {"c": "3"}})
    assert replaced.json() == {"metadata": {"c": "3"}}
    assert nova.get(path + "/c").json() == {"meta": {"c": "3"}}
    missing = nova.get(path + "/zz")
    assert fault(missing) == ("itemNotFound", 404, "Metadata item was not found")
    assert nova.put(path + "/d", {"meta": {"d": "4"}}).json() == {"meta": {"d": "4"}}
    mismatch = nova.put(path + "/d", {"meta": {"e": "4"}})
    assert fault(mismatch)[2] == "Request body and URI mismatch"
    assert nova.put(path + "/d", {"meta": {"d": "4", "e": "5"}}).status == 400
    assert nova.delete(path + "/d").status == 204
    assert nova.delete(path + "/d").status == 404
    assert nova.post(path, {"metadata": {"k": "v" * 256}}).status == 400
    too_many = nova.put(path, {"metadata": {"k%d" % i: "v" for i in range(129)}})
    assert too_many.status == 403


def test_metadata_writes_need_a_settled_server(slow_nova):
    server_id = slow_nova.create()
    result = slow_nova.post("/servers/%s/metadata" % server_id, {"metadata": {"a": "b"}})
    assert conflict(result) == (
        "Cannot 'update metadata' instance %s while it is in vm_state building" % server_id
    )


def test_never_launched_server_gets_nova_generic_409_text(shared_nova):
    # check_instance_state(must_have_launched) raises InstanceInvalidState
    # with state=None, which nova renders with its generic message
    nova = shared_nova
    server_id = nova.create()
    nova.show(server_id)
    with nova.cloud.store.transaction() as db:
        db.execute(
            "UPDATE servers SET vm_state = 'error', launched_at = NULL,"
            " power_state = 0 WHERE id = ?",
            (server_id,),
        )
    result = nova.action(server_id, {"os-stop": None})
    assert conflict(result) == ("Instance %s is in an invalid state for 'stop'" % server_id)


@pytest.mark.parametrize(
    "task,ok",
    [
        ("rebooting", True),
        ("reboot_pending", True),
        ("reboot_started", True),
        ("rebooting_hard", True),
        ("resuming", True),
        ("unpausing", True),
        ("pausing", True),
        ("suspending", True),
        ("reboot_pending_hard", False),
        ("reboot_started_hard", False),
        ("powering-off", False),
        ("image_uploading", False),
    ],
)
def test_hard_reboot_allowed_task_states(shared_nova, task, ok):
    # contract 3.5 / nova task_states.ALLOW_REBOOT
    nova = shared_nova
    server_id = nova.create()
    nova.show(server_id)
    put_in_state(nova, server_id, "active", task)
    result = nova.action(server_id, {"reboot": {"type": "HARD"}})
    if ok:
        assert result.status == 202, result.body
    else:
        assert conflict(result) == (
            "Cannot 'reboot' instance %s while it is in task_state %s" % (server_id, task)
        )
