"""Cinder's volume changes in the local cloud beyond create and update:
``os-extend`` (in-use from 3.42), ``revert`` to the latest snapshot
(3.40), ``os-retype``, the admin's ``os-reset_status`` and the
``summary`` (3.12, metadata from 3.36), each refusal with Cinder's text."""

import uuid

import pytest

from tests.unit.localcloud.volume_harness import cinder_cloud
from tests.unit.localcloud.volume_harness import message

cinder = pytest.fixture(cinder_cloud, name="cinder")


def _available(cinder, user="demo", **volume):
    created = cinder.create(user=user, **volume)
    cinder.show(created["id"], user=user)
    return created


def _action(cinder, volume_id, body, **kw):
    return cinder.post("/volumes/%s/action" % volume_id, body, **kw)


def _new_type(cinder, name):
    type_id = str(uuid.uuid4())
    with cinder.cloud.store.transaction() as db:
        db.execute(
            "INSERT INTO volume_types (id, name, description) VALUES (?, ?, ?)",
            (type_id, name, "test"),
        )
    return type_id


def test_extend_in_use_from_342(cinder):
    volume = _available(cinder)
    assert cinder.attach(cinder.server(), volume["id"]).status == 200
    old = _action(cinder, volume["id"], {"os-extend": {"new_size": 2}}, version="3.41")
    assert (old.status, message(old)) == (
        400,
        "Invalid volume: Volume %s status must be '{'status': 'available'}' to extend,"
        " currently in-use." % volume["id"],
    )
    assert _action(cinder, volume["id"], {"os-extend": {"new_size": 2}}).status == 202
    shown = cinder.show(volume["id"])
    assert (shown["size"], shown["status"]) == (2, "in-use")
    smaller = _action(cinder, volume["id"], {"os-extend": {"new_size": 1}})
    assert message(smaller) == (
        "Invalid input received: New size for extend must be greater than current size."
        " (current: 2, extended: 1)."
    )


def test_revert_to_the_latest_snapshot(cinder):
    volume = _available(cinder)
    body = {"revert": {"snapshot_id": None}}
    none = _action(cinder, volume["id"], body)
    assert (none.status, message(none)) == (
        400,
        "Volume %s doesn't have any snapshots." % volume["id"],
    )
    first = cinder.snapshot(volume["id"])
    latest = cinder.snapshot(volume["id"])
    old = _action(cinder, volume["id"], {"revert": {"snapshot_id": latest["id"]}}, version="3.39")
    # the real Cinder 29's answer (probed on ../shared/realcloud)
    assert (old.status, message(old)) == (404, "The resource could not be found.")
    not_latest = _action(cinder, volume["id"], {"revert": {"snapshot_id": first["id"]}})
    assert (not_latest.status, message(not_latest)) == (
        400,
        "Specified snapshot %s is None or not the latest one of volume %s."
        % (first["id"], volume["id"]),
    )
    done = _action(cinder, volume["id"], {"revert": {"snapshot_id": latest["id"]}})
    assert done.status == 202, done.body
    # build_time=0: the next reads show both available again
    assert cinder.show(volume["id"])["status"] == "available"
    assert cinder.get("/snapshots/" + latest["id"]).json()["snapshot"]["status"] == "available"


def test_revert_refusals(cinder):
    volume = _available(cinder)
    snap = cinder.snapshot(volume["id"])
    cinder.get("/snapshots/" + snap["id"])
    body = {"revert": {"snapshot_id": snap["id"]}}
    assert _action(cinder, volume["id"], {"os-extend": {"new_size": 2}}).status == 202
    cinder.show(volume["id"])
    bigger = _action(cinder, volume["id"], body)
    head = "Can't revert volume %s to its latest snapshot %s." % (volume["id"], snap["id"])
    assert (bigger.status, message(bigger)) == (
        400,
        head + " The volume size must be equal to the snapshot size.",
    )
    other = _available(cinder)
    other_snap = cinder.snapshot(other["id"])
    cinder.get("/snapshots/" + other_snap["id"])
    assert cinder.attach(cinder.server(), other["id"]).status == 200
    busy = _action(cinder, other["id"], {"revert": {"snapshot_id": other_snap["id"]}})
    assert (busy.status, message(busy)) == (
        409,
        "Invalid volume: Can't revert volume %s to its latest snapshot %s. Volume's status"
        " must be 'available'." % (other["id"], other_snap["id"]),
    )
    third = _available(cinder)
    third_snap = cinder.snapshot(third["id"])
    with cinder.cloud.store.transaction() as db:
        db.execute(
            "UPDATE volume_snapshots SET status = 'error', pending = NULL WHERE id = ?",
            (third_snap["id"],),
        )
    broken = _action(cinder, third["id"], {"revert": {"snapshot_id": third_snap["id"]}})
    assert (broken.status, message(broken)) == (
        409,
        "Invalid snapshot: Can't revert volume %s to its latest snapshot %s. Snapshot's"
        " status must be 'available'." % (third["id"], third_snap["id"]),
    )


