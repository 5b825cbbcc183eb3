"""Cinder's volume backups in the local cloud: the Swift backup driver's
objects in the project's account (chunks of zlib'd zeros, ``_sha256file``,
``_metadata``), full and incremental backups, restore to a new or an
existing volume, delete, the record's export and import, list filters and
sorting, quotas, the admin actions, and every refusal with Cinder's text."""

import base64
import hashlib
import json
import zlib

import pytest

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.cloud import service_classes
from occli.localcloud.objectstore import project_objects as swift
from occli.localcloud.volume import backup_objects
from tests.unit.localcloud.volume_harness import MISSING
from tests.unit.localcloud.volume_harness import Cinder
from tests.unit.localcloud.volume_harness import message

SERVICES = ("identity", "compute", "image", "volume", "objectstore")


def _cloud(tmp_path, services=SERVICES, **settings):
    settings.setdefault("build_time", 0)
    return LocalCloud(
        Config(data_dir=str(tmp_path / "data"), **settings), services=service_classes(services)
    )


@pytest.fixture(name="cinder")
def _cinder(tmp_path):
    cloud = _cloud(tmp_path)
    yield Cinder(cloud)
    cloud.close()


@pytest.fixture(name="slow")
def _slow(tmp_path):
    """A cloud whose work takes an hour: the in-between states stay."""
    cloud = _cloud(tmp_path, build_time=3600)
    yield Cinder(cloud)
    cloud.close()


def _volume(cinder, user="demo", **volume):
    created = cinder.create(user=user, **volume)
    cinder.show(created["id"], user=user)
    return created


def _backup(cinder, volume_id, user="demo", version="3.70", expect=202, **extra):
    result = cinder.post(
        "/backups", {"backup": dict(extra, volume_id=volume_id)}, user=user, version=version
    )
    assert result.status == expect, result.body
    return result.json()["backup"] if expect == 202 else result


def _show(cinder, backup_id, user="demo", **kw):
    result = cinder.get("/backups/" + backup_id, user=user, **kw)
    assert result.status == 200, result.body
    return result.json()["backup"]


def _objects(cinder, container="volumebackups"):
    """``{name: bytes}`` of the demo account's container, read through
    the object store's project_objects rules."""
    files = cinder.cloud.objectstore.files
    account = swift.account(cinder.projects["demo"])
    with cinder.cloud.store.read() as db:
        found = {}
        for name in swift.names(db, account, container, ""):
            reader = swift.open_object(db, files, account, container, name)
            assert reader is not None
            found[name] = b"".join(reader)
        assert swift.open_object(db, files, account, container, "missing") is None
        return found


def test_a_backup_stores_what_the_swift_driver_stores(cinder):
    volume = _volume(cinder, size=1, metadata={"k": "v"})
    made = _backup(cinder, volume["id"], name=" b1 ", description="d")
    assert set(made) == {"id", "name", "links"} and made["name"] == "b1"
    backup = _show(cinder, made["id"])
    assert (backup["status"], backup["size"], backup["container"]) == (
        "available",
        1,
        "volumebackups",
    )
    assert backup["object_count"] == 21  # 1 GiB in 50 MiB chunks
    assert cinder.show(volume["id"])["status"] == "available"
    stored = _objects(cinder)
    prefix = "volume_%s/" % volume["id"]
    assert all(name.startswith(prefix) for name in stored)
    (meta_name,) = [n for n in stored if n.endswith("_metadata")]
    name = meta_name[: -len("_metadata")]
    assert name.endswith("/az_nova_backup_" + made["id"])
    assert len(name.split("/")[1]) == 14  # YYYYmmddHHMMSS
    metadata = json.loads(stored[meta_name])
    assert stored[meta_name] == json.dumps(metadata, sort_keys=True, indent=2).encode()
    assert (metadata["version"], metadata["backup_id"], metadata["backup_name"]) == (
        "1.0.0",
        made["id"],
        "b1",
    )
    assert metadata["parent_id"] is None
    assert json.loads(metadata["volume_meta"])["volume-metadata"] == {"k": "v"}
    entries = [next(iter(o.items())) for o in metadata["objects"]]
    assert [n for n, _ in entries] == ["%s-%05d" % (name, i) for i in range(1, 22)]
    offset = 0
    for part, info in entries:
        data = zlib.decompress(stored[part])
        assert data == bytes(info["length"]) and info["offset"] == offset
        assert info["compression"] == "zlib"
        assert info["md5"] == hashlib.md5(data).hexdigest()
        offset += info["length"]
    assert offset == 1024**3
    sha = json.loads(stored[name + "_sha256file"])
    assert sha["chunk_size"] == 32768 and len(sha["sha256s"]) == 32768
    assert set(sha["sha256s"]) == {hashlib.sha256(bytes(32768)).hexdigest()}
    text = json.dumps(sha, sort_keys=True, indent=2).encode()
    assert stored[name + "_sha256file"] == text


