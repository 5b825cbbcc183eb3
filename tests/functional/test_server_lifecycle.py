"""``occli server shelve/unshelve/rescue/unrescue/dump create``, ``server set
--state/--password`` and ``server show --diagnostics/--topology`` against a
local cloud: the state machine, the admin-only policies, wrong-state 409s,
old microversions and usage errors (exit 2)."""

import uuid

import pytest

from tests.functional.harness import IMAGE
from tests.functional.harness import as_json
from tests.functional.harness import ok
from tests.functional.harness import point_client_at
from tests.functional.harness import start_localcloud

WAIT = ("--wait", "--wait-interval", "0.05")


@pytest.fixture(scope="module")
def keeping_cloud():
    """A cloud that keeps shelved servers on their host (offload time -1)."""
    running = start_localcloud(shelved_offload_time=-1)
    yield running
    running.stop()


@pytest.fixture
def occli(occli_env, run_occli):
    def run(*argv, cloud="local"):
        return run_occli("--os-cloud", cloud, *argv)

    return run


@pytest.fixture
def keeping(keeping_cloud, monkeypatch, tmp_path, run_occli):
    point_client_at(keeping_cloud, monkeypatch, tmp_path / "cache")

    def run(*argv, cloud="local"):
        return run_occli("--os-cloud", cloud, *argv)

    return run


def _boot(occli):
    """A new ACTIVE server of demo's: its ID (admins look servers up by ID)."""
    name = "lc-" + uuid.uuid4().hex[:8]
    return as_json(
        occli(
            "server", "create", name, "--image", IMAGE, "--flavor", "m1.tiny",
            "--nic", "none", *WAIT, "-f", "json",
        )
    )["id"]  # fmt: skip


@pytest.fixture
def server(occli):
    name = _boot(occli)
    yield name
    occli("server", "delete", name, *WAIT, cloud="local-admin")


@pytest.fixture
def kept(keeping):
    name = _boot(keeping)
    yield name
    keeping("server", "delete", name, *WAIT, cloud="local-admin")


def status(run, name):
    shown = as_json(run("server", "show", name, "-f", "json", cloud="local-admin"))
    return shown["status"], shown["OS-EXT-SRV-ATTR:host"]


def test_shelve_offloads_at_once_and_unshelve_reschedules(occli, server):
    ok(occli("server", "shelve", server, *WAIT))
    assert status(occli, server) == ("SHELVED_OFFLOADED", None)
    # shelved already: left alone, as OSC does
    ok(occli("server", "shelve", server))
    code, _, err = occli("server", "rescue", server)
    assert code == 1
    assert "while it is in vm_state shelved_offloaded" in err
    ok(occli("server", "unshelve", server, "--availability-zone", "nova", *WAIT))
    state, host = status(occli, server)
    assert state == "ACTIVE" and host


def test_shelve_keeps_the_host_then_offload_is_admin_only(keeping, kept):
    ok(keeping("server", "shelve", kept, *WAIT))
    state, host = status(keeping, kept)
    assert state == "SHELVED" and host
    # a zone is only for offloaded servers (nova's 409)
    code, _, err = keeping("server", "unshelve", kept, "--availability-zone", "nova")
    assert code == 1
    assert "The server status must be SHELVED_OFFLOADED" in err
    code, _, err = keeping("server", "shelve", kept, "--offload")
    assert code == 1
    assert "os_compute_api:os-shelve:shelve_offload" in err
    ok(keeping("server", "shelve", kept, "--offload", *WAIT, cloud="local-admin"))
    assert status(keeping, kept) == ("SHELVED_OFFLOADED", None)
    # a host needs 2.91 and an admin
    code, _, err = keeping("--os-compute-api-version", "2.90", "server", "unshelve", kept,
                           "--host", "host2")  # fmt: skip
    assert code == 1
    assert "2.91" in err
    code, _, err = keeping("server", "unshelve", kept, "--host", "host2")
    assert code == 1
    assert "os_compute_api:os-shelve:unshelve_to_host" in err
    ok(keeping("server", "unshelve", kept, "--host", "host2", *WAIT, cloud="local-admin"))
    assert status(keeping, kept) == ("ACTIVE", "host2")


def test_unshelve_in_place_and_wrong_state(keeping, kept):
    code, _, err = keeping("server", "unshelve", kept)
    assert code == 1
    assert "Cannot 'unshelve' instance" in err and "vm_state active" in err
    ok(keeping("server", "shelve", kept, *WAIT))
    ok(keeping("server", "unshelve", kept, *WAIT))
    state, host = status(keeping, kept)
    assert state == "ACTIVE" and host


def test_unshelve_options_are_usage_errors_together(occli):
    code, _, err = occli(
        "server", "unshelve", "x", "--availability-zone", "nova", "--no-availability-zone"
    )
    assert code == 2
    assert "cannot be combined" in err
    code, _, err = occli(
        "--os-compute-api-version", "2.76", "server", "unshelve", "x",
        "--availability-zone", "nova",
    )  # fmt: skip
    assert code == 1
    assert "2.77" in err


