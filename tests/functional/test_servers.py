"""``occli server …`` against the real local cloud (demo user, cloud ``local``)."""

import json
import os
import subprocess
import sys
import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import ok

IMAGE = "cirros-0.6.2-x86_64-disk"
OTHER_IMAGE = "ubuntu-24.04"


@pytest.fixture
def occli(occli_env, run_occli):
    return run_occli


@pytest.fixture
def server(occli):
    """A fresh ACTIVE server (deleted afterwards); returns its show dict."""
    name = "ft-" + uuid.uuid4().hex[:8]
    shown = as_json(
        occli(
            "server",
            "create",
            name,
            "--image",
            IMAGE,
            "--flavor",
            "m1.tiny",
            "--wait",
            "--wait-interval",
            "0.1",
            "-f",
            "json",
        )
    )
    yield shown
    occli("server", "unlock", shown["id"])
    occli("server", "delete", shown["id"], "--wait", "--wait-interval", "0.1")


def show(occli, ref):
    return as_json(occli("server", "show", ref, "-f", "json"))


def test_create_wait_shows_active_server_and_admin_pass(occli, server):
    assert server["status"] == "ACTIVE"
    assert server["OS-EXT-STS:task_state"] is None
    assert server["adminPass"]
    assert server["flavor"]["original_name"] == "m1.tiny"
    assert server["image"].startswith(IMAGE + " (")  # OSC's "name (id)"
    assert "links" not in server
    # adminPass is shown once, never by later GETs
    assert "adminPass" not in show(occli, server["id"])


def test_list_table_and_json(occli, server):
    out = ok(occli("server", "list"))
    assert server["name"] in out and IMAGE in out and "m1.tiny" in out
    rows = as_json(occli("server", "list", "--name", server["name"], "-f", "json"))
    assert [(r["ID"], r["Status"], r["Image"], r["Flavor"]) for r in rows] == [
        (server["id"], "ACTIVE", IMAGE, "m1.tiny")
    ]
    assert rows[0]["Networks"] == server["addresses"]
    long_rows = as_json(occli("server", "list", "--long", "--name", server["name"], "-f", "json"))
    assert long_rows[0]["Power State"] == 1  # Nova's number in JSON, as OSC's
    assert long_rows[0]["Task State"] is None


def test_list_filters_sort_and_limit(occli, server):
    other = as_json(
        occli(
            "server",
            "create",
            server["name"] + "-b",
            "--image",
            IMAGE,
            "--flavor",
            "m1.tiny",
            "--wait",
            "--wait-interval",
            "0.1",
            "-f",
            "json",
        )
    )
    try:
        prefix = "^" + server["name"]
        rows = as_json(
            occli("server", "list", "--name", prefix, "--sort", "display_name:asc", "-f", "json")
        )
        assert [r["Name"] for r in rows] == [server["name"], other["name"]]
        rows = as_json(
            occli(
                "server",
                "list",
                "--name",
                prefix,
                "--sort",
                "display_name:desc",
                "--limit",
                "1",
                "-f",
                "json",
            )
        )
        assert [r["Name"] for r in rows] == [other["name"]]
        rows = as_json(
            occli("server", "list", "--name", prefix, "--status", "shutoff", "-f", "json")
        )
        assert rows == []
        rows = as_json(
            occli(
                "server",
                "list",
                "--name",
                prefix,
                "--image",
                IMAGE,
                "--flavor",
                "m1.tiny",
                "-f",
                "json",
            )
        )
        assert len(rows) == 2
    finally:
        ok(occli("server", "delete", other["id"], "--wait", "--wait-interval", "0.1"))


def test_show_by_name_and_missing(occli, server):
    assert show(occli, server["name"])["id"] == server["id"]
    code, out, err = occli("server", "show", "no-such-server")
    assert code == 1
    assert err.strip() == ("No server with a name or ID of 'no-such-server' exists. (HTTP 404)")


def test_set_and_unset(occli, server):
    ok(
        occli(
            "server",
            "set",
            server["id"],
            "--property",
            "role=web",
            "--property",
            "tier=1",
            "--description",
            "a web server",
        )
    )
    shown = show(occli, server["id"])
    assert shown["properties"] == {"role": "web", "tier": "1"}
    assert shown["description"] == "a web server"
    new_name = server["name"] + "-renamed"
    ok(occli("server", "set", server["id"], "--name", new_name))
    ok(occli("server", "unset", new_name, "--property", "tier"))
    shown = show(occli, server["id"])
    assert shown["name"] == new_name
    assert shown["properties"] == {"role": "web"}