def test_states_while_the_work_runs(slow):
    volume = slow.create(size=1)
    with slow.cloud.store.transaction() as db:
        db.execute(
            "UPDATE volumes SET status = 'available', pending = NULL WHERE id = ?",
            (volume["id"],),
        )
    made = _backup(slow, volume["id"])
    assert _show(slow, made["id"])["status"] == "creating"
    assert slow.show(volume["id"])["status"] == "backing-up"
    refused = slow.delete("/backups/" + made["id"])
    assert refused.status == 400
    assert message(refused) == "Invalid backup: Backup status must be available or error"
    refused = slow.post("/backups/%s/restore" % made["id"], {"restore": {}})
    assert message(refused) == "Invalid backup: Backup status must be available"
    refused = slow.get("/backups/%s/export_record" % made["id"], user="admin")
    assert message(refused) == "Invalid backup: Backup status must be available and not creating."
    again = _backup(slow, volume["id"], expect=400)
    assert message(again) == (
        "Invalid volume: Volume to be backed up must be available or in-use, but the current"
        ' status is "backing-up".'
    )


def test_in_use_needs_force(cinder):
    volume = _volume(cinder)
    server = cinder.server()
    assert cinder.attach(server, volume["id"]).status == 200
    refused = _backup(cinder, volume["id"], expect=400)
    assert message(refused) == (
        "Invalid volume: Backing up an in-use volume must use the force flag."
    )
    made = _backup(cinder, volume["id"], force=True)
    assert _show(cinder, made["id"])["status"] == "available"
    assert cinder.show(volume["id"])["status"] == "in-use"


def test_incremental_needs_a_parent_and_stores_only_what_changed(cinder):
    volume = _volume(cinder, size=1)
    refused = _backup(cinder, volume["id"], expect=400, incremental=True)
    assert message(refused) == "Invalid backup: No backups available to do an incremental backup."
    full = _backup(cinder, volume["id"])
    same = _backup(cinder, volume["id"], incremental=True)
    shown = _show(cinder, same["id"])
    assert (shown["is_incremental"], shown["object_count"]) == (True, 0)
    assert _show(cinder, full["id"])["has_dependent_backups"] is True
    extend = cinder.post("/volumes/%s/action" % volume["id"], {"os-extend": {"new_size": 2}})
    assert extend.status == 202, extend.body
    cinder.show(volume["id"])
    grown = _backup(cinder, volume["id"], incremental=True)
    metadata = [
        json.loads(body)
        for name, body in _objects(cinder).items()
        if name.endswith(grown["id"] + "_metadata")
    ][0]
    assert metadata["parent_id"] == same["id"]
    offsets = [next(iter(o.values()))["offset"] for o in metadata["objects"]]
    assert offsets[0] == 1024**3 and len(offsets) == _show(cinder, grown["id"])["object_count"]
    refused = cinder.delete("/backups/" + full["id"])
    assert refused.status == 400
    assert message(refused) == "Invalid backup: Incremental backups exist for this backup."


def test_a_parent_still_creating_is_refused(slow):
    volume = slow.create(size=1)
    with slow.cloud.store.transaction() as db:
        db.execute(
            "UPDATE volumes SET status = 'available', pending = NULL WHERE id = ?",
            (volume["id"],),
        )
    _backup(slow, volume["id"])
    with slow.cloud.store.transaction() as db:
        db.execute("UPDATE volumes SET status = 'available', pending = NULL")
    refused = _backup(slow, volume["id"], expect=400, incremental=True)
    assert message(refused) == "Invalid backup: No backups available to do an incremental backup."


