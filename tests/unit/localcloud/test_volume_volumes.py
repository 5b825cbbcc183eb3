"""Cinder's volumes in the local cloud: create (blank, from an image, a
snapshot, a volume), the lazy ``creating`` → ``available``, list filters and
paging, update, extend, metadata, delete rules and ownership."""

import json
import pathlib

import pytest

from tests.shape import assert_same_shape
from tests.unit.localcloud.volume_harness import CIRROS
from tests.unit.localcloud.volume_harness import MISSING
from tests.unit.localcloud.volume_harness import cinder_cloud
from tests.unit.localcloud.volume_harness import message

cinder = pytest.fixture(cinder_cloud, name="cinder")

FIXTURES = pathlib.Path(__file__).parents[2] / "fixtures" / "volume" / "volumes"


def load(name):
    return json.loads((FIXTURES / name).read_text())


def test_create_answers_creating_then_reads_available(cinder):
    volume = cinder.create(name="data", description="d", metadata={"k": "v"})
    assert volume["status"] == "creating"
    assert volume["volume_type"] == "__DEFAULT__"
    assert volume["bootable"] == "false"
    assert volume["attachments"] == []
    # the samples were made by an admin (provider_id, cluster_name, …)
    created = cinder.create(user="admin")
    assert_same_shape(created, load("v3.69/volume-create-response.json")["volume"])
    shown = cinder.show(volume["id"])
    admin = cinder.show(created["id"], user="admin", version="3.69")
    assert_same_shape(admin, load("v3.69/volume-show-response.json")["volume"])
    assert shown["status"] == "available"
    assert (shown["name"], shown["description"], shown["metadata"]) == ("data", "d", {"k": "v"})


def test_create_takes_build_time(tmp_path, clock):
    from tests.unit.localcloud.volume_harness import Cinder
    from tests.unit.localcloud.volume_harness import make_cloud

    cloud = make_cloud(tmp_path / "slow", build_time=10)
    try:
        slow = Cinder(cloud)
        volume = slow.create(imageRef=CIRROS)
        clock.advance(5)
        assert slow.show(volume["id"])["status"] == "creating"
        clock.advance(6)
        assert slow.show(volume["id"])["status"] == "available"
        # a blank volume is made at once; Cinder's answer to the create
        # still says creating
        blank = slow.create()
        assert blank["status"] == "creating"
        assert slow.show(blank["id"])["status"] == "available"
    finally:
        cloud.close()


def test_detail_view_follows_the_microversion(cinder):
    volume = cinder.create()
    old = cinder.show(volume["id"], version="3.0")
    assert "volume_type_id" not in old and "consumes_quota" not in old and "group_id" not in old
    new = cinder.show(volume["id"], version="3.70")
    assert new["volume_type_id"] == "5fed9d7c-401d-46e2-8e80-f30c70cb7e1d"
    assert new["consumes_quota"] is True and new["shared_targets"] is False
    assert new["service_uuid"] == "6f3b2d0e-5c1a-4e8b-9f7d-2a4c6e8b0d13"
    assert cinder.show(volume["id"], version="3.68")["shared_targets"] is False
    # admin-only fields
    assert "os-vol-host-attr:host" not in new
    assert "os-vol-host-attr:host" in cinder.show(volume["id"], user="admin")


def test_extend_while_creating_is_400(tmp_path, clock):
    from tests.unit.localcloud.volume_harness import Cinder
    from tests.unit.localcloud.volume_harness import make_cloud

    cloud = make_cloud(tmp_path / "slow", build_time=10)
    try:
        slow = Cinder(cloud)
        volume = slow.create(imageRef=CIRROS)
        early = slow.post("/volumes/%s/action" % volume["id"], {"os-extend": {"new_size": 2}})
        assert early.status == 400
        assert message(early) == (
            "Invalid volume: Volume %s status must be '{'status': 'available'}' to extend,"
            " currently creating." % volume["id"]
        )
    finally:
        cloud.close()


def test_create_from_image_is_bootable_with_image_metadata(cinder):
    volume = cinder.create(imageRef=CIRROS)
    shown = cinder.show(volume["id"])
    assert shown["bootable"] == "true"
    assert shown["volume_image_metadata"]["image_id"] == CIRROS
    # by name, as cinder resolves it
    assert cinder.create(imageRef="cirros-0.6.2-x86_64-disk")["status"] == "creating"


def test_create_from_unknown_image_is_400(cinder):
    result = cinder.create(expect=400, imageRef=MISSING)
    assert message(result) == "Invalid image identifier or unable to access requested image."


def test_create_from_image_larger_than_the_volume(cinder):
    with cinder.cloud.store.transaction() as db:
        big = cinder.cloud.image.create_image(
            db, "big", cinder.projects["demo"], size=2 * 1024**3 + 1, min_disk=4
        )
    result = cinder.create(expect=400, imageRef=big["id"], size=2)
    assert message(result) == (
        "Invalid input received: Size of specified image 3GB is larger than volume size 2GB."
    )
    result = cinder.create(expect=400, imageRef=big["id"], size=3)
    assert message(result) == (
        "Invalid input received: Volume size 3GB cannot be smaller than the image minDisk"
        " size 4GB."
    )
    assert cinder.create(imageRef=big["id"], size=4)["size"] == 4
    zero = cinder.create(expect=400, size="0")
    assert message(zero) == (
        "Invalid input received: Volume size '0' must be an integer and greater than 0"
    )