def test_retype(cinder):
    gold = _new_type(cinder, "gold")
    volume = _available(cinder)
    body = {"os-retype": {"new_type": "gold", "migration_policy": "never"}}
    assert _action(cinder, volume["id"], body).status == 202
    shown = cinder.show(volume["id"])
    assert (shown["volume_type"], shown["volume_type_id"], shown["status"]) == (
        "gold",
        gold,
        "available",
    )
    same = _action(cinder, volume["id"], {"os-retype": {"new_type": gold}})
    assert (same.status, message(same)) == (400, "Invalid volume: " + _retype_refused())
    missing = _action(cinder, volume["id"], {"os-retype": {"new_type": "tin"}})
    assert (missing.status, message(missing)) == (
        404,
        "Volume type with name tin could not be found.",
    )
    policy = _action(
        cinder, volume["id"], {"os-retype": {"new_type": "x", "migration_policy": "now"}}
    )
    assert policy.status == 400


def test_retype_within_the_new_types_quota(cinder):
    _new_type(cinder, "gold")
    volume = _available(cinder, size=2)
    quota = "/os-quota-sets/" + cinder.projects["demo"]
    assert cinder.put(quota, {"quota_set": {"gigabytes_gold": 1}}, user="admin").status == 200
    over = _action(cinder, volume["id"], {"os-retype": {"new_type": "gold"}})
    assert (over.status, message(over)) == (
        413,
        "Requested volume or snapshot exceeds allowed gigabytes_gold quota. Requested 2G,"
        " quota is 1G and 0G has been consumed.",
    )
    assert cinder.show(volume["id"])["volume_type"] == "__DEFAULT__"


def _retype_refused():
    return (
        "Retype needs volume to be in available or in-use state, not be part of an active"
        " migration or a consistency group, requested type has to be different that the one"
        " from the volume, and for in-use volumes front-end qos specs cannot change."
    )


def test_reset_status_is_an_admins(cinder):
    volume = _available(cinder)
    body = {"os-reset_status": {"status": "error"}}
    refused = _action(cinder, volume["id"], body)
    assert (refused.status, message(refused)) == (
        403,
        "Policy doesn't allow volume_extension:volume_admin_actions:reset_status to be performed.",
    )
    assert _action(cinder, volume["id"], body, user="admin", project=False).status == 202
    assert cinder.show(volume["id"])["status"] == "error"
    for update, text in (
        ({}, "Must specify 'status', 'attach_status' or 'migration_status' for update."),
        ({"status": "deleting"}, "Cannot reset-state to deleting"),
        (
            {"status": "in-use"},
            "Cannot reset-state to in-use because volume does not have any attachments.",
        ),
        (
            {"attach_status": "glued"},
            "Volume attach status: glued is invalid, valid statuses are:"
            " ['attached', 'detached'].",
        ),
    ):
        result = _action(
            cinder, volume["id"], {"os-reset_status": update}, user="admin", project=False
        )
        assert (result.status, message(result)) == (400, text)
    bad = _action(
        cinder, volume["id"], {"os-reset_status": {"status": "happy"}}, user="admin", project=False
    )
    assert message(bad).startswith("Volume status: happy is invalid, valid statuses are: (")
    assert (
        _action(
            cinder,
            volume["id"],
            {"os-reset_status": {"status": "AVAILABLE"}},
            user="admin",
            project=False,
        ).status
        == 202
    )
    assert cinder.show(volume["id"])["status"] == "available"