def test_a_snapshot_backup(cinder):
    volume = _volume(cinder)
    other = _volume(cinder)
    snap = cinder.snapshot(volume["id"])
    refused = _backup(cinder, other["id"], expect=400, snapshot_id=snap["id"])
    assert message(refused) == (
        "Invalid volume: Volume %s does not match with snapshot.volume_id %s."
        % (other["id"], volume["id"])
    )
    made = _backup(cinder, volume["id"], snapshot_id=snap["id"])
    shown = _show(cinder, made["id"])
    assert shown["snapshot_id"] == snap["id"]
    stored = cinder.get("/snapshots/" + snap["id"]).json()["snapshot"]
    assert shown["data_timestamp"] == stored["created_at"]
    assert stored["status"] == "available"


def test_a_snapshot_not_available_is_refused(slow):
    volume = slow.create()
    with slow.cloud.store.transaction() as db:
        db.execute("UPDATE volumes SET status = 'available', pending = NULL")
    snap = slow.snapshot(volume["id"])
    refused = _backup(slow, volume["id"], expect=400, snapshot_id=snap["id"])
    assert message(refused) == (
        "Invalid snapshot: Snapshot to be backed up must be available, but the current status"
        ' is "creating".'
    )


def test_restore_to_a_new_volume_and_to_an_existing_one(cinder):
    volume = _volume(cinder, size=2)
    made = _backup(cinder, volume["id"])
    result = cinder.post("/backups/%s/restore" % made["id"], {"restore": None})
    assert result.status == 202, result.body
    restore = result.json()["restore"]
    assert restore["volume_name"] == "restore_backup_" + made["id"]
    new = cinder.show(restore["volume_id"])
    assert (new["size"], new["status"]) == (2, "available")
    assert new["description"] == "auto-created_from_restore_from_backup"
    named = cinder.post("/backups/%s/restore" % made["id"], {"restore": {"name": "r"}})
    assert named.json()["restore"]["volume_name"] == "r"
    small = _volume(cinder, size=1)
    refused = cinder.post(
        "/backups/%s/restore" % made["id"], {"restore": {"volume_id": small["id"]}}
    )
    assert refused.status == 400
    assert message(refused) == (
        "Invalid volume: volume size 1 is too small to restore backup of size 2."
    )
    target = _volume(cinder, size=3)
    done = cinder.post(
        "/backups/%s/restore" % made["id"], {"restore": {"volume_id": target["id"]}}
    )
    assert done.json()["restore"]["volume_id"] == target["id"]
    assert cinder.show(target["id"])["status"] == "available"
    assert _show(cinder, made["id"])["status"] == "available"


def test_restore_states_and_a_busy_target(slow):
    volume = slow.create(size=1)
    with slow.cloud.store.transaction() as db:
        db.execute("UPDATE volumes SET status = 'available', pending = NULL")
    made = _backup(slow, volume["id"])
    with slow.cloud.store.transaction() as db:
        db.execute("UPDATE volume_backups SET status = 'available', pending = NULL")
        db.execute("UPDATE volumes SET status = 'available', pending = NULL")
    busy = slow.create(size=1)
    with slow.cloud.store.transaction() as db:
        db.execute(
            "UPDATE volumes SET status = 'error', pending = NULL WHERE id = ?", (busy["id"],)
        )
    refused = slow.post("/backups/%s/restore" % made["id"], {"restore": {"volume_id": busy["id"]}})
    assert message(refused) == "Invalid volume: Volume to be restored to must be available"
    ok = slow.post("/backups/%s/restore" % made["id"], {"restore": {"volume_id": volume["id"]}})
    assert ok.status == 202, ok.body
    assert _show(slow, made["id"])["status"] == "restoring"
    assert slow.show(volume["id"])["status"] == "restoring-backup"


def test_restore_without_the_objects_fails_the_volume(cinder):
    volume = _volume(cinder)
    made = _backup(cinder, volume["id"])
    with cinder.cloud.store.transaction() as db:
        db.execute("DELETE FROM swift_objects WHERE name LIKE '%_metadata'")
    result = cinder.post("/backups/%s/restore" % made["id"], {"restore": {}})
    assert result.status == 202
    assert cinder.show(result.json()["restore"]["volume_id"])["status"] == "error_restoring"
    assert _show(cinder, made["id"])["status"] == "available"


