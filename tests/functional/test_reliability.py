"""The real CLI against a misbehaving local cloud (its fault injection):
transient failures of idempotent requests are retried, a POST never is, and
a malformed body is one clear line."""

import json

import pytest


SERVERS = "^/compute/v2.1/servers/detail"


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch):
    monkeypatch.setattr("keystoneauth1.session.time.sleep", lambda s: None)


def test_503s_on_a_list_are_retried(occli_env, run_occli):
    occli_env.faults.add({"method": "GET", "path": SERVERS, "count": 2,
                          "kind": "status", "status": 503})
    code, out, err = run_occli("server", "list", "-f", "json")
    assert code == 0, err
    assert isinstance(json.loads(out), list)
    assert occli_env.faults.rules()[0]["remaining"] == 0


def test_dropped_connection_on_a_list_is_retried(occli_env, run_occli):
    occli_env.faults.add({"method": "GET", "path": SERVERS, "count": 1,
                          "kind": "close"})
    code, out, err = run_occli("server", "list", "-f", "json")
    assert code == 0, err


def test_a_failed_create_is_not_repeated(occli_env, run_occli):
    before = run_occli("server", "list", "-f", "json")[1]
    occli_env.faults.add({"method": "POST", "path": "^/compute/v2.1/servers$",
                          "count": 1, "kind": "status", "status": 503})
    code, out, err = run_occli("server", "create", "never", "--image",
                           "cirros-0.6.2-x86_64-disk", "--flavor", "m1.tiny",
                           "--nic", "none")
    assert code == 1
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and "(HTTP 503)" in err
    after = run_occli("server", "list", "-f", "json")[1]
    assert json.loads(after) == json.loads(before)


def test_malformed_body_is_one_clear_line(occli_env, run_occli):
    occli_env.faults.add({"method": "GET", "path": SERVERS, "count": 1,
                          "kind": "malformed"})
    code, out, err = run_occli("server", "list")
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("The server answered with a body that is not "
                               "JSON (HTTP 200) (Request-ID: req-")
    assert "Traceback" not in err


@pytest.mark.parametrize("kind", ["status", "malformed", "close"])
def test_one_failed_version_discovery_does_not_wedge_the_cli(
        occli_env, run_occli, kind):
    occli_env.faults.add({"method": "GET", "path": "^/compute/v2.1/?$",
                          "count": 1, "kind": kind})
    code, out, err = run_occli("--retries", "0", "server", "list")
    assert code == 1
    assert err.splitlines() == ["Could not read the compute API versions at "
                                "%s/compute/v2.1 (see --debug)." % occli_env.url]
    for _ in range(2):
        code, out, err = run_occli("server", "list", "-f", "json")
        assert code == 0, err
        assert isinstance(json.loads(out), list)


def test_a_failed_version_discovery_is_retried(occli_env, run_occli):
    occli_env.faults.add({"method": "GET", "path": "^/compute/v2.1/?$",
                          "count": 2, "kind": "status", "status": 503})
    code, out, err = run_occli("server", "list", "-f", "json")
    assert code == 0, err
    assert occli_env.faults.rules()[0]["remaining"] == 0