def test_stop_start_reboot_pause_suspend(occli, server):
    sid = server["id"]
    for verb, status in (
        ("stop", "SHUTOFF"),
        ("start", "ACTIVE"),
        ("reboot", "ACTIVE"),
        ("pause", "PAUSED"),
        ("unpause", "ACTIVE"),
        ("suspend", "SUSPENDED"),
        ("resume", "ACTIVE"),
    ):
        ok(occli("server", verb, sid, "--wait", "--wait-interval", "0.1"))
        shown = show(occli, sid)
        assert (verb, shown["status"], shown["OS-EXT-STS:task_state"]) == (verb, status, None)
    ok(occli("server", "reboot", "--hard", sid, "--wait", "--wait-interval", "0.1"))
    assert show(occli, sid)["status"] == "ACTIVE"


def test_wrong_state_is_a_409_line(occli, server):
    code, out, err = occli("server", "start", server["id"])
    assert code == 1
    assert err.startswith("Failed to start server %s: " % server["id"])
    assert "(HTTP 409)" in err and len(err.strip().splitlines()) == 1


def test_lock_blocks_delete_for_the_demo_user(occli, server):
    sid = server["id"]
    ok(occli("server", "lock", "--reason", "maintenance", sid))
    shown = show(occli, sid)
    assert shown["locked"] is True
    assert shown["locked_reason"] == "maintenance"
    code, out, err = occli("server", "delete", sid)
    assert code == 1
    assert "(HTTP 409)" in err and "locked" in err
    ok(occli("server", "unlock", sid))
    assert show(occli, sid)["locked"] is False


def test_several_servers_partial_failure(occli, server):
    code, out, err = occli(
        "server", "stop", server["id"], "ghost-server", "--wait", "--wait-interval", "0.1"
    )
    assert code == 1
    assert err.strip() == (
        "Failed to stop server ghost-server: No server with "
        "a name or ID of 'ghost-server' exists. (HTTP 404)"
    )
    assert show(occli, server["id"])["status"] == "SHUTOFF"


def test_resize_confirm(occli, server):
    sid = server["id"]
    ok(occli("server", "resize", sid, "--flavor", "m1.small", "--wait", "--wait-interval", "0.1"))
    assert show(occli, sid)["status"] == "VERIFY_RESIZE"
    ok(occli("server", "resize", "confirm", sid, "--wait", "--wait-interval", "0.1"))
    shown = show(occli, sid)
    assert shown["status"] == "ACTIVE"
    assert shown["flavor"]["original_name"] == "m1.small"


def test_resize_revert(occli, server):
    sid = server["id"]
    ok(occli("server", "resize", sid, "--flavor", "m1.small", "--wait", "--wait-interval", "0.1"))
    ok(occli("server", "resize", "revert", sid, "--wait", "--wait-interval", "0.1"))
    shown = show(occli, sid)
    assert shown["status"] == "ACTIVE"
    assert shown["flavor"]["original_name"] == "m1.tiny"


def test_rebuild(occli, server):
    shown = as_json(
        occli(
            "server",
            "rebuild",
            server["id"],
            "--image",
            OTHER_IMAGE,
            "--name",
            server["name"] + "-rebuilt",
            "--wait",
            "--wait-interval",
            "0.1",
            "-f",
            "json",
        )
    )
    assert shown["status"] == "ACTIVE"
    assert shown["name"] == server["name"] + "-rebuilt"
    assert shown["image"].startswith(OTHER_IMAGE + " (")
    assert shown["adminPass"]


def test_console_log(occli, server):
    out = ok(occli("server", "console", "log", server["id"]))
    assert "login:" in out
    last = ok(occli("server", "console", "log", server["id"], "--lines", "1"))
    assert last.strip() == out.strip().splitlines()[-1].strip()


def test_create_with_file_options_and_nic(occli, tmp_path):
    motd = tmp_path / "motd"
    motd.write_text("hello\n")
    name = "ft-" + uuid.uuid4().hex[:8]
    shown = as_json(
        occli(
            "server",
            "create",
            name,
            "--image",
            IMAGE,
            "--flavor",
            "m1.tiny",
            "--file",
            "/etc/motd=%s" % motd,
            "--property",
            "a=b",
            "--nic",
            "net-id=4fd44f30-2920-4a4b-a2b0-0e6c2dbd2a4b",
            "--wait",
            "--wait-interval",
            "0.1",
            "-f",
            "json",
        )
    )
    try:
        assert shown["status"] == "ACTIVE"
        assert shown["properties"] == {"a": "b"}
        assert list(shown["addresses"]) == ["private"]
    finally:
        ok(occli("server", "delete", shown["id"], "--wait", "--wait-interval", "0.1"))