def test_restore_to_a_new_volume_checks_the_volume_quota(cinder):
    volume = _volume(cinder, size=2)
    made = _backup(cinder, volume["id"])
    quota = {"quota_set": {"gigabytes": 3}}
    assert (
        cinder.put("/os-quota-sets/" + cinder.projects["demo"], quota, user="admin").status == 200
    )
    refused = cinder.post("/backups/%s/restore" % made["id"], {"restore": {}})
    assert refused.status == 413
    assert refused.header("Retry-After") == "0"


def test_delete_removes_the_objects_and_force_is_the_admins(cinder, tmp_path):
    volume = _volume(cinder)
    made = _backup(cinder, volume["id"])
    assert len(_objects(cinder)) == 23
    files = set((tmp_path / "data" / "objects").iterdir())
    assert cinder.delete("/backups/" + made["id"]).status == 202
    assert _objects(cinder) == {}
    assert len(set((tmp_path / "data" / "objects").iterdir())) == len(files) - 23
    assert cinder.get("/backups/" + made["id"]).status == 404
    other = _backup(cinder, volume["id"])
    body: dict = {"os-force_delete": {}}
    refused = cinder.post("/backups/%s/action" % other["id"], body)
    assert refused.status == 403
    assert message(refused) == (
        "Policy doesn't allow volume_extension:backup_admin_actions:force_delete to be performed."
    )
    assert cinder.post("/backups/%s/action" % other["id"], body, user="admin").status == 202
    assert _objects(cinder) == {}


def test_force_delete_of_a_creating_backup(slow):
    volume = slow.create()
    with slow.cloud.store.transaction() as db:
        db.execute("UPDATE volumes SET status = 'available', pending = NULL")
    made = _backup(slow, volume["id"])
    done = slow.post("/backups/%s/action" % made["id"], {"os-force_delete": {}}, user="admin")
    assert done.status == 202
    assert slow.get("/backups/" + made["id"]).status == 404


def test_reset_status_is_the_admins_with_cinders_statuses(cinder):
    volume = _volume(cinder)
    made = _backup(cinder, volume["id"])
    path = "/backups/%s/action" % made["id"]
    refused = cinder.post(path, {"os-reset_status": {"status": "error"}})
    assert refused.status == 403
    bad = cinder.post(path, {"os-reset_status": {"status": "deleting"}}, user="admin")
    assert bad.status == 400
    assert message(bad) == (
        "Invalid input for field/attribute status. Value: deleting. 'deleting' is not a"
        " 'backup_status'"
    )
    assert cinder.post(path, {"os-reset_status": {"status": "ERROR"}}, user="admin").status == 202
    assert _show(cinder, made["id"])["status"] == "error"
    unknown = cinder.post(path, {"os-foo": {}}, user="admin")
    assert message(unknown) == (
        "There is no such action: os-foo. Verify the request body and Content-Type header"
        " and try again."
    )


def test_quotas_with_cinders_texts(cinder):
    volume = _volume(cinder, size=2)
    project = cinder.projects["demo"]
    quota = {"quota_set": {"backup_gigabytes": 3}}
    assert cinder.put("/os-quota-sets/" + project, quota, user="admin").status == 200
    _backup(cinder, volume["id"])
    refused = _backup(cinder, volume["id"], expect=413)
    assert message(refused) == (
        "VolumeBackupSizeExceedsAvailableQuota: Requested backup exceeds allowed Backup"
        " gigabytes quota. Requested 2G, quota is 3G and 2G has been consumed."
    )
    assert refused.header("Retry-After") == "0"
    quota = {"quota_set": {"backups": 1, "backup_gigabytes": -1}}
    assert cinder.put("/os-quota-sets/" + project, quota, user="admin").status == 200
    refused = _backup(cinder, volume["id"], expect=413)
    assert (
        message(refused) == "BackupLimitExceeded: Maximum number of backups allowed (1) exceeded"
    )
    usage = cinder.get("/os-quota-sets/%s?usage=True" % project, user="admin")
    assert usage.json()["quota_set"]["backups"]["in_use"] == 1
    assert usage.json()["quota_set"]["backup_gigabytes"]["in_use"] == 2