def test_create_from_snapshot_defaults_to_its_size(cinder):
    volume = cinder.create(size=3)
    cinder.show(volume["id"])
    snap = cinder.snapshot(volume["id"])
    cinder.get("/snapshots/" + snap["id"])
    clone = cinder.create(size=None, snapshot_id=snap["id"])
    assert clone["size"] == 3 and clone["snapshot_id"] == snap["id"]
    small = cinder.create(expect=400, size=2, snapshot_id=snap["id"])
    assert message(small) == (
        "Invalid input received: Volume size '2'GB cannot be smaller than the snapshot size"
        " 3GB. They must be >= original snapshot size."
    )


def test_create_from_a_creating_snapshot_is_400(tmp_path, clock):
    from tests.unit.localcloud.volume_harness import Cinder
    from tests.unit.localcloud.volume_harness import make_cloud

    cloud = make_cloud(tmp_path / "slow", build_time=10)
    try:
        slow = Cinder(cloud)
        volume = slow.create()
        clock.advance(11)
        snap = slow.snapshot(volume["id"])
        result = slow.create(expect=400, snapshot_id=snap["id"])
        assert message(result) == (
            "Invalid snapshot: Originating snapshot status must be one of 'available' values"
        )
    finally:
        cloud.close()


def test_create_from_another_projects_snapshot_is_404(cinder):
    volume = cinder.create(user="alt")
    snap = cinder.snapshot(volume["id"], user="alt")
    result = cinder.create(expect=404, snapshot_id=snap["id"])
    assert message(result) == "Snapshot %s could not be found." % snap["id"]


def test_create_bad_input(cinder):
    assert cinder.create(expect=400, size=-1).status == 400
    assert "Additional properties" in message(cinder.create(expect=400, bogus=1))
    result = cinder.create(expect=400, availability_zone="elsewhere")
    assert message(result) == "Availability zone 'elsewhere' is invalid."
    result = cinder.create(expect=404, volume_type="gold")
    assert message(result) == "Volume type with name gold could not be found."
    result = cinder.create(expect=400, multiattach=True)
    assert message(result).startswith("multiattach parameter has been removed.")
    assert cinder.post("/volumes", {"volume": {"size": 1}}, user="demo").status == 202


def test_others_volumes_are_not_found_and_admins_see_them_with_all_tenants(cinder):
    volume = cinder.create(user="alt")
    result = cinder.get("/volumes/" + volume["id"])
    assert result.status == 404
    assert message(result) == "Volume %s could not be found." % volume["id"]
    for method, body in (("PUT", {"volume": {"name": "x"}}), ("DELETE", None)):
        assert cinder.call(method, "/volumes/" + volume["id"], body).status == 404
    assert volume["id"] not in [v["id"] for v in cinder.get("/volumes").json()["volumes"]]
    listed = cinder.get("/volumes?all_tenants=1").json()["volumes"]
    assert volume["id"] not in [v["id"] for v in listed]  # ignored for members
    admin = cinder.get("/volumes", user="admin").json()["volumes"]
    assert volume["id"] not in [v["id"] for v in admin]
    admin_all = cinder.get("/volumes/detail?all_tenants=1", user="admin").json()["volumes"]
    assert volume["id"] in [v["id"] for v in admin_all]
    assert cinder.show(volume["id"], user="admin")["id"] == volume["id"]


def test_url_of_another_project_is_400(cinder):
    path = "/volume/v3/%s/volumes" % cinder.projects["alt"]
    result = cinder.client.request("GET", path, token=cinder.tokens["demo"])
    assert result.status == 400 and message(result) == "Malformed request url"


def test_project_less_urls(cinder):
    volume = cinder.create()
    assert cinder.get("/volumes/" + volume["id"], project=False).status == 200


def test_list_filters(cinder):
    a = cinder.create(name="a", metadata={"tier": "gold"})
    b = cinder.create(name="b", imageRef=CIRROS)
    cinder.show(a["id"])

    def names(query):
        result = cinder.get("/volumes/detail?" + query)
        assert result.status == 200, result.body
        return sorted(v["name"] for v in result.json()["volumes"])

    assert names("name=a") == ["a"]
    assert names("status=available") == ["a", "b"]
    assert names("bootable=true") == ["b"]
    assert names("metadata=%7B%27tier%27%3A%27gold%27%7D") == ["a"]
    bad = cinder.get("/volumes?colour=red")
    assert bad.status == 400
    assert message(bad) == "Invalid filters colour are found in query options."
    # before 3.34 unknown filters are ignored
    assert cinder.get("/volumes?colour=red", version="3.30").status == 200
    del b