def test_delete_wait_then_gone(occli):
    name = "ft-" + uuid.uuid4().hex[:8]
    created = as_json(
        occli("server", "create", name, "--image", IMAGE, "--flavor", "m1.tiny", "-f", "json")
    )
    ok(occli("server", "delete", name, "--wait", "--wait-interval", "0.1"))
    code, out, err = occli("server", "show", created["id"])
    assert code == 1 and "(HTTP 404)" in err


def _run(*argv):
    return subprocess.run(
        [sys.executable, "-m", "occli.shell", *argv],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=120,
    )


def test_subprocess_exit_codes(occli_env):
    bad_flag = _run("server", "list", "--no-such-flag")
    assert bad_flag.returncode == 2
    assert "Traceback" not in bad_flag.stderr
    missing = _run("server", "show", "no-such-server")
    assert missing.returncode == 1
    assert missing.stdout == ""
    lines = missing.stderr.strip().splitlines()
    assert len(lines) == 1 and "(HTTP 404)" in lines[0]
    listed = _run("server", "list", "-f", "json")
    assert listed.returncode == 0, listed.stderr
    assert isinstance(json.loads(listed.stdout), list)


def _access_log(localcloud):
    path = os.path.join(localcloud.data_dir, "access.log")
    with open(path) as f:
        return f.read().splitlines()


def test_list_names_images_with_one_glance_request(occli, occli_env, server):
    other = as_json(
        occli(
            "server",
            "create",
            server["name"] + "-u",
            "--image",
            OTHER_IMAGE,
            "--flavor",
            "m1.tiny",
            "-f",
            "json",
        )
    )
    try:
        before = len(_access_log(occli_env))
        rows = as_json(occli("server", "list", "--name", "^" + server["name"], "-f", "json"))
        assert sorted(r["Image"] for r in rows) == sorted([IMAGE, OTHER_IMAGE])
        lines = _access_log(occli_env)[before:]
        glance = [line for line in lines if line.startswith("GET /image/v2/images")]
        assert len(glance) == 1, lines
        path = glance[0].split()[1]
        assert "id=in%3A" in path and " 200 " in glance[0]
    finally:
        ok(occli("server", "delete", other["id"], "--wait", "--wait-interval", "0.1"))


def test_create_boot_from_volume_accepted(occli):
    # no --swap/--ephemeral: the seeded flavors have swap 0 and ephemeral 0,
    # which real Nova enforces on blank local disks (400)
    name = "ft-" + uuid.uuid4().hex[:8]
    shown = as_json(
        occli(
            "server",
            "create",
            name,
            "--image",
            IMAGE,
            "--flavor",
            "m1.small",
            "--boot-from-volume",
            "2",
            "--delete-on-termination",
            "--wait",
            "--wait-interval",
            "0.1",
            "-f",
            "json",
        )
    )
    try:
        assert shown["status"] == "ACTIVE"
        # "" in the API: volume-backed, shown as OSC shows it
        assert shown["image"] == "N/A (booted from volume)"
        volumes = shown["volumes_attached"]
        assert [v["delete_on_termination"] for v in volumes] == [True]
    finally:
        ok(occli("server", "delete", shown["id"], "--wait", "--wait-interval", "0.1"))


def test_create_several_wait_lists_them_all(occli):
    name = "ft-" + uuid.uuid4().hex[:8]
    shown = as_json(
        occli(
            "server",
            "create",
            name,
            "--image",
            IMAGE,
            "--flavor",
            "m1.tiny",
            "--min",
            "2",
            "--max",
            "3",
            "--wait",
            "--wait-interval",
            "0.1",
            "-f",
            "json",
        )
    )
    try:
        assert shown["reservation_id"].startswith("r-")
        assert [(s["name"], s["status"]) for s in shown["servers"]] == [
            (name + "-1", "ACTIVE"),
            (name + "-2", "ACTIVE"),
            (name + "-3", "ACTIVE"),
        ]
    finally:
        ok(
            occli(
                "server",
                "delete",
                *[s["id"] for s in shown["servers"]],
                "--wait",
                "--wait-interval",
                "0.1",
            )
        )


def test_set_hostname_and_unset_description(occli, server):
    sid = server["id"]
    ok(occli("server", "set", sid, "--description", "d", "--hostname", "renamed-host"))
    shown = show(occli, sid)
    assert shown["description"] == "d"
    assert shown["OS-EXT-SRV-ATTR:hostname"] == "renamed-host"
    ok(occli("server", "unset", sid, "--description"))
    assert show(occli, sid)["description"] is None


def test_create_host_is_admin_only(occli):
    code, out, err = occli(
        "server",
        "create",
        "ft-host",
        "--image",
        IMAGE,
        "--flavor",
        "m1.tiny",
        "--host",
        "compute1",
    )
    assert code == 1
    assert "(HTTP 403)" in err and len(err.strip().splitlines()) == 1