def test_swift_refusing_the_objects_fails_the_backup(tmp_path):
    cloud = _cloud(tmp_path, object_quota_bytes=1000)
    cinder = Cinder(cloud)
    try:
        volume = _volume(cinder)
        made = _backup(cinder, volume["id"])
        shown = _show(cinder, made["id"])
        assert shown["status"] == "error"
        assert "Object PUT failed" in shown["fail_reason"]
        assert cinder.show(volume["id"])["status"] == "available"
        assert _objects(cinder) == {}
        assert cinder.delete("/backups/" + made["id"]).status == 202
    finally:
        cloud.close()


def test_without_an_object_store_there_is_no_backup_service(tmp_path):
    cloud = _cloud(tmp_path, services=("identity", "compute", "image", "volume"))
    cinder = Cinder(cloud)
    try:
        volume = _volume(cinder)
        refused = _backup(cinder, volume["id"], expect=503)
        assert message(refused) == "Service cinder-backup could not be found."
    finally:
        cloud.close()


def test_update_from_3_9_and_metadata_from_3_43(cinder):
    volume = _volume(cinder)
    made = _backup(cinder, volume["id"], metadata={"a": "1"})
    path = "/backups/" + made["id"]
    assert cinder.put(path, {"backup": {"name": "x"}}, version="3.8").status == 404
    result = cinder.put(path, {"backup": {"name": " n ", "metadata": {"b": "2"}}})
    assert result.status == 200 and result.json()["backup"]["name"] == "n"
    shown = _show(cinder, made["id"])
    assert (shown["name"], shown["metadata"]) == ("n", {"b": "2"})
    assert "metadata" not in _show(cinder, made["id"], version="3.42")
    refused = cinder.put(path, {"backup": {"metadata": {"b": "2"}}}, version="3.42")
    assert refused.status == 400
    old = _backup(cinder, volume["id"], version="3.42", expect=400, metadata={"a": "1"})
    assert "Additional properties are not allowed" in message(old)


def test_views_for_admins_and_other_projects(cinder):
    volume = _volume(cinder)
    made = _backup(cinder, volume["id"])
    admin = _show(cinder, made["id"], user="admin")
    assert admin["os-backup-project-attr:project_id"] == cinder.projects["demo"]
    assert admin["user_id"]
    assert "user_id" not in _show(cinder, made["id"], user="admin", version="3.55")
    assert "os-backup-project-attr:project_id" not in _show(cinder, made["id"])
    hidden = cinder.get("/backups/" + made["id"], user="alt")
    assert hidden.status == 404
    assert message(hidden) == "Backup %s could not be found." % made["id"]
    assert cinder.get("/backups/" + MISSING).status == 404


def test_lists_filter_sort_page_and_count(cinder):
    first, second = _volume(cinder), _volume(cinder)
    a = _backup(cinder, first["id"], name="a")
    b = _backup(cinder, second["id"], name="b")
    c = _backup(cinder, first["id"], name="c")
    listed = cinder.get("/backups").json()["backups"]
    assert [x["id"] for x in listed] == [c["id"], b["id"], a["id"]]
    assert set(listed[0]) == {"id", "name", "links"}
    by_volume = cinder.get("/backups/detail?volume_id=" + first["id"]).json()["backups"]
    assert [x["name"] for x in by_volume] == ["c", "a"]
    assert cinder.get("/backups/detail?name=b").json()["backups"][0]["id"] == b["id"]
    by_name = cinder.get("/backups?sort=name:asc").json()["backups"]
    assert [x["name"] for x in by_name] == ["a", "b", "c"]
    old = cinder.get("/backups?sort=name:asc", version="3.36")
    assert message(old) == "Invalid input received: Invalid sort key"
    page = cinder.get("/backups?limit=2&with_count=true").json()
    assert page["count"] == 3 and len(page["backups"]) == 2
    assert "marker=" + page["backups"][1]["id"] in page["backups_links"][0]["href"]
    rest = cinder.get("/backups?marker=" + page["backups"][1]["id"]).json()["backups"]
    assert [x["id"] for x in rest] == [a["id"]]
    bad = cinder.get("/backups?size=1")
    assert message(bad) == "Invalid filters size are found in query options."
    assert cinder.get("/backups", user="alt").json()["backups"] == []
    every = cinder.get("/backups?all_tenants=1", user="admin").json()["backups"]
    assert len(every) == 3


