"""``occli server event list/show`` against a local cloud: what each action
recorded, the views of a member and an admin, paging and filters, a deleted
server's actions, and the failure paths (old microversion, unknown request
id, usage errors)."""

import uuid

import pytest

from tests.functional.harness import IMAGE
from tests.functional.harness import as_json
from tests.functional.harness import ok

WAIT = ("--wait", "--wait-interval", "0.05")


@pytest.fixture
def occli(occli_env, run_occli):
    def run(*argv, cloud="local"):
        return run_occli("--os-cloud", cloud, *argv)

    return run


@pytest.fixture
def server(occli):
    name = "ev-" + uuid.uuid4().hex[:8]
    server_id = as_json(
        occli(
            "server", "create", name, "--image", IMAGE, "--flavor", "m1.tiny",
            "--nic", "none", *WAIT, "-f", "json",
        )
    )["id"]  # fmt: skip
    yield server_id
    occli("server", "delete", server_id, *WAIT, cloud="local-admin")


def events(occli, server, *extra, cloud="local"):
    return as_json(occli("server", "event", "list", server, "-f", "json", *extra, cloud=cloud))


def test_list_shows_each_action_newest_first(occli, server):
    ok(occli("server", "stop", server, *WAIT))
    ok(occli("server", "rescue", server, *WAIT))
    listed = events(occli, server)
    assert [e["Action"] for e in listed] == ["rescue", "stop", "create"]
    assert set(listed[0]) == {"Request ID", "Server ID", "Action", "Start Time"}
    assert {e["Server ID"] for e in listed} == {server}
    long = events(occli, server, "--long")
    assert {"Message", "Project ID", "User ID", "Updated At"} <= set(long[0])


def test_show_events_member_and_admin(occli, server):
    ok(occli("server", "stop", server, *WAIT))
    stop = events(occli, server)[0]["Request ID"]
    shown = as_json(occli("server", "event", "show", server, stop, "-f", "json"))
    assert shown["action"] == "stop"
    (event,) = shown["events"]
    assert event["event"] == "compute_stop_instance" and event["result"] == "Success"
    assert "host" not in event and "traceback" not in event
    admin = as_json(
        occli("server", "event", "show", server, stop, "-f", "json", cloud="local-admin")
    )
    assert admin["events"][0]["host"].startswith("host")
    table = ok(occli("server", "event", "show", server, stop))
    assert "compute_stop_instance: Success" in table
    # before 2.51 only admins see the events
    old = as_json(
        occli("--os-compute-api-version", "2.50", "server", "event", "show", server, stop,
              "-f", "json")
    )  # fmt: skip
    assert "events" not in old


def test_paging_and_filters(occli, server):
    ok(occli("server", "lock", server))
    ok(occli("server", "unlock", server))
    first = events(occli, server, "--limit", "1")
    assert [e["Action"] for e in first] == ["unlock"]
    rest = events(occli, server, "--marker", first[0]["Request ID"])
    assert [e["Action"] for e in rest] == ["lock", "create"]
    assert events(occli, server, "--changes-since", "2999-01-01T00:00:00Z") == []
    before = events(occli, server, "--changes-before", "2000-01-01T00:00:00Z")
    assert before == []


def test_failure_paths(occli, server):
    code, _, err = occli(
        "--os-compute-api-version", "2.57", "server", "event", "list", server, "--limit", "1"
    )
    assert code == 1
    assert "2.58" in err
    code, _, err = occli(
        "--os-compute-api-version", "2.65", "server", "event", "list", server,
        "--changes-before", "2000-01-01T00:00:00Z",
    )  # fmt: skip
    assert code == 1
    assert "2.66" in err
    code, _, err = occli("server", "event", "list", server, "--limit", "-2")
    assert code == 2
    code, _, err = occli("server", "event", "list", server, "--marker", "req-nope")
    assert code == 1
    assert "Marker None could not be found." in err
    code, _, err = occli("server", "event", "show", server, "req-nope")
    assert code == 1
    assert "Action req-nope not found" in err


def test_a_deleted_servers_actions_by_id(occli, server):
    ok(occli("server", "delete", server, *WAIT))
    listed = events(occli, server)
    assert [e["Action"] for e in listed] == ["delete", "create"]
    code, _, err = occli("--os-compute-api-version", "2.20", "server", "event", "list", server)
    assert code == 1
    assert "could not be found" in err
