"""Volume commands against the local cloud's Cinder (demo user, cloud
``local``): create, list, show, set, snapshots, delete, and their failure
paths with their exit codes."""

import uuid

import pytest

from tests.functional.harness import IMAGE
from tests.functional.harness import as_json
from tests.functional.harness import ok

WAIT = ("--wait", "--wait-interval", "0.1")


@pytest.fixture
def occli(occli_env, run_occli):
    return run_occli


def unique(prefix):
    return "%s-%s" % (prefix, uuid.uuid4().hex[:8])


@pytest.fixture
def volume(occli):
    """An available 1 GiB volume, deleted afterwards."""
    shown = as_json(occli("volume", "create", unique("vol"), "--size", "1", *WAIT, "-f", "json"))
    yield shown
    occli("volume", "delete", shown["id"], "--purge")


def test_create_wait_list_show(occli, volume):
    assert volume["status"] == "available"
    assert volume["size"] == 1
    rows = as_json(occli("volume", "list", "--name", volume["name"], "-f", "json"))
    assert [(r["ID"], r["Status"], r["Size"], r["Attached to"]) for r in rows] == [
        (volume["id"], "available", 1, [])
    ]
    long_rows = as_json(occli("volume", "list", "--long", "--name", volume["name"], "-f", "json"))
    assert long_rows[0]["Type"] == "__DEFAULT__"
    assert as_json(occli("volume", "show", volume["name"], "-f", "json"))["id"] == volume["id"]


def test_set_name_description_properties(occli, volume):
    new_name = unique("renamed")
    ok(
        occli(
            "volume", "set", volume["id"], "--name", new_name, "--description", "data disk",
            "--property", "tier=gold",
        )
    )  # fmt: skip
    shown = as_json(occli("volume", "show", new_name, "-f", "json"))
    assert (shown["description"], shown["properties"]) == ("data disk", {"tier": "gold"})
    ok(occli("volume", "set", new_name, "--property", "owner=alice"))
    shown = as_json(occli("volume", "show", new_name, "-f", "json"))
    assert shown["properties"] == {"tier": "gold", "owner": "alice"}


def test_snapshot_and_volume_from_it(occli, volume):
    snap_name = unique("snap")
    snap = as_json(
        occli(
            "volume", "snapshot", "create", snap_name, "--volume", volume["name"], *WAIT,
            "-f", "json",
        )
    )  # fmt: skip
    assert snap["status"] == "available" and snap["volume_id"] == volume["id"]
    listed = as_json(occli("volume", "snapshot", "list", "--volume", volume["id"], "-f", "json"))
    assert [s["ID"] for s in listed] == [snap["id"]]
    copy = as_json(
        occli("volume", "create", unique("copy"), "--snapshot", snap_name, *WAIT, "-f", "json")
    )
    try:
        assert (copy["snapshot_id"], copy["size"], copy["status"]) == (snap["id"], 1, "available")
        # a volume with snapshots is refused (400: exit 1) unless purged
        code, out, err = occli("volume", "delete", volume["id"])
        assert code == 1
        assert "Invalid volume" in err and "(HTTP 400)" in err
    finally:
        ok(occli("volume", "delete", copy["id"]))
    ok(occli("volume", "snapshot", "delete", snap_name))
    code, out, err = occli("volume", "snapshot", "show", snap_name)
    assert code == 1


def test_usage_errors_before_any_request(occli):
    for argv, message in (
        (["volume", "create", "x"], "A volume needs a --size unless it copies"),
        (["volume", "create", "x", "--size", "0"], "'0' must be 1 or more"),
        (
            ["volume", "create", "x", "--size", "1", "--image", "i", "--snapshot", "s"],
            "Give one source of --image, --snapshot and --source, not several.",
        ),
        (["volume", "set", "x"], "Nothing to set"),
    ):
        code, out, err = occli(*argv)
        assert code == 2, argv
        assert message in err, argv


def test_unknown_volume(occli):
    code, out, err = occli("volume", "show", "nosuch")
    assert code == 1
    assert err.strip() == "No volume with a name or ID of 'nosuch' exists. (HTTP 404)"
    code, out, err = occli("volume", "delete", "nosuch")
    assert code == 1
    assert "Failed to delete volume nosuch" in err


@pytest.fixture
def vm(occli):
    """An ACTIVE server on ``private``, deleted afterwards."""
    shown = as_json(
        occli(
            "server", "create", unique("vol-vm"), "--image", IMAGE, "--flavor", "m1.tiny",
            "--network", "private", *WAIT, "-f", "json",
        )
    )  # fmt: skip
    yield shown
    occli("server", "delete", shown["id"], *WAIT)


