"""``occli server image create`` and ``server backup create`` against the
local cloud: the image record, --wait, rotation, and the failure paths
(wrong state 409, usage errors exit 2, another project's server)."""

import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import boot_servers


@pytest.fixture
def occli(occli_env, run_occli):
    return run_occli


@pytest.fixture
def vm(occli):
    name = "img-" + uuid.uuid4().hex[:8]
    boot_servers(occli, name, 1)
    yield name
    occli("server", "delete", name)


def _backups(occli, server_id):
    images = as_json(occli("image", "list", "--long", "-f", "json"))
    names = {i["ID"] for i in images}
    found = []
    for image_id in names:
        shown = as_json(occli("image", "show", image_id, "-f", "json"))
        props = shown.get("properties", {})
        if props.get("image_type") == "backup" and props.get("instance_uuid") == server_id:
            found.append(shown)
    return found


def test_image_create_waits_for_active_image(occli, vm):
    shown = as_json(
        occli(
            "server", "image", "create", vm, "--name", vm + "-snap", "--property", "k=v",
            "--wait", "--wait-interval", "0.1", "-f", "json",
        )
    )  # fmt: skip
    assert shown["status"] == "active" and shown["name"] == vm + "-snap"
    server_id = as_json(occli("server", "show", vm, "-f", "json"))["id"]
    assert shown["properties"]["image_type"] == "snapshot"
    assert shown["properties"]["instance_uuid"] == server_id
    assert shown["properties"]["k"] == "v"
    image = as_json(occli("image", "show", shown["id"], "-f", "json"))
    properties = image["properties"]  # as OSC's image show
    assert properties["base_image_ref"] and properties["owner_user_name"] == "demo"


def test_image_create_defaults_to_server_name_and_old_microversion(occli, vm):
    shown = as_json(
        occli("--os-compute-api-version", "2.44", "server", "image", "create", vm, "-f", "json")
    )
    assert shown["name"] == vm and shown["id"]


def test_image_create_wrong_state_is_409(occli, vm, localcloud):
    with localcloud.cloud.store.transaction() as db:
        db.execute("UPDATE servers SET vm_state = 'error' WHERE name = ?", (vm,))
    code, _, err = occli("server", "image", "create", vm)
    assert code == 1 and "while it is in vm_state error" in err


def test_image_create_of_unknown_server(occli):
    code, _, err = occli("server", "image", "create", "no-such-server")
    assert code == 1 and "No server" in err


def test_backup_rotation_keeps_newest(occli, vm):
    server_id = as_json(occli("server", "show", vm, "-f", "json"))["id"]
    first = as_json(
        occli(
            "server", "backup", "create", vm, "--name", "b1", "--type", "daily",
            "--rotate", "1", "-f", "json",
        )
    )  # fmt: skip
    second = as_json(
        occli(
            "server", "backup", "create", vm, "--name", "b2", "--type", "daily",
            "--rotate", "1", "--wait", "--wait-interval", "0.1", "-f", "json",
        )
    )  # fmt: skip
    assert second["status"] == "active"
    assert second["properties"]["backup_type"] == "daily"
    assert [b["id"] for b in _backups(occli, server_id)] == [second["id"]]
    assert first["id"] != second["id"]


def test_backup_usage_errors_exit_2(occli, vm):
    code, _, err = occli("server", "backup", "create", vm, "--rotate", "-1")
    assert code == 2 and "--rotate" in err


def test_backup_of_another_projects_server_is_not_found(occli, vm, run_occli):
    code, _, err = run_occli(
        "--os-cloud", "local-alt", "server", "backup", "create", vm, "--type", "daily"
    )
    assert code == 1 and "No server" in err


def test_backup_rotate_0_deletes_the_new_backup_too(occli, vm):
    """Nova keeps no backup with --rotate 0: the command says so, exit 0
    (with --wait too, instead of waiting for an image that is gone)."""
    server_id = as_json(occli("server", "show", vm, "-f", "json"))["id"]
    for extra in ((), ("--wait", "--wait-interval", "0.1", "--wait-timeout", "10")):
        code, out, err = occli(
            "server", "backup", "create", vm, "--type", "weekly", "--rotate", "0",
            *extra, "-f", "json",
        )  # fmt: skip
        assert code == 0, err
        assert "was rotated away (--rotate 0)" in err
        assert set(as_json((code, out, err))) == {"id"}
        occli("server", "show", vm)  # the backup task ends
    assert [b for b in _backups(occli, server_id) if b["backup_type"] == "weekly"] == []
