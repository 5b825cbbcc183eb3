"""``occli server rebuild`` options, ``server delete --force/--all-projects``,
``server restore`` (soft delete on a cloud with a reclaim interval), and
the human forms of ``server show`` / ``flavor show -f shell``, against the
local cloud, failure paths included."""

import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import boot_servers
from tests.functional.harness import ok
from tests.functional.harness import point_client_at
from tests.functional.harness import start_localcloud


@pytest.fixture
def occli(occli_env, run_occli):
    return run_occli


@pytest.fixture
def vm(occli):
    name = "rb-" + uuid.uuid4().hex[:8]
    boot_servers(occli, name, 1)
    yield name
    occli("server", "delete", "--force", name)


def show(occli, ref, *global_options):
    return as_json(occli(*global_options, "server", "show", ref, "-f", "json"))


def test_rebuild_options_reach_the_server(occli, vm, tmp_path):
    key = "k-" + vm
    ok(occli("keypair", "create", key))
    user_data = tmp_path / "ud.txt"
    user_data.write_text("#!/bin/sh\necho hi\n")
    rebuilt = as_json(
        occli(
            "server", "rebuild", vm, "--key-name", key, "--user-data", str(user_data),
            "--property", "role=db", "--preserve-ephemeral", "--hostname", "newhost",
            "--description", "rebuilt", "--trusted-image-cert", "cert-1",
            "--password", "s3cret-pass", "--wait", "--wait-interval", "0.1", "-f", "json",
        )
    )  # fmt: skip
    assert rebuilt["status"] == "ACTIVE" and rebuilt["adminPass"] == "s3cret-pass"
    shown = show(occli, vm)
    assert shown["key_name"] == key
    assert shown["properties"] == {"role": "db"}
    assert shown["description"] == "rebuilt"
    assert shown["OS-EXT-SRV-ATTR:hostname"] == "newhost"
    assert shown["trusted_image_certificates"] == ["cert-1"]
    assert shown["image"]  # the current image, as OSC defaults
    admin = show(occli, shown["id"], "--os-cloud", "local-admin")
    assert admin["OS-EXT-SRV-ATTR:user_data"]
    ok(
        occli(
            "server", "rebuild", vm, "--no-key-name", "--no-user-data", "--no-trusted-image-certs"
        )
    )
    shown = show(occli, vm)
    assert shown["key_name"] is None and shown["trusted_image_certificates"] is None
    admin = show(occli, shown["id"], "--os-cloud", "local-admin")
    assert admin["OS-EXT-SRV-ATTR:user_data"] is None
    occli("keypair", "delete", key)


def test_rebuild_failures(occli, vm, tmp_path):
    code, _, err = occli(
        "--os-compute-api-version", "2.53", "server", "rebuild", vm, "--key-name", "k"
    )
    assert code == 1 and "2.54" in err
    code, _, err = occli(
        "--os-compute-api-version", "2.62", "server", "rebuild", vm, "--trusted-image-cert", "c"
    )
    assert code == 1 and "2.63" in err
    code, _, err = occli("server", "rebuild", vm, "--user-data", "x", "--no-user-data")
    assert code == 2
    code, _, err = occli("server", "rebuild", vm, "--key-name", "no-such-key")
    assert code == 1 and "Invalid key_name provided." in err
    code, _, err = occli(
        "server", "rebuild", vm, "--preserve-ephemeral", "--no-preserve-ephemeral"
    )
    assert code == 2


def test_show_power_state_as_text_and_number(occli, vm):
    # as OSC's: the name in a table, Nova's number in JSON
    assert show(occli, vm)["OS-EXT-STS:power_state"] == 1
    ok(occli("server", "stop", vm, "--wait", "--wait-interval", "0.1"))
    assert show(occli, vm)["OS-EXT-STS:power_state"] == 4
    table = ok(occli("server", "show", vm, "-c", "OS-EXT-STS:power_state"))
    assert "| OS-EXT-STS:power_state | Shutdown |" in table


def test_delete_force_and_all_projects(occli, vm):
    code, _, err = occli("--os-cloud", "local-admin", "server", "delete", vm)
    assert code == 1 and "No server" in err
    ok(occli("--os-cloud", "local-admin", "server", "delete", "--all-projects", "--force", vm))
    code, _, err = occli("server", "show", vm)
    assert code == 1


def test_restore_without_reclaim_interval_conflicts(occli, vm):
    code, _, err = occli("server", "restore", vm)
    assert code == 1 and "Cannot 'restore' instance" in err and "vm_state active" in err


def test_delete_of_locked_server_as_member(occli, vm):
    server_id = show(occli, vm)["id"]
    ok(occli("--os-cloud", "local-admin", "server", "lock", server_id))
    code, _, err = occli("server", "delete", "--force", vm)
    assert code == 1 and "is locked" in err
    ok(occli("--os-cloud", "local-admin", "server", "unlock", server_id))


def test_flavor_show_shell_prints_values_as_osc(occli):
    # cliff's shell formatter, as OSC: None as "None", a dict as its repr
    out = ok(occli("flavor", "show", "m1.tiny", "-f", "shell"))
    assert 'description="None"' in out.splitlines() and 'properties="{}"' in out.splitlines()


@pytest.fixture
def reclaiming(tmp_path, monkeypatch, run_occli):
    running = start_localcloud(reclaim_instance_interval=3600)
    point_client_at(running, monkeypatch, tmp_path / "cache", cloud="local")
    yield run_occli
    running.stop()


def test_soft_delete_restore_and_force(reclaiming):
    occli = reclaiming
    boot_servers(occli, "soft", 1)
    ok(occli("server", "delete", "soft"))
    assert show(occli, "soft")["status"] == "SOFT_DELETED"
    ok(occli("server", "restore", "soft", "--wait", "--wait-interval", "0.1"))
    assert show(occli, "soft")["status"] == "ACTIVE"
    ok(occli("server", "delete", "soft"))
    ok(occli("server", "delete", "--force", "soft", "--wait", "--wait-interval", "0.1"))
    code, _, err = occli("server", "show", "soft")
    assert code == 1


def test_rebuild_password_never_in_debug_output(occli, vm):
    code, out, err = occli("--debug", "server", "rebuild", vm, "--password", "Zq9-secret-Zq9")
    assert code == 0, err
    assert "Zq9-secret-Zq9" not in err
