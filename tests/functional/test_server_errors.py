"""A build the scheduler cannot place, end to end: the real ``occli`` CLI
(in-process) against a private local cloud over HTTP.

Scheduler hints that contradict each other (``same_host`` and
``different_host`` of the same server) are the operator-realistic way to
get nova's ``No valid host was found`` — no seeded flavor outgrows the
local cloud's hosts.
"""

import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import ok
from tests.functional.harness import point_client_at
from tests.functional.harness import start_localcloud

IMAGE = "cirros-0.6.2-x86_64-disk"
NO_VALID_HOST = "No valid host was found. There are not enough hosts available."


@pytest.fixture(scope="module")
def error_cloud():
    running = start_localcloud(build_time=0.3)
    yield running
    running.stop()


@pytest.fixture
def occli(error_cloud, monkeypatch, tmp_path, run_occli):
    """Run ``occli ARGV…`` in-process as demo: (exit code, stdout, stderr)."""
    point_client_at(error_cloud, monkeypatch, tmp_path / "occli-cache", cloud="local")
    return run_occli


def create(occli, name, *extra):
    return occli(
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
        *extra,
    )


def test_unschedulable_build_ends_in_error(occli):
    anchor = as_json(create(occli, "anchor-" + uuid.uuid4().hex[:6], "-f", "json"))
    assert anchor["status"] == "ACTIVE"
    name = "doomed-" + uuid.uuid4().hex[:6]

    code, out, err = create(
        occli,
        name,
        "--hint",
        "same_host=" + anchor["id"],
        "--hint",
        "different_host=" + anchor["id"],
    )
    assert code == 1
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "No valid host was found" in lines[0]
    assert "ERROR" in lines[0]

    listed = as_json(occli("server", "list", "--status", "ERROR", "-f", "json"))
    assert [s["Name"] for s in listed] == [name]
    assert listed[0]["Status"] == "ERROR"
    active = as_json(occli("server", "list", "--status", "ACTIVE", "-f", "json"))
    assert name not in [s["Name"] for s in active]

    shown = as_json(occli("server", "show", name, "-f", "json"))
    assert shown["status"] == "ERROR"
    assert shown["OS-EXT-STS:vm_state"] == "error"
    assert shown["fault"]["code"] == 500
    assert shown["fault"]["message"] == NO_VALID_HOST
    assert "details" not in shown["fault"]  # demo is not an admin
    assert shown["addresses"] == {}

    ok(occli("server", "delete", name, "--wait", "--wait-interval", "0.05"))
    assert as_json(occli("server", "list", "--status", "ERROR", "-f", "json")) == []
    code, _, err = occli("server", "show", name)
    assert code == 1 and err.strip()
    ok(occli("server", "delete", anchor["id"], "--wait", "--wait-interval", "0.05"))


def test_admin_sees_fault_details(occli):
    anchor = as_json(create(occli, "anchor-" + uuid.uuid4().hex[:6], "-f", "json"))
    code, _, _ = create(
        occli,
        "doomed-admin",
        "--hint",
        "same_host=" + anchor["id"],
        "--hint",
        "different_host=" + anchor["id"],
    )
    assert code == 1
    admin = as_json(
        occli(
            "--os-cloud",
            "local-admin",
            "server",
            "list",
            "--all-projects",
            "--status",
            "ERROR",
            "-f",
            "json",
        )
    )
    server_id = [s["ID"] for s in admin if s["Name"] == "doomed-admin"][0]
    shown = as_json(occli("--os-cloud", "local-admin", "server", "show", server_id, "-f", "json"))
    assert shown["fault"]["message"] == NO_VALID_HOST
    assert "NoValidHost" in shown["fault"]["details"]
    assert shown["OS-EXT-SRV-ATTR:host"] is None
    for ref in (server_id, anchor["id"]):
        ok(
            occli(
                "--os-cloud",
                "local-admin",
                "server",
                "delete",
                ref,
                "--wait",
                "--wait-interval",
                "0.05",
            )
        )
