"""The microversions the audit (test_volume_microversions.py) once listed
as gaps, each served as Cinder 29 serves it: the volume list's
``glance_metadata`` (3.4), like (3.34) and time comparison (3.60) filters,
and the rest below."""

import urllib.parse

import pytest

from tests.unit.localcloud.volume_harness import CIRROS
from tests.unit.localcloud.volume_harness import MISSING
from tests.unit.localcloud.volume_harness import cinder_cloud
from tests.unit.localcloud.volume_harness import message

cinder = pytest.fixture(cinder_cloud, name="cinder")


def names(cinder, query, user="demo", version="3.60"):
    result = cinder.get("/volumes/detail?" + query, user=user, version=version)
    assert result.status == 200, result.body
    return sorted(v["name"] for v in result.json()["volumes"])


def quoted(value):
    return urllib.parse.quote(str(value))


# -- 3.4: glance_metadata ----------------------------------------------------------


def test_glance_metadata_filter_from_3_4(cinder):
    cinder.create(name="blank")
    cinder.create(name="cirros", imageRef=CIRROS)
    wanted = quoted({"image_id": CIRROS})
    assert names(cinder, "glance_metadata=" + wanted, version="3.4") == ["cirros"]
    # before 3.4 Cinder drops the filter
    assert names(cinder, "glance_metadata=" + wanted, version="3.3") == ["blank", "cirros"]
    # a value that is no dict: Cinder's query finds nothing
    assert names(cinder, "glance_metadata=cirros", version="3.4") == []
    other = quoted({"image_id": "another"})
    assert names(cinder, "glance_metadata=" + other, version="3.4") == []


def test_glance_metadata_is_an_admins_filter_from_3_34(cinder):
    cinder.create(name="cirros", imageRef=CIRROS)
    wanted = quoted({"image_id": CIRROS})
    refused = cinder.get("/volumes?glance_metadata=" + wanted, version="3.34")
    assert refused.status == 400
    assert message(refused) == "Invalid filters glance_metadata are found in query options."
    query = "all_tenants=1&glance_metadata=" + wanted
    assert names(cinder, query, user="admin", version="3.34") == ["cirros"]


# -- 3.34: like filters ----------------------------------------------------------


def test_like_filters_from_3_34(cinder):
    for name in ("alpha-data", "beta-DATA", "gamma"):
        cinder.create(name=name)
    assert names(cinder, "name~=data", version="3.34") == ["alpha-data", "beta-DATA"]
    assert names(cinder, "name~=a_p", version="3.34") == ["alpha-data"]
    assert names(cinder, "name~=zeta", version="3.34") == []
    # before 3.34 a like key is no filter (ignored, as any unknown one)
    assert names(cinder, "name~=data", version="3.33") == ["alpha-data", "beta-DATA", "gamma"]


def test_a_like_key_of_an_unconfigured_filter_is_400(cinder):
    refused = cinder.get("/volumes?description~=x", version="3.34")
    assert refused.status == 400
    assert message(refused) == "Invalid filters description~ are found in query options."


# -- 3.60: time comparisons --------------------------------------------------------


def test_created_at_comparisons(cinder):
    first = cinder.create(name="first")
    second = cinder.create(name="second")
    at = quoted(cinder.show(second["id"])["created_at"])
    before = quoted(cinder.show(first["id"])["created_at"])
    assert names(cinder, "created_at=gte:" + at) == ["second"]
    assert names(cinder, "created_at=lt:" + at) == ["first"]
    assert names(cinder, "created_at=eq:" + before) == ["first"]
    assert names(cinder, "created_at=gt:2000-01-01T00:00:00Z") == ["first", "second"]
    # Cinder joins the comparisons with OR
    assert names(cinder, "created_at=lt:2000-01-01T00:00:00,gte:" + at) == ["second"]


def test_updated_at_comparisons(cinder):
    volume = cinder.create(name="touched")
    cinder.create(name="untouched")
    cinder.show(volume["id"])
    result = cinder.put("/volumes/" + volume["id"], {"volume": {"description": "d"}})
    assert result.status == 200, result.body
    at = quoted(cinder.show(volume["id"])["updated_at"])
    assert names(cinder, "updated_at=gte:" + at) == ["touched"]
    assert names(cinder, "updated_at=lt:" + at) == ["untouched"]
    assert names(cinder, "updated_at=neq:" + at) == ["untouched"]


