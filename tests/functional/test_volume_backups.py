"""Volume backups over HTTP (issue 21): ``volume backup create`` stores the
volume in the local Swift (the ``volumebackups`` container of the
project's account), an incremental one follows it, ``restore`` makes a new
volume (an existing one needs ``--force``), ``set``/``unset``, the
record's export and import, delete with ``--force``; and openstacksdk's
``create_volume_backup``/``restore_backup`` against the same routes."""

import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import ok

pytestmark = pytest.mark.filterwarnings(
    "ignore::PendingDeprecationWarning:openstack", "ignore::DeprecationWarning:openstack"
)


@pytest.fixture
def occli(occli_env, run_occli):
    """``occli(argv…, cloud="local")``: as demo, or as ``local-admin``."""

    def run(*argv, cloud="local"):
        return run_occli("--os-cloud", cloud, *argv)

    return run


def _name(prefix="bk"):
    return "%s-%s" % (prefix, uuid.uuid4().hex[:8])


def _wait_status(occli, kind, ref, status, cloud="local"):
    """Poll ``<kind> show`` (a bounded number of times) until ``status``."""
    shown = {}
    for _ in range(200):
        shown = as_json(occli(*kind, "show", ref, "-f", "json", cloud=cloud))
        if shown["status"] == status:
            return shown
    raise AssertionError("%s %s stayed %s" % (kind, ref, shown.get("status")))


def test_backup_restore_and_delete_with_the_cli(occli):
    name = _name("vol")
    volume = as_json(occli("volume", "create", "--size", "1", "--wait", name, "-f", "json"))["id"]
    backup = backup_name = None
    try:
        backup_name = _name()
        made = as_json(
            occli(
                "volume", "backup", "create", "--name", backup_name, "--property", "k=v",
                volume, "-f", "json",
            )
        )  # fmt: skip
        assert sorted(made) == ["id", "name", "volume_id"] and made["volume_id"] == volume
        backup = made["id"]
        shown = _wait_status(occli, ("volume", "backup"), backup_name, "available")
        assert (shown["container"], shown["object_count"], shown["metadata"]) == (
            "volumebackups",
            21,
            {"k": "v"},
        )
        objects = as_json(occli("object", "list", "volumebackups", "-f", "json"))
        assert len([o for o in objects if backup in o["Name"]]) == 23

        code, _out, err = occli("volume", "backup", "create", "--incremental", volume)
        assert code == 0, err
        listed = as_json(
            occli("volume", "backup", "list", "--volume", name, "--long", "-f", "json")
        )
        assert {b["Incremental"] for b in listed} == {True, False}
        assert {b["Container"] for b in listed} == {"volumebackups"}
        incremental = [b["ID"] for b in listed if b["Incremental"]][0]
        _wait_status(occli, ("volume", "backup"), incremental, "available")
        code, _out, err = occli("volume", "backup", "delete", backup)
        assert code == 1 and "Incremental backups exist for this backup." in err
        ok(occli("volume", "backup", "delete", incremental))

        ok(
            occli(
                "volume",
                "backup",
                "set",
                "--name",
                backup_name + "-x",
                "--property",
                "a=b",
                backup,
            )
        )
        ok(occli("volume", "backup", "unset", "--property", "k", backup))
        shown = as_json(occli("volume", "backup", "show", backup, "-f", "json"))
        assert (shown["name"], shown["metadata"]) == (backup_name + "-x", {"a": "b"})

        code, _out, err = occli("volume", "backup", "restore", backup, name)
        assert code == 1
        assert "Volume '%s' already exists; if you want to restore" % name in err
        restored = as_json(
            occli("volume", "backup", "restore", backup, name + "-copy", "-f", "json")
        )
        assert restored["id"] == backup and restored["volume_name"] == name + "-copy"
        copy = _wait_status(occli, ("volume",), restored["volume_id"], "available")
        assert copy["size"] == 1
        ok(occli("volume", "delete", restored["volume_id"]))
        again = as_json(
            occli("volume", "backup", "restore", "--force", backup, name, "-f", "json")
        )
        assert again["volume_id"] == volume
        _wait_status(occli, ("volume",), volume, "available")
        _wait_status(occli, ("volume", "backup"), backup, "available")

        code, _out, err = occli("volume", "backup", "set", "--state", "error", backup)
        assert code == 1 and "backup_admin_actions:reset_status" in err
        record = as_json(
            occli(
                "volume", "backup", "record", "export", backup, "-f", "json", cloud="local-admin"
            )
        )
        assert record["backup_service"] == "cinder.backup.drivers.swift.SwiftBackupDriver"
        code, _out, err = occli(
            "volume", "backup", "record", "import", record["backup_service"],
            record["backup_url"], cloud="local-admin",
        )  # fmt: skip
        assert code == 1 and "Backup already exists in database." in err
        ok(occli("volume", "backup", "set", "--state", "error", backup, cloud="local-admin"))
        ok(occli("volume", "backup", "delete", "--force", backup, cloud="local-admin"))
        backup = None
        objects = as_json(occli("object", "list", "volumebackups", "-f", "json"))
        assert not [o for o in objects if made["id"] in o["Name"]]
    finally:
        if backup is not None:
            occli("volume", "backup", "delete", "--force", backup, cloud="local-admin")
        occli("volume", "delete", volume)


def test_openstacksdk_backs_up_and_restores(occli_env):
    import openstack

    conn = openstack.connect(cloud="local")
    volume = conn.create_volume(size=1, name=_name("sdk"), wait=True, timeout=60)
    backup = restored = None
    try:
        backup = conn.create_volume_backup(volume.id, name=_name(), wait=True, timeout=60)
        assert (backup.status, backup.size, backup.is_incremental) == ("available", 1, False)
        assert backup.id in [b.id for b in conn.list_volume_backups()]
        result = conn.block_storage.restore_backup(backup.id, name=_name("sdk-copy"))
        restored = conn.get_volume_by_id(result.volume_id)
        restored = conn.block_storage.wait_for_status(restored, "available", wait=60)
        assert restored.size == 1
    finally:
        if restored is not None:
            conn.delete_volume(restored.id, wait=True, timeout=60)
        if backup is not None:
            conn.delete_volume_backup(backup.id, wait=True, timeout=60)
        conn.delete_volume(volume.id, wait=True, timeout=60)
