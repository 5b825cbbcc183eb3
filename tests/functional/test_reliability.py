"""The real CLI against a misbehaving local cloud (its fault injection):
transient failures of idempotent requests are retried, a POST never is, and
a malformed body is one clear line."""

import json

import pytest

from tests.functional.harness import ok

SERVERS = "^/compute/v2.1/servers/detail"


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch):
    monkeypatch.setattr("keystoneauth1.session.time.sleep", lambda s: None)


def test_503s_on_a_list_are_retried(occli_env, run_occli):
    occli_env.faults.add(
        {"method": "GET", "path": SERVERS, "count": 2, "kind": "status", "status": 503}
    )
    code, out, err = run_occli("server", "list", "-f", "json")
    assert code == 0, err
    assert isinstance(json.loads(out), list)
    assert occli_env.faults.rules()[0]["remaining"] == 0


def test_dropped_connection_on_a_list_is_retried(occli_env, run_occli):
    expected = json.loads(ok(run_occli("server", "list", "-f", "json")))
    occli_env.faults.add({"method": "GET", "path": SERVERS, "count": 1, "kind": "close"})
    code, out, err = run_occli("server", "list", "-f", "json")
    assert (code, err) == (0, "")
    assert json.loads(out) == expected
    # the list was asked for, the connection dropped, and asked for again
    assert occli_env.faults.rules()[0]["remaining"] == 0


def test_a_failed_create_is_not_repeated(occli_env, run_occli):
    before = run_occli("server", "list", "-f", "json")[1]
    occli_env.faults.add(
        {
            "method": "POST",
            "path": "^/compute/v2.1/servers$",
            "count": 1,
            "kind": "status",
            "status": 503,
        }
    )
    code, out, err = run_occli(
        "server",
        "create",
        "never",
        "--image",
        "cirros-0.6.2-x86_64-disk",
        "--flavor",
        "m1.tiny",
        "--nic",
        "none",
    )
    assert code == 1
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and "(HTTP 503)" in err
    after = run_occli("server", "list", "-f", "json")[1]
    assert json.loads(after) == json.loads(before)


def test_malformed_body_is_one_clear_line(occli_env, run_occli):
    occli_env.faults.add({"method": "GET", "path": SERVERS, "count": 1, "kind": "malformed"})
    code, out, err = run_occli("server", "list")
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(
        "The server answered with a body that is not JSON (HTTP 200) (Request-ID: req-"
    )
    assert "Traceback" not in err


@pytest.mark.parametrize("kind", ["status", "malformed", "close"])
def test_one_failed_version_discovery_does_not_wedge_the_cli(occli_env, run_occli, kind):
    occli_env.faults.add({"method": "GET", "path": "^/compute/v2.1/?$", "count": 1, "kind": kind})
    code, out, err = run_occli("--retries", "0", "server", "list")
    assert code == 1
    assert err.splitlines() == [
        "Could not read the compute API versions at %s/compute/v2.1 (see --debug)." % occli_env.url
    ]
    for _ in range(2):
        code, out, err = run_occli("server", "list", "-f", "json")
        assert code == 0, err
        assert isinstance(json.loads(out), list)


def test_a_failed_version_discovery_is_retried(occli_env, run_occli):
    occli_env.faults.add(
        {"method": "GET", "path": "^/compute/v2.1/?$", "count": 2, "kind": "status", "status": 503}
    )
    code, out, err = run_occli("server", "list", "-f", "json")
    assert code == 0, err
    assert occli_env.faults.rules()[0]["remaining"] == 0


ONE_SERVER = "^/compute/v2.1/servers/[0-9a-f-]{36}$"
IMAGE = "cirros-0.6.2-x86_64-disk"


def servers_named(run_occli, name):
    code, out, err = run_occli("server", "list", "--name", "^%s" % name, "-f", "json")
    assert code == 0, err
    return json.loads(out)


def delete_servers(run_occli, servers):
    for server in servers:
        assert (
            run_occli("server", "delete", server["ID"], "--wait", "--wait-interval", "0.05")[0]
            == 0
        )


@pytest.mark.parametrize("kind", ["status", "close"])
def test_create_wait_polls_again_after_transient_failures(occli_env, run_occli, kind):
    name = "poll-" + kind
    occli_env.faults.add({"method": "GET", "path": ONE_SERVER, "count": 3, "kind": kind})
    code, out, err = run_occli(
        "--retries",
        "0",
        "server",
        "create",
        name,
        "--image",
        IMAGE,
        "--flavor",
        "m1.tiny",
        "--nic",
        "none",
        "--wait",
        "--wait-interval",
        "0.05",
        "-f",
        "json",
    )
    assert code == 0, err
    assert json.loads(out)["status"] == "ACTIVE"
    assert occli_env.faults.rules()[0]["remaining"] == 0
    delete_servers(run_occli, servers_named(run_occli, name))


@pytest.mark.parametrize("kind", ["status", "close"])
def test_create_wait_failure_names_the_created_server(occli_env, run_occli, kind):
    name = "dup-" + kind
    occli_env.faults.add({"method": "GET", "path": ONE_SERVER, "count": 50, "kind": kind})
    code, out, err = run_occli(
        "server",
        "create",
        name,
        "--image",
        IMAGE,
        "--flavor",
        "m1.tiny",
        "--nic",
        "none",
        "--wait",
        "--wait-interval",
        "0.05",
    )
    occli_env.faults.clear()
    assert code == 1
    assert out == ""
    [server] = servers_named(run_occli, name)
    [line] = err.splitlines()
    assert line.startswith(
        "Server %s (id %s) was created but waiting failed: " % (name, server["ID"])
    )
    assert ("(HTTP 503)" if kind == "status" else "Unable to establish connection") in line
    delete_servers(run_occli, [server])


def test_create_several_listing_failure_names_the_reservation(occli_env, run_occli):
    occli_env.faults.add(
        {"method": "GET", "path": SERVERS, "count": 50, "kind": "status", "status": 502}
    )
    code, out, err = run_occli(
        "server",
        "create",
        "many",
        "--image",
        IMAGE,
        "--flavor",
        "m1.tiny",
        "--nic",
        "none",
        "--min",
        "2",
        "--max",
        "2",
        "--wait",
        "--wait-interval",
        "0.05",
    )
    occli_env.faults.clear()
    assert code == 1
    [line] = err.splitlines()
    assert line.startswith("The servers of reservation r-")
    assert "were created but listing them failed: " in line
    assert "(HTTP 502)" in line
    servers = servers_named(run_occli, "many-")
    assert len(servers) == 2
    delete_servers(run_occli, servers)