@pytest.mark.parametrize(
    ("query", "text"),
    [
        ("created_at=after:2026-01-01T00:00:00", "Invalid after operator"),
        ("created_at=2026", "Invalid 2026 operator"),
        ("updated_at=gt:yesterday", "Invalid yesterday value"),
        ("created_at=gt", "Invalid gt value"),
    ],
)
def test_a_bad_time_comparison_is_400(cinder, query, text):
    refused = cinder.get("/volumes?" + query, version="3.60")
    assert refused.status == 400
    assert message(refused) == text


def test_time_filters_are_ignored_before_the_configured_filters(cinder):
    cinder.create(name="v")
    assert names(cinder, "created_at=gt:2999-01-01T00:00:00", version="3.30") == ["v"]
    assert names(cinder, "created_at=gt:2999-01-01T00:00:00", version="3.31") == []


# -- 3.7 / 3.26: clusters ----------------------------------------------------------


def test_no_clusters_are_listed_from_3_7(cinder):
    for path in ("/clusters", "/clusters/detail"):
        result = cinder.get(path, user="admin", version="3.7")
        assert result.status == 200, result.body
        assert result.json() == {"clusters": []}
        assert cinder.get(path, user="admin", version="3.6").status == 404
    assert cinder.get("/clusters?is_up=true&binary=cinder-volume", user="admin").status == 200


def test_cluster_filters_are_checked(cinder):
    bad = cinder.get("/clusters?colour=red", user="admin")
    assert bad.status == 400
    assert message(bad) == "Invalid input received: Invalid filter keys: colour"
    # the replication filters from 3.26
    assert cinder.get("/clusters?frozen=true", user="admin", version="3.26").status == 200
    old = cinder.get("/clusters?frozen=true", user="admin", version="3.25")
    assert message(old) == "Invalid input received: Invalid filter keys: frozen"
    bad = cinder.get("/clusters?disabled=maybe", user="admin")
    assert message(bad) == "Value 'maybe' for 'disabled' is not a boolean."


def test_a_cluster_is_not_found(cinder):
    shown = cinder.get("/clusters/c1", user="admin")
    assert shown.status == 404
    text = "Cluster {'binary': 'cinder-volume', 'name': 'c1'} could not be found."
    assert message(shown) == text
    for action in ("enable", "disable"):
        result = cinder.put("/clusters/" + action, {"name": "c1"}, user="admin")
        assert result.status == 404
        assert message(result) == text


def test_clusters_are_the_admins(cinder):
    refused = cinder.get("/clusters")
    assert refused.status == 403
    assert message(refused) == "Policy doesn't allow clusters:get_all to be performed."
    assert message(cinder.get("/clusters/c1")) == (
        "Policy doesn't allow clusters:get to be performed."
    )
    result = cinder.put("/clusters/enable", {"name": "c1"})
    assert message(result) == "Policy doesn't allow clusters:update to be performed."
    # the body is checked first
    assert cinder.put("/clusters/disable", {"colour": "red"}).status == 400


# -- 3.24: workers cleanup ---------------------------------------------------------


def test_workers_cleanup_reaches_every_matching_service(cinder):
    result = cinder.post("/workers/cleanup", user="admin", version="3.24")
    assert result.status == 202, result.body
    body = result.json()
    assert body["unavailable"] == []
    assert [s["binary"] for s in body["cleaning"]] == [
        "cinder-scheduler",
        "cinder-volume",
        "cinder-backup",
    ]
    assert body["cleaning"][1] == {
        "id": 2,
        "host": "localcloud@lvm",
        "binary": "cinder-volume",
        "cluster_name": None,
    }
    narrowed = cinder.post("/workers/cleanup", {"binary": "cinder-volume"}, user="admin").json()
    assert [s["host"] for s in narrowed["cleaning"]] == ["localcloud@lvm"]
    none = cinder.post("/workers/cleanup", {"cluster_name": "c1"}, user="admin").json()
    assert none == {"cleaning": [], "unavailable": []}
    assert cinder.post("/workers/cleanup", user="admin", version="3.23").status == 404


