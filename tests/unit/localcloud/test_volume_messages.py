"""Cinder's user messages in the local cloud (3.3): what a failed
operation records (``messages.create``, called here as a backup's
failure calls it), listed, shown and deleted per project in Cinder's
view, with filters and paging from 3.5."""

import pytest

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.cloud import service_classes
from occli.localcloud.volume import messages
from tests.unit.localcloud.volume_harness import MISSING
from tests.unit.localcloud.volume_harness import Cinder
from tests.unit.localcloud.volume_harness import cinder_cloud
from tests.unit.localcloud.volume_harness import message

cinder = pytest.fixture(cinder_cloud, name="cinder")
BACKUP_ID = "9a4b3e2a-30a6-4c4e-9f6d-1d2b9b0c7e11"


def _record(cinder, user="demo", action="013", detail="020", resource="VOLUME_BACKUP"):
    with cinder.cloud.store.transaction() as db:
        return messages.create(
            db, cinder.projects[user], resource, BACKUP_ID, action, detail, "req-" + user
        )


def test_a_failure_is_listed_and_shown_in_cinders_view(cinder):
    made = _record(cinder)
    listed = cinder.get("/messages", version="3.3").json()["messages"]
    assert [m["id"] for m in listed] == [made["id"]]
    shown = cinder.get("/messages/" + made["id"], version="3.3").json()["message"]
    assert shown == {
        "id": made["id"],
        "event_id": "VOLUME_VOLUME_BACKUP_013_020",
        "user_message": "create backup:Backup driver failed to create backup.",
        "message_level": "ERROR",
        "created_at": made["created_at"],
        "guaranteed_until": made["expires_at"],
        "request_id": "req-demo",
        "resource_type": "VOLUME_BACKUP",
        "resource_uuid": BACKUP_ID,
        "links": shown["links"],
    }
    assert shown["links"][0]["href"].endswith("/messages/" + made["id"])


def test_unknown_ids_read_as_cinder_translates_them(cinder):
    made = _record(cinder, action="099", detail="099")
    shown = cinder.get("/messages/" + made["id"]).json()["message"]
    assert shown["user_message"] == "unknown action:An unknown error occurred."


def test_needs_33(cinder):
    made = _record(cinder)
    assert cinder.get("/messages", version="3.2").status == 404
    assert cinder.get("/messages/" + made["id"], version="3.2").status == 404
    assert cinder.delete("/messages/" + made["id"], version="3.2").status == 404


def test_per_project_and_delete(cinder):
    mine = _record(cinder)
    theirs = _record(cinder, user="alt")
    result = cinder.get("/messages/" + theirs["id"])
    assert (result.status, message(result)) == (
        404,
        "Message %s could not be found." % theirs["id"],
    )
    assert cinder.delete("/messages/" + theirs["id"]).status == 404
    every = cinder.get("/messages?all_tenants=1", user="admin").json()["messages"]
    assert {m["id"] for m in every} == {mine["id"], theirs["id"]}
    assert cinder.delete("/messages/" + mine["id"]).status == 204
    assert cinder.get("/messages").json()["messages"] == []
    missing = cinder.delete("/messages/" + MISSING)
    assert (missing.status, message(missing)) == (404, "Message %s could not be found." % MISSING)


def test_filters_sorting_and_paging_from_35(cinder):
    first = _record(cinder, action="007", detail="010", resource="VOLUME")
    second = _record(cinder)
    extend = cinder.get("/messages?event_id=VOLUME_VOLUME_007_010").json()["messages"]
    assert [m["id"] for m in extend] == [first["id"]]
    # before 3.5 the query is ignored
    old = cinder.get("/messages?event_id=VOLUME_VOLUME_007_010", version="3.4").json()
    assert len(old["messages"]) == 2
    page = cinder.get("/messages?limit=1&sort=created_at:asc").json()
    assert [m["id"] for m in page["messages"]] == [first["id"]]
    assert "marker=" + first["id"] in page["messages_links"][0]["href"]
    rest = cinder.get("/messages?sort=created_at:asc&marker=" + first["id"]).json()
    assert [m["id"] for m in rest["messages"]] == [second["id"]]
    bad = cinder.get("/messages?colour=red")
    assert (bad.status, message(bad)) == (
        400,
        "Invalid filters colour are found in query options.",
    )


def test_a_backup_swift_refuses_leaves_a_message(tmp_path):
    cloud = LocalCloud(
        Config(data_dir=str(tmp_path / "swift"), build_time=0, object_quota_bytes=1000),
        services=service_classes(("identity", "compute", "image", "volume", "objectstore")),
    )
    cinder = Cinder(cloud)
    try:
        volume = cinder.create()
        cinder.show(volume["id"])
        result = cinder.post("/backups", {"backup": {"volume_id": volume["id"]}})
        assert result.status == 202, result.body
        backup = result.json()["backup"]
        (found,) = cinder.get("/messages").json()["messages"]
        assert (found["resource_type"], found["resource_uuid"]) == ("VOLUME_BACKUP", backup["id"])
        assert found["event_id"] == "VOLUME_VOLUME_BACKUP_013_020"
        assert found["user_message"] == "create backup:Backup driver failed to create backup."
        assert found["request_id"] == result.header("x-openstack-request-id")
        assert cinder.get("/messages", user="alt").json()["messages"] == []
    finally:
        cloud.close()