def test_reset_to_detached_drops_the_attachments(cinder):
    volume = _available(cinder)
    assert cinder.attach(cinder.server(), volume["id"]).status == 200
    body = {"os-reset_status": {"status": "available", "attach_status": "detached"}}
    assert _action(cinder, volume["id"], body, user="admin", project=False).status == 202
    shown = cinder.show(volume["id"])
    assert (shown["status"], shown["attachments"]) == ("available", [])


def test_summary(cinder):
    _available(cinder, size=2, metadata={"tier": "gold", "k": "v"})
    _available(cinder, size=3, metadata={"tier": "silver"})
    _available(cinder, user="alt", size=5, metadata={"alt": "x"})
    old = cinder.get("/volumes/summary", version="3.11")
    assert old.status == 404
    plain = cinder.get("/volumes/summary", version="3.35").json()
    assert plain == {"volume-summary": {"total_count": 2, "total_size": 5}}
    summary = cinder.get("/volumes/summary").json()["volume-summary"]
    assert (summary["total_count"], summary["total_size"]) == (2, 5)
    assert {k: sorted(v) for k, v in summary["metadata"].items()} == {
        "tier": ["gold", "silver"],
        "k": ["v"],
    }
    every = cinder.get("/volumes/summary?all_tenants=1", user="admin").json()["volume-summary"]
    assert (every["total_count"], every["total_size"]) == (3, 10)


def test_unknown_action(cinder):
    volume = _available(cinder)
    result = _action(cinder, volume["id"], {"os-fly": {}})
    assert (result.status, message(result)) == (
        400,
        (
            "There is no such action: os-fly. Verify the request body and Content-Type header"
            " and try again."
        ),
    )


def test_snapshot_metadata(cinder):
    volume = _available(cinder)
    snap = cinder.snapshot(volume["id"], metadata={"a": "1"})
    path = "/snapshots/%s/metadata" % snap["id"]
    merged = cinder.post(path, {"metadata": {"b": "2"}}).json()["metadata"]
    assert merged == {"a": "1", "b": "2"}
    assert cinder.get(path).json() == {"metadata": {"a": "1", "b": "2"}}
    assert cinder.get(path + "/b").json() == {"meta": {"b": "2"}}
    assert cinder.put(path + "/b", {"meta": {"b": "3"}}).json() == {"meta": {"b": "3"}}
    mismatch = cinder.put(path + "/b", {"meta": {"c": "3"}})
    assert (mismatch.status, message(mismatch)) == (400, "Request body and URI mismatch")
    assert cinder.delete(path + "/a").status == 200
    gone = cinder.get(path + "/a")
    assert (gone.status, message(gone)) == (
        404,
        "Snapshot %s has no metadata with key a." % snap["id"],
    )
    assert cinder.delete(path + "/a").status == 404
    replaced = cinder.put(path, {"metadata": {"z": "9"}}).json()["metadata"]
    assert replaced == {"z": "9"}
    assert cinder.get("/snapshots/" + snap["id"]).json()["snapshot"]["metadata"] == {"z": "9"}
    assert cinder.get(path, user="alt").status == 404
    assert cinder.post(path, {"metadata": {"k": 1}}).status == 400


def test_retype_in_use_and_refused_while_busy(cinder):
    _new_type(cinder, "gold")
    _new_type(cinder, "silver")
    volume = _available(cinder)
    assert cinder.attach(cinder.server(), volume["id"]).status == 200
    assert _action(cinder, volume["id"], {"os-retype": {"new_type": "gold"}}).status == 202
    shown = cinder.show(volume["id"])
    assert (shown["volume_type"], shown["status"]) == ("gold", "in-use")
    other = _available(cinder)
    body = {"transfer": {"volume_id": other["id"]}}
    assert cinder.post("/volume-transfers", body).status == 202
    busy = _action(cinder, other["id"], {"os-retype": {"new_type": "silver"}})
    assert (busy.status, message(busy)) == (400, "Invalid volume: " + _retype_refused())
