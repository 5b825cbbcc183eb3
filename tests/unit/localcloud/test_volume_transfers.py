"""Cinder's volume transfers in the local cloud: a request's one-time auth
key (stored hashed only), acceptance by another project (the volume and
its snapshots move, quotas checked in the recipient's project), delete,
listing, both routes, and every refusal with Cinder's text."""

import re

import pytest

from tests.unit.localcloud.volume_harness import MISSING
from tests.unit.localcloud.volume_harness import cinder_cloud
from tests.unit.localcloud.volume_harness import message

cinder = pytest.fixture(cinder_cloud, name="cinder")


def _available(cinder, user="demo", **volume):
    created = cinder.create(user=user, **volume)
    cinder.show(created["id"], user=user)
    return created


def _transfer(cinder, volume_id, user="demo", version="3.70", **extra):
    body = {"transfer": dict(extra, volume_id=volume_id)}
    result = cinder.post("/volume-transfers", body, user=user, version=version)
    assert result.status == 202, result.body
    return result.json()["transfer"]


def _accept(cinder, transfer_id, key, user="alt", **kw):
    body = {"accept": {"auth_key": key}}
    return cinder.post("/os-volume-transfer/%s/accept" % transfer_id, body, user=user, **kw)


def test_create_shows_the_key_once_and_stores_only_its_hash(cinder):
    volume = _available(cinder, name="v1")
    made = _transfer(cinder, volume["id"], name=" t1 ")
    assert re.fullmatch("[0-9a-f]{16}", made["auth_key"])
    assert (made["name"], made["volume_id"], made["no_snapshots"]) == ("t1", volume["id"], False)
    assert made["source_project_id"] == cinder.projects["demo"]
    assert (made["destination_project_id"], made["accepted"]) == (None, False)
    assert cinder.show(volume["id"])["status"] == "awaiting-transfer"
    shown = cinder.get("/volume-transfers/" + made["id"]).json()["transfer"]
    assert "auth_key" not in shown
    assert shown["links"][0]["href"].endswith("/os-volume-transfer/" + made["id"])
    with cinder.cloud.store.read() as db:
        stored = dict(db.execute("SELECT * FROM volume_transfers").fetchone())
    assert made["auth_key"] not in repr(stored)
    assert len(stored["salt"]) == 8 and len(stored["crypt_hash"]) == 40


def test_views_follow_the_microversion(cinder):
    volume = _available(cinder)
    made = _transfer(cinder, volume["id"], version="3.0")
    assert set(made) == {"id", "created_at", "name", "volume_id", "auth_key", "links"}
    old = cinder.get("/os-volume-transfer/" + made["id"], version="3.55").json()["transfer"]
    assert old["no_snapshots"] is False and "accepted" not in old
    listed = cinder.get("/os-volume-transfer").json()["transfers"]
    assert [set(t) for t in listed] == [{"id", "volume_id", "name", "links"}]
    detail = cinder.get("/volume-transfers/detail").json()["transfers"]
    assert detail[0]["id"] == made["id"] and "created_at" in detail[0]


def test_no_snapshots_needs_355_and_the_new_route(cinder):
    volume = _available(cinder)
    body = {"transfer": {"volume_id": volume["id"], "no_snapshots": True}}
    # the os-volume-transfer extension never takes it
    for path, version in (("/volume-transfers", "3.54"), ("/os-volume-transfer", "3.70")):
        result = cinder.post(path, body, version=version)
        assert result.status == 400
        assert "Additional properties are not allowed" in message(result)
    assert cinder.show(volume["id"])["status"] == "available"


def test_accept_moves_the_volume_and_its_snapshots(cinder):
    volume = _available(cinder, size=2)
    snap = cinder.snapshot(volume["id"])
    cinder.get("/snapshots/" + snap["id"])
    made = _transfer(cinder, volume["id"], name="gift")
    result = _accept(cinder, made["id"], made["auth_key"])
    assert result.status == 202, result.body
    assert set(result.json()["transfer"]) == {"id", "volume_id", "name", "links"}
    moved = cinder.show(volume["id"], user="alt")
    assert moved["status"] == "available"
    assert moved["os-vol-tenant-attr:tenant_id"] == cinder.projects["alt"]
    assert cinder.get("/volumes/" + volume["id"]).status == 404
    assert cinder.get("/snapshots/" + snap["id"], user="alt").status == 200
    assert cinder.get("/snapshots/" + snap["id"]).status == 404
    # accepted: gone for everyone, the key does not work twice
    assert cinder.get("/volume-transfers/" + made["id"]).status == 404
    assert cinder.get("/volume-transfers?all_tenants=1", user="admin").json()["transfers"] == []
    again = _accept(cinder, made["id"], made["auth_key"], user="admin")
    assert (again.status, message(again)) == (404, "Transfer %s could not be found." % made["id"])
    usage = cinder.get("/os-quota-sets/%s?usage=True" % cinder.projects["alt"], user="alt")
    assert usage.json()["quota_set"]["gigabytes"]["in_use"] == 4


def test_no_snapshots_leaves_them_with_the_donor(cinder):
    volume = _available(cinder)
    snap = cinder.snapshot(volume["id"])
    made = _transfer(cinder, volume["id"], no_snapshots=True)
    assert made["no_snapshots"] is True
    assert _accept(cinder, made["id"], made["auth_key"]).status == 202
    assert cinder.get("/snapshots/" + snap["id"]).status == 200
    assert cinder.get("/snapshots/" + snap["id"], user="alt").status == 404