def test_attach_update_detach_tour(occli, vm, volume):
    attached = as_json(occli("server", "add", "volume", vm["name"], volume["name"], "-f", "json"))
    assert (attached["Server ID"], attached["Volume ID"]) == (vm["id"], volume["id"])
    assert attached["Delete On Termination"] is False
    shown = as_json(occli("volume", "show", volume["id"], "-f", "json"))
    assert shown["status"] == "in-use"
    assert [a["server_id"] for a in shown["attachments"]] == [vm["id"]]
    table = ok(occli("volume", "list", "--name", volume["name"], "-c", "Attached to"))
    assert "Attached to %s on %s" % (vm["name"], attached["Device"]) in table
    # an attached volume cannot be deleted: Cinder's 400, exit 1
    code, out, err = occli("volume", "delete", volume["name"])
    assert code == 1
    assert "Invalid volume" in err and "(HTTP 400)" in err
    ok(occli("server", "volume", "update", vm["name"], volume["name"], "--delete-on-termination"))
    rows = as_json(occli("server", "volume", "list", vm["name"], "-f", "json"))
    assert [(r["Volume ID"], r["Delete On Termination"]) for r in rows] == [(volume["id"], True)]
    ok(occli("server", "remove", "volume", vm["name"], volume["name"]))
    assert as_json(occli("server", "volume", "list", vm["name"], "-f", "json")) == []
    assert as_json(occli("volume", "show", volume["id"], "-f", "json"))["status"] == "available"


def test_attachment_options_below_their_microversion(occli, volume):
    code, out, err = occli(
        "--os-compute-api-version", "2.48", "server", "add", "volume", "vm", volume["id"],
        "--tag", "data",
    )  # fmt: skip
    assert code == 1
    assert "2.49" in err
    code, out, err = occli("server", "add", "volume", "no-such-server", volume["id"])
    assert code == 1
    assert "No server with a name or ID of 'no-such-server' exists." in err


def test_boot_from_a_volume_and_from_a_snapshot(occli):
    root = as_json(
        occli(
            "volume", "create", unique("root"), "--size", "1", "--image", IMAGE, *WAIT,
            "-f", "json",
        )
    )  # fmt: skip
    snap = as_json(
        occli(
            "volume", "snapshot", "create", unique("rsnap"), "--volume", root["id"], *WAIT,
            "-f", "json",
        )
    )  # fmt: skip
    servers = []
    try:
        for option in (["--volume", root["name"]], ["--snapshot", snap["name"]]):
            server = as_json(
                occli(
                    "server", "create", unique("bfv"), "--flavor", "m1.tiny", "--nic", "none",
                    *option, *WAIT, "-f", "json",
                )
            )  # fmt: skip
            servers.append(server["id"])
            assert server["status"] == "ACTIVE"
            assert server["image"] == "N/A (booted from volume)"  # as OSC's
            rows = as_json(occli("server", "volume", "list", server["id"], "-f", "json"))
            assert [r["Device"] for r in rows] == ["/dev/vda"]
        assert (
            as_json(occli("server", "volume", "list", servers[0], "-f", "json"))[0]["Volume ID"]
            == root["id"]
        )
    finally:
        for server_id in servers:
            occli("server", "delete", server_id, *WAIT)
        occli("volume", "snapshot", "delete", snap["id"])
        occli("volume", "delete", root["id"], "--purge")


def test_force_delete_is_an_admins(occli, volume):
    code, out, err = occli("volume", "delete", volume["id"], "--force")
    assert code == 1
    assert "volume:force_delete" in err and "(HTTP 403)" in err
    ok(occli("--os-cloud", "local-admin", "volume", "delete", volume["id"], "--force"))
    assert occli("volume", "show", volume["id"])[0] == 1


def test_snapshot_force_delete_is_an_admins(occli, volume):
    snap = as_json(
        occli(
            "volume", "snapshot", "create", unique("snap"), "--volume", volume["id"], *WAIT,
            "-f", "json",
        )
    )  # fmt: skip
    code, out, err = occli("volume", "snapshot", "delete", snap["id"], "--force")
    assert code == 1
    assert "snapshot_admin_actions:force_delete" in err and "(HTTP 403)" in err
    ok(occli("--os-cloud", "local-admin", "volume", "snapshot", "delete", snap["id"], "--force"))
    assert occli("volume", "snapshot", "show", snap["id"])[0] == 1