def test_export_and_import_the_record(cinder):
    volume = _volume(cinder)
    made = _backup(cinder, volume["id"], name="kept")
    path = "/backups/%s/export_record" % made["id"]
    refused = cinder.get(path)
    assert refused.status == 403
    assert message(refused) == "Policy doesn't allow backup:export-import to be performed."
    record = cinder.get(path, user="admin").json()["backup-record"]
    assert record["backup_service"] == "cinder.backup.drivers.swift.SwiftBackupDriver"
    decoded = json.loads(base64.b64decode(record["backup_url"]))
    assert (decoded["id"], decoded["display_name"], decoded["object_count"]) == (
        made["id"],
        "kept",
        21,
    )
    body = {"backup-record": record}
    denied = cinder.post("/backups/import_record", body)
    assert message(denied) == "Policy doesn't allow backup:backup-import to be performed."
    twice = cinder.post("/backups/import_record", body, user="admin")
    assert message(twice) == "Invalid backup: Backup already exists in database."
    with cinder.cloud.store.transaction() as db:  # the record lost, the objects kept
        db.execute("DELETE FROM volume_backups")
    imported = cinder.post("/backups/import_record", body, user="admin")
    assert imported.status == 201, imported.body
    assert imported.json()["backup"]["id"] == made["id"]
    shown = _show(cinder, made["id"], user="admin")
    assert (shown["status"], shown["name"], shown["volume_id"]) == (
        "available",
        "kept",
        volume["id"],
    )
    # imported into the importer's project: the swift driver (per user)
    # reads its own account, not the one the objects were written to
    assert shown["os-backup-project-attr:project_id"] == cinder.projects["admin"]
    restored = cinder.post("/backups/%s/restore" % made["id"], {"restore": {}}, user="admin")
    volume_id = restored.json()["restore"]["volume_id"]
    assert cinder.show(volume_id, user="admin")["status"] == "error_restoring"


def test_import_refusals_and_failures(cinder):
    def record(**fields):
        return base64.b64encode(json.dumps(fields).encode()).decode()

    def importing(service, url):
        body = {"backup-record": {"backup_service": service, "backup_url": url}}
        return cinder.post("/backups/import_record", body, user="admin")

    driver = "cinder.backup.drivers.swift.SwiftBackupDriver"
    assert message(importing(driver, record(size=1))) == (
        "Invalid input received: Provided backup record is missing an id"
    )
    assert message(importing(driver, record(id=MISSING))) == (
        "Invalid input received: Provided backup record is missing size attribute"
    )
    assert importing(driver, "bm90IGpzb24=").status == 400
    other = importing("cinder.backup.drivers.nfs.NFSBackupDriver", record(id=MISSING, size=1))
    assert other.status == 201
    failed = _show(cinder, MISSING, user="admin")
    assert failed["status"] == "error"
    assert failed["fail_reason"] == (
        "Import record failed, cannot find backup service to perform the import. Request"
        " service cinder.backup.drivers.nfs.NFSBackupDriver."
    )
    cinder.delete("/backups/" + MISSING, user="admin")
    partial = importing(driver, record(id=MISSING, size=1, container="c"))
    assert partial.status == 201
    assert _show(cinder, MISSING, user="admin")["fail_reason"] == (
        "Driver successfully decoded imported backup data, but there are missing fields"
        " (display_description, display_name, object_count, service_metadata)."
    )


def test_the_sha256_list_streams_as_json():
    backup = {
        "id": "b",
        "volume_id": "v",
        "name": None,
        "description": "d",
        "created_at": "2026-01-01T00:00:00.000001",
        "size": 1,
        "service_metadata": "p",
        "parent_id": None,
    }
    text = b"".join(backup_objects._sha256file(backup))
    parsed = json.loads(text)
    assert len(parsed["sha256s"]) == 32768
    assert parsed["created_at"] == "2026-01-01 00:00:00.000001+00:00"
    assert text == json.dumps(parsed, sort_keys=True, indent=2).encode()