def test_workers_cleanup_refusals(cinder):
    bad = cinder.post("/workers/cleanup", {"resource_type": "backup"}, user="admin")
    assert bad.status == 400
    assert message(bad) == (
        "Invalid input received: Resource type Backup not valid, must be Volume or Snapshot"
    )
    missing = cinder.post("/workers/cleanup", {"resource_id": MISSING}, user="admin")
    assert missing.status == 400
    assert message(missing) == (
        "Invalid input received: ('There is no resource with UUID %s pending cleanup.', '%s')"
        % ("%s", MISSING)
    )
    assert cinder.post("/workers/cleanup", {"binary": "cinder-backup"}, user="admin").status == 400
    refused = cinder.post("/workers/cleanup", {})
    assert refused.status == 403
    assert message(refused) == "Policy doesn't allow workers:cleanup to be performed."


# -- 3.8 / 3.17: manageable volumes and snapshots ----------------------------------


@pytest.mark.parametrize("collection", ["manageable_volumes", "manageable_snapshots"])
def test_the_backend_has_nothing_to_manage(cinder, collection):
    key = collection.replace("_", "-")
    for path in ("/" + collection, "/%s/detail" % collection):
        result = cinder.get(path + "?host=localcloud@lvm", user="admin", version="3.8")
        assert result.status == 200, result.body
        assert result.json() == {key: []}
        assert cinder.get(path + "?host=localcloud@lvm", user="admin", version="3.7").status == 404
    pooled = cinder.get("/%s?host=localcloud@lvm%%23lvm&sort=size:asc" % collection, user="admin")
    assert pooled.json() == {key: []}


@pytest.mark.parametrize("collection", ["manageable_volumes", "manageable_snapshots"])
def test_manageable_refusals(cinder, collection):
    path = "/" + collection
    missing = cinder.get(path, user="admin", version="3.16")
    assert missing.status == 400
    assert message(missing) == "Invalid input received: Host field is missing."
    both = cinder.get(path + "?host=h&cluster=c", user="admin", version="3.17")
    assert (
        message(both)
        == "Invalid input received: One and only one of cluster and host must be set."
    )
    other = cinder.get(path + "?host=elsewhere", user="admin")
    assert other.status == 404
    assert message(other) == "Service cinder-volume could not be found on host elsewhere."
    clustered = cinder.get(path + "?cluster=c1", user="admin", version="3.17")
    assert clustered.status == 404
    assert message(clustered) == "Service cinder-volume could not be found."
    sort = cinder.get(path + "?host=localcloud@lvm&sort=name", user="admin")
    assert sort.status == 400
    assert message(sort) == "Invalid sort keys passed: name"
    refused = cinder.get(path + "?host=localcloud@lvm")
    assert refused.status == 403
    resource = "snapshot" if "snapshots" in collection else "volume"
    assert message(refused) == (
        "Policy doesn't allow %s_extension:list_manageable to be performed." % resource
    )


# -- 3.15: ETags on volume metadata ------------------------------------------------


def _etag(metadata):
    import hashlib
    import json

    return hashlib.md5(json.dumps({"metadata": metadata}).encode()).hexdigest()


def test_volume_metadata_etag_from_3_15(cinder):
    volume = cinder.create(metadata={"a": "1"})
    path = "/volumes/%s/metadata" % volume["id"]
    shown = cinder.get(path, version="3.15")
    assert shown.status == 200
    assert shown.json() == {"metadata": {"a": "1"}}
    assert shown.header("Etag") == _etag({"a": "1"})
    assert cinder.get(path, version="3.14").header("Etag") is None


def test_if_match_guards_the_metadata_updates(cinder):
    volume = cinder.create(metadata={"a": "1"})
    path = "/volumes/%s/metadata" % volume["id"]
    tag = cinder.get(path).header("Etag")
    body = {"metadata": {"a": "2"}}
    # a current tag (quoted, among others) lets the replace through
    match = {"If-Match": '"other", "%s"' % tag}
    assert cinder.put(path, body, version="3.15", headers=match).status == 200
    # the same tag is now stale: Cinder's empty 412, nothing changed
    for target, payload in ((path, {"metadata": {"a": "3"}}), (path + "/a", {"meta": {"a": "3"}})):
        stale = cinder.put(target, payload, version="3.15", headers={"If-Match": tag})
        assert stale.status == 412
        assert stale.body in (b"", "")
    assert cinder.get(path).json() == {"metadata": {"a": "2"}}
    # before 3.15 If-Match is not looked at
    old = cinder.put(path + "/a", {"meta": {"a": "4"}}, version="3.14", headers={"If-Match": tag})
    assert old.status == 200
    fresh = {"If-Match": cinder.get(path).header("Etag")}
    assert (
        cinder.put(path + "/a", {"meta": {"a": "5"}}, version="3.15", headers=fresh).status == 200
    )
    assert cinder.get(path).json() == {"metadata": {"a": "5"}}