def test_rescue_prints_the_password_and_unrescue(occli, server):
    shown = as_json(occli("server", "rescue", server, "--password", "s3cret", *WAIT, "-f", "json"))
    assert shown == {"adminPass": "s3cret"}
    assert status(occli, server)[0] == "RESCUE"
    code, _, err = occli("server", "rescue", server)
    assert code == 1
    assert "while it is in vm_state rescued" in err
    ok(occli("server", "unrescue", server, *WAIT))
    assert status(occli, server)[0] == "ACTIVE"
    code, _, err = occli("server", "unrescue", server)
    assert code == 1
    assert "Cannot 'unrescue' instance" in err
    generated = as_json(occli("server", "rescue", server, "--image", IMAGE, "-f", "json"))
    assert len(generated["adminPass"]) >= 8
    code, _, err = occli("server", "shelve", server)
    assert code == 1
    assert "Cannot 'shelve' instance" in err and "vm_state rescued" in err


def test_rescue_of_a_locked_server_is_409(occli, server):
    ok(occli("server", "lock", server))
    code, _, err = occli("server", "rescue", server)
    assert code == 1
    assert "is locked" in err
    ok(occli("server", "unlock", server))


def test_set_state_is_admin_only(occli, server):
    code, _, err = occli("server", "set", server, "--state", "error")
    assert code == 1
    assert "os_compute_api:os-admin-actions:reset_state" in err
    ok(occli("server", "set", server, "--state", "error", cloud="local-admin"))
    assert status(occli, server)[0] == "ERROR"
    ok(occli("server", "set", server, "--state", "active", cloud="local-admin"))
    assert status(occli, server)[0] == "ACTIVE"
    code, _, err = occli("server", "set", server, "--state", "paused")
    assert code == 2


def test_set_password(occli, server):
    ok(occli("server", "set", server, "--password", "n3w-pass"))
    ok(occli("server", "stop", server, *WAIT))
    code, _, err = occli("server", "set", server, "--password", "again")
    assert code == 1
    assert "Cannot 'changePassword' instance" in err


def test_set_password_without_a_terminal_is_a_usage_error(occli, monkeypatch):
    monkeypatch.setattr("sys.stdin.isatty", lambda: False, raising=False)
    code, _, err = occli("server", "set", "vm-none", "--password")
    assert code == 2
    assert "--password needs a value" in err


def test_show_diagnostics_admin_only(occli, server):
    code, _, err = occli("server", "show", server, "--diagnostics")
    assert code == 1
    assert "os_compute_api:os-server-diagnostics" in err
    shown = as_json(occli("server", "show", server, "--diagnostics", "-f", "json",
                          cloud="local-admin"))  # fmt: skip
    assert shown["driver"] == "libvirt" and shown["state"] == "running"


def test_show_topology(occli, server):
    shown = as_json(occli("server", "show", server, "--topology", "-f", "json"))
    assert shown["topology"] == {"nodes": [], "pagesize_kb": None}
    code, _, err = occli("--os-compute-api-version", "2.77", "server", "show", server,
                         "--topology")  # fmt: skip
    assert code == 1
    assert "2.78" in err
    code, _, _ = occli("server", "show", server, "--topology", "--diagnostics")
    assert code == 2


def test_dump_create(occli, server):
    ok(occli("server", "dump", "create", server))
    ok(occli("server", "stop", server, *WAIT))
    code, _, err = occli("server", "dump", "create", server)
    assert code == 1
    assert "Cannot 'trigger_crash_dump' instance" in err
    code, _, err = occli("--os-compute-api-version", "2.16", "server", "dump", "create", server)
    assert code == 1
    assert "2.17" in err


def test_set_password_prompts_twice_on_a_terminal(occli, server, monkeypatch):
    answers = iter(["Typ3d-pass", "Typ3d-pass", "one", "other"])
    prompts = []

    def fake_getpass(prompt):
        prompts.append(prompt)
        return next(answers)

    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
    monkeypatch.setattr("getpass.getpass", fake_getpass)
    code, out, err = occli("server", "set", server, "--password")
    assert code == 0, err
    assert prompts == ["New password: ", "Retype new password: "]
    assert "Typ3d-pass" not in out + err
    code, _, err = occli("server", "set", server, "--password")
    assert code == 2
    assert "Passwords do not match." in err


def test_set_no_password_clears_the_metadata_password(occli, server):
    code, _, err = occli("--debug", "server", "set", server, "--no-password")
    assert code == 0, err
    assert "DELETE" in err and "/os-server-password" in err
    # with --password, or on an unknown server: errors, nothing deleted
    code, _, err = occli("server", "set", server, "--no-password", "--password", "x")
    assert code == 2 and "not both" in err
    code, _, err = occli("server", "set", "vm-none-such", "--no-password")
    assert code == 1 and "No server with a name or ID of 'vm-none-such'" in err