def test_wrong_key_is_refused(cinder):
    volume = _available(cinder)
    made = _transfer(cinder, volume["id"])
    for key in ("0" * 16, 1234):
        result = _accept(cinder, made["id"], key)
        assert (result.status, message(result)) == (
            400,
            "Invalid auth key: Attempt to transfer %s with invalid auth key." % made["id"],
        )
    assert cinder.show(volume["id"])["status"] == "awaiting-transfer"
    missing = _accept(cinder, MISSING, "x")
    assert (missing.status, message(missing)) == (404, "Transfer %s could not be found." % MISSING)
    bad = cinder.post("/os-volume-transfer/%s/accept" % made["id"], {"accept": {}}, user="alt")
    assert bad.status == 400


def test_refused_unless_available(cinder):
    volume = _available(cinder)
    _transfer(cinder, volume["id"])
    again = cinder.post("/volume-transfers", {"transfer": {"volume_id": volume["id"]}})
    assert (again.status, message(again)) == (400, "Invalid volume: status must be available")
    stolen = cinder.post(
        "/volume-transfers", {"transfer": {"volume_id": volume["id"]}}, user="alt"
    )
    assert (stolen.status, message(stolen)) == (
        404,
        "Volume %s could not be found." % volume["id"],
    )


def test_snapshots_must_be_available(cinder):
    volume = _available(cinder)
    snap = cinder.snapshot(volume["id"])
    with cinder.cloud.store.transaction() as db:
        db.execute("UPDATE volume_snapshots SET status = 'error', pending = NULL")
    result = cinder.post("/volume-transfers", {"transfer": {"volume_id": volume["id"]}})
    assert (result.status, message(result)) == (
        400,
        "Invalid snapshot: snapshot: %s status must be available" % snap["id"],
    )
    assert _transfer(cinder, volume["id"], no_snapshots=True)["no_snapshots"] is True


def test_recipient_quotas(cinder):
    volume = _available(cinder, size=3)
    made = _transfer(cinder, volume["id"])
    quota = "/os-quota-sets/" + cinder.projects["alt"]
    assert cinder.put(quota, {"quota_set": {"gigabytes": 2}}, user="admin").status == 200
    result = _accept(cinder, made["id"], made["auth_key"])
    assert (result.status, message(result)) == (
        413,
        "Requested volume or snapshot exceeds allowed gigabytes quota. Requested 3G,"
        " quota is 2G and 0G has been consumed.",
    )
    assert result.headers["retry-after"] == "0"
    limits = {"gigabytes": 100, "volumes": 0}
    assert cinder.put(quota, {"quota_set": limits}, user="admin").status == 200
    result = _accept(cinder, made["id"], made["auth_key"])
    assert (result.status, message(result)) == (
        413,
        "VolumeLimitExceeded: Maximum number of volumes allowed (0) exceeded for quota 'volumes'.",
    )
    assert cinder.show(volume["id"])["status"] == "awaiting-transfer"


def test_recipient_snapshot_quota(cinder):
    volume = _available(cinder)
    cinder.snapshot(volume["id"])
    made = _transfer(cinder, volume["id"])
    quota = "/os-quota-sets/" + cinder.projects["alt"]
    assert cinder.put(quota, {"quota_set": {"snapshots": 0}}, user="admin").status == 200
    result = _accept(cinder, made["id"], made["auth_key"])
    assert (result.status, message(result)) == (
        413,
        "SnapshotLimitExceeded: Maximum number of snapshots allowed (0) exceeded",
    )


def test_delete_makes_the_volume_available_again(cinder):
    volume = _available(cinder)
    made = _transfer(cinder, volume["id"])
    assert cinder.delete("/volume-transfers/" + made["id"], user="alt").status == 404
    assert cinder.delete("/volume-transfers/" + made["id"]).status == 202
    assert cinder.show(volume["id"])["status"] == "available"
    assert cinder.get("/os-volume-transfer/" + made["id"]).status == 404
    refused = _accept(cinder, made["id"], made["auth_key"])
    assert refused.status == 404


def test_listing_is_per_project(cinder):
    mine = _transfer(cinder, _available(cinder)["id"], name="a")
    theirs = _transfer(cinder, _available(cinder, user="alt")["id"], user="alt", name="b")
    assert [t["id"] for t in cinder.get("/volume-transfers").json()["transfers"]] == [mine["id"]]
    assert cinder.get("/volume-transfers/" + theirs["id"]).status == 404
    every = cinder.get("/volume-transfers?all_tenants=1", user="admin").json()["transfers"]
    assert {t["id"] for t in every} == {mine["id"], theirs["id"]}
    named = cinder.get("/volume-transfers?all_tenants=1&name=b", user="admin").json()
    assert [t["id"] for t in named["transfers"]] == [theirs["id"]]
    assert cinder.get("/volume-transfers?colour=red").json()["transfers"] == []
    assert cinder.get("/volume-transfers?all_tenants=1").json()["transfers"][0]["id"] == mine["id"]


def test_volume_id_must_be_a_uuid(cinder):
    result = cinder.post("/volume-transfers", {"transfer": {"volume_id": "not-a-uuid"}})
    assert result.status == 400
    assert "volume_id" in message(result)