# -- 3.26: failover of a host or cluster -------------------------------------------


def test_failover_of_the_unreplicated_backend_is_refused(cinder):
    for host in ("localcloud@lvm", "localcloud@lvm#lvm"):
        refused = cinder.put("/os-services/failover_host", {"host": host}, user="admin")
        assert refused.status == 400
        assert message(refused) == (
            "Invalid input received: No service could be changed: replication_status in"
            " ['localcloud@lvm'] must be ['enabled', 'failed-over'] and must be up to failover."
        )
    nowhere = cinder.put("/os-services/failover_host", {"host": "nowhere"}, user="admin")
    assert message(nowhere) == "Invalid input received: No service found with host=nowhere"
    clustered = cinder.put("/os-services/failover_host", {"cluster": "c1"}, user="admin")
    assert message(clustered) == "Invalid input received: No service found with cluster=c1"


def test_failover_parameters_follow_the_microversion(cinder):
    path = "/os-services/failover_host"
    both = cinder.put(path, {"host": "h", "cluster": "c"}, user="admin", version="3.26")
    assert message(both) == (
        "Invalid input received: One and only one of cluster and host must be set."
    )
    old = cinder.put(path, {"cluster": "c"}, user="admin", version="3.25")
    assert message(old) == "Invalid input received: Host field is missing."
    assert cinder.put(path, {"colour": "red"}, user="admin").status == 400
    refused = cinder.put(path, {"host": "localcloud@lvm"})
    assert refused.status == 403
    assert message(refused) == (
        "Policy doesn't allow volume_extension:services:update to be performed."
    )


# -- 3.46: a volume from Nova's snapshot image ---------------------------------------


def _nova_image(cinder, snapshot_id):
    """An image as Nova's snapshot of a volume-backed server leaves it:
    no data, the boot volume's snapshot in ``block_device_mapping``."""
    import json

    from occli.localcloud.image import images

    bdm = [{"source_type": "snapshot", "boot_index": 0, "snapshot_id": snapshot_id}]
    with cinder.cloud.store.transaction() as db:
        image = images.create_image(
            db,
            "nova-snap",
            cinder.projects["demo"],
            size=0,
            properties={"block_device_mapping": json.dumps(bdm), "bdm_v2": "True"},
        )
    return image["id"]


def test_a_nova_image_is_its_snapshot_from_3_46(cinder):
    source = cinder.create(size=2, name="boot")
    cinder.show(source["id"])
    snap = cinder.snapshot(source["id"])
    cinder.get("/snapshots/" + snap["id"])
    image_id = _nova_image(cinder, snap["id"])
    made = cinder.post("/volumes", {"volume": {"imageRef": image_id}}, version="3.46")
    assert made.status == 202, made.body
    volume = made.json()["volume"]
    assert (volume["snapshot_id"], volume["size"]) == (snap["id"], 2)
    # before 3.46 the image is an (empty) image
    old = cinder.post("/volumes", {"volume": {"imageRef": image_id, "size": 1}}, version="3.45")
    assert old.status == 202, old.body
    assert old.json()["volume"]["snapshot_id"] is None
    assert cinder.show(old.json()["volume"]["id"])["volume_image_metadata"]["image_id"] == image_id


def test_a_nova_image_of_a_gone_snapshot_is_404(cinder):
    image_id = _nova_image(cinder, MISSING)
    made = cinder.post("/volumes", {"volume": {"imageRef": image_id}}, version="3.46")
    assert made.status == 404
    assert message(made) == (
        "Nova specific image is found, but boot volume snapshot id:%s not found." % MISSING
    )


# -- 3.68: os-reimage ----------------------------------------------------------------


def reimage(cinder, volume_id, version="3.68", **params):
    body = {"os-reimage": params}
    return cinder.post("/volumes/%s/action" % volume_id, body, version=version)