def test_list_sort_limit_marker_and_links(cinder):
    ids = [cinder.create(name="v%d" % i, size=i + 1)["id"] for i in range(3)]
    page = cinder.get("/volumes?limit=2&sort=size:asc").json()
    assert [v["id"] for v in page["volumes"]] == ids[:2]
    assert "marker=%s" % ids[1] in page["volumes_links"][0]["href"]
    rest = cinder.get("/volumes?limit=2&sort=size:asc&marker=" + ids[1]).json()
    assert [v["id"] for v in rest["volumes"]] == ids[2:]
    assert "volumes_links" not in rest
    newest_first = cinder.get("/volumes").json()["volumes"]
    assert [v["id"] for v in newest_first] == ids[::-1]
    assert cinder.get("/volumes?marker=" + MISSING).status == 404
    assert (
        message(cinder.get("/volumes?sort=colour")) == "Invalid input received: Invalid sort key"
    )
    assert cinder.get("/volumes?limit=x").status == 400
    both = cinder.get("/volumes?sort=name&sort_key=size")
    assert both.status == 400
    counted = cinder.get("/volumes?with_count=true&limit=1").json()
    assert counted["count"] == 3 and len(counted["volumes"]) == 1


def test_update(cinder):
    volume = cinder.create(name="a")
    result = cinder.put(
        "/volumes/" + volume["id"], {"volume": {"name": " b ", "description": "x"}}
    )
    assert result.status == 200
    assert (result.json()["volume"]["name"], result.json()["volume"]["description"]) == ("b", "x")
    assert cinder.put("/volumes/" + volume["id"], {"volume": {}}).status == 400
    assert cinder.put("/volumes/" + volume["id"], {"volume": {"size": 3}}).status == 400


def test_extend(cinder):
    volume = cinder.create(size=1)
    path = "/volumes/%s/action" % volume["id"]
    assert cinder.post(path, {"os-extend": {"new_size": 2}}).status == 202
    assert cinder.show(volume["id"])["size"] == 2
    smaller = cinder.post(path, {"os-extend": {"new_size": 1}})
    assert message(smaller) == (
        "Invalid input received: New size for extend must be greater than current size."
        " (current: 2, extended: 1)."
    )
    assert message(cinder.post(path, {"os-fly": {}})) == (
        "There is no such action: os-fly. Verify the request body and Content-Type header"
        " and try again."
    )


def test_extend_attached_needs_342(cinder):
    volume = cinder.create()
    server = cinder.server()
    assert cinder.attach(server, volume["id"]).status == 200
    path = "/volumes/%s/action" % volume["id"]
    old = cinder.post(path, {"os-extend": {"new_size": 2}}, version="3.41")
    assert "status must be '{'status': 'available'}' to extend, currently in-use" in message(old)
    assert cinder.post(path, {"os-extend": {"new_size": 2}}, version="3.42").status == 202
    shown = cinder.show(volume["id"])
    assert (shown["size"], shown["status"]) == (2, "in-use")


def test_metadata(cinder):
    volume = cinder.create(metadata={"a": "1"})
    path = "/volumes/%s/metadata" % volume["id"]
    assert cinder.get(path).json() == {"metadata": {"a": "1"}}
    assert cinder.post(path, {"metadata": {"b": "2"}}).json() == {"metadata": {"a": "1", "b": "2"}}
    assert cinder.put(path, {"metadata": {"c": "3"}}).json() == {"metadata": {"c": "3"}}
    assert cinder.put(path + "/c", {"meta": {"c": "4"}}).json() == {"meta": {"c": "4"}}
    assert message(cinder.put(path + "/c", {"meta": {"d": "4"}})) == (
        "Request body and URI mismatch"
    )
    assert cinder.get(path + "/c").json() == {"meta": {"c": "4"}}
    assert cinder.delete(path + "/c").status == 200
    missing = cinder.delete(path + "/c")
    assert missing.status == 404
    assert message(missing) == "Volume %s has no metadata with key c." % volume["id"]


def test_delete_refused_with_snapshots_or_attached(cinder):
    refused = (
        "Invalid volume: Volume status must be available or error or error_restoring or"
        " error_extending or error_managing and must not be migrating, attached, belong to a"
        " group, have snapshots, awaiting a transfer, or be disassociated from snapshots after"
        " volume transfer."
    )
    volume = cinder.create()
    cinder.show(volume["id"])
    snap = cinder.snapshot(volume["id"])
    result = cinder.delete("/volumes/" + volume["id"])
    assert (result.status, message(result)) == (400, refused)
    cinder.get("/snapshots/" + snap["id"])
    assert cinder.delete("/volumes/%s?cascade=true" % volume["id"]).status == 202
    assert cinder.get("/snapshots/" + snap["id"]).status == 404
    attached = cinder.create()
    server = cinder.server()
    assert cinder.attach(server, attached["id"]).status == 200
    result = cinder.delete("/volumes/" + attached["id"])
    assert (result.status, message(result)) == (400, refused)
    assert cinder.delete("/volumes/%s?force=true" % attached["id"]).status == 403


def test_delete(cinder):
    volume = cinder.create()
    cinder.show(volume["id"])
    assert cinder.delete("/volumes/" + volume["id"]).status == 202
    assert cinder.get("/volumes/" + volume["id"]).status == 404