def test_reimage_writes_the_volume_from_the_image(cinder):
    volume = cinder.create(size=1)
    assert cinder.show(volume["id"])["bootable"] == "false"
    result = reimage(cinder, volume["id"], image_id=CIRROS)
    assert result.status == 202, result.body
    shown = cinder.show(volume["id"])
    assert (shown["status"], shown["bootable"]) == ("available", "true")
    assert shown["volume_image_metadata"]["image_id"] == CIRROS
    old = reimage(cinder, volume["id"], version="3.67", image_id=CIRROS)
    assert old.status == 404


def test_reimage_refusals(cinder):
    volume = cinder.create(size=1)
    cinder.show(volume["id"])
    gone = reimage(cinder, volume["id"], image_id=MISSING)
    assert gone.status == 404
    assert message(gone) == "Image %s could not be found." % MISSING
    assert reimage(cinder, volume["id"], image_id="not-a-uuid").status == 400
    assert reimage(cinder, volume["id"], image_id=CIRROS, colour="red").status == 400
    attaching = cinder.post("/volumes/%s/action" % volume["id"], {"os-reserve": None})
    assert attaching.status == 202, attaching.body
    busy = reimage(cinder, volume["id"], image_id=CIRROS, reimage_reserved=True)
    assert message(busy) == (
        "Invalid volume: Volume %s status must be available or error or reserved, but current"
        " status is attaching." % volume["id"]
    )
    reset = {"os-reset_status": {"status": "reserved"}}
    result = cinder.post("/volumes/%s/action" % volume["id"], reset, user="admin")
    assert result.status == 202, result.body
    refused = reimage(cinder, volume["id"], image_id=CIRROS)
    assert refused.status == 400
    assert message(refused) == (
        "Invalid volume: Volume %s status must be available or error, but current status is"
        " reserved." % volume["id"]
    )
    allowed = reimage(cinder, volume["id"], image_id=CIRROS, reimage_reserved=True)
    assert allowed.status == 202, allowed.body
    assert cinder.show(volume["id"])["status"] == "reserved"


# -- 3.32: set-log and get-log -------------------------------------------------------


def get_log(cinder, body, version="3.32"):
    result = cinder.put("/os-services/get-log", body, user="admin", version=version)
    assert result.status == 200, result.body
    return result.json()["log_levels"]


def test_get_log_lists_every_process(cinder):
    levels = get_log(cinder, {})
    assert [(e["host"], e["binary"]) for e in levels] == [
        ("localcloud", "cinder-api"),
        ("localcloud", "cinder-scheduler"),
        ("localcloud@lvm", "cinder-volume"),
        ("localcloud", "cinder-backup"),
    ]
    assert all(level == "INFO" for e in levels for level in e["levels"].values())
    volume = get_log(cinder, {"binary": "cinder-volume", "prefix": "cinder.volume"})
    assert volume == [
        {
            "host": "localcloud@lvm",
            "binary": "cinder-volume",
            "levels": {"cinder.volume.manager": "INFO", "cinder.volume.drivers.lvm": "INFO"},
        }
    ]
    assert get_log(cinder, {"server": "elsewhere"}) == []


def test_set_log_changes_the_reached_loggers(cinder):
    body = {"binary": "cinder-volume", "prefix": "cinder.volume", "level": "debug"}
    result = cinder.put("/os-services/set-log", body, user="admin", version="3.32")
    assert result.status == 202, result.body
    volume = get_log(cinder, {"binary": "cinder-volume"})[0]["levels"]
    assert volume == {
        "cinder": "INFO",
        "cinder.volume.manager": "DEBUG",
        "cinder.volume.drivers.lvm": "DEBUG",
    }
    assert get_log(cinder, {"binary": "cinder-backup"})[0]["levels"]["cinder"] == "INFO"


def test_log_refusals(cinder):
    bad = cinder.put("/os-services/set-log", {"level": "loud"}, user="admin")
    assert bad.status == 400
    assert message(bad) == "Invalid input received: loud is not a valid log level."
    assert cinder.put("/os-services/get-log", {"binary": "nova"}, user="admin").status == 400
    old = cinder.put("/os-services/get-log", {}, user="admin", version="3.31")
    assert old.status == 404
    refused = cinder.put("/os-services/get-log", {})
    assert refused.status == 403
