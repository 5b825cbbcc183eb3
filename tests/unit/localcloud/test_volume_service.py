"""Cinder's framing in the local cloud: version documents, microversion
negotiation, fault bodies, the catalog, volume types, quotas and the
attachments API."""

import json
import pathlib

import pytest

from occli.localcloud.volume.api import microversions
from tests.shape import assert_same_shape
from tests.unit.localcloud.volume_harness import cinder_cloud
from tests.unit.localcloud.volume_harness import message

cinder = pytest.fixture(cinder_cloud, name="cinder")
FIXTURES = pathlib.Path(__file__).parents[2] / "fixtures" / "volume"


def load(name):
    return json.loads((FIXTURES / name).read_text())


def test_version_documents(cinder):
    """The root needs no token; ``/v3`` is behind the token check, as
    cinder's api-paste.ini puts it."""
    root = cinder.client.get("/volume/")
    assert root.status == 300
    assert_same_shape(root.json(), load("versions/versions-response.json"))
    document = root.json()["versions"][0]
    assert (document["min_version"], document["version"]) == ("3.0", microversions.MAX_VERSION)
    assert document["links"][1]["href"] == "http://cloud.test:8775/volume/v3/"
    anonymous = cinder.client.get("/volume/v3/")
    assert anonymous.status == 401
    assert anonymous.json()["error"]["message"] == (
        "The request you have made requires authentication."
    )
    v3 = cinder.client.get("/volume/v3", token=cinder.tokens["demo"])
    assert v3.status == 200 and v3.json() == root.json()


def test_microversion_header(cinder):
    assert cinder.get("/volumes", version=None).header("OpenStack-API-Version") == "volume 3.0"
    latest = cinder.get("/volumes", version="latest")
    assert latest.header("OpenStack-API-Version") == "volume " + microversions.MAX_VERSION
    assert latest.header("Vary") == "OpenStack-API-Version"
    too_new = cinder.get("/volumes", version="3.71")
    assert too_new.status == 406
    assert message(too_new) == (
        "Version 3.71 is not supported by the API. Minimum is 3.0 and maximum is 3.70."
    )
    bad = cinder.get("/volumes", version="3.x")
    assert bad.status == 400
    assert message(bad) == (
        "API Version String 3.x is of invalid format. Must be of format MajorNum.MinorNum."
    )


def test_version_headers_as_cinders(cinder):
    """As Cinder 29 answered: the version documents carry the version
    asked for; a 406 names a too new one (not a too old one), a 400
    neither."""
    for path in ("/volume/", "/volume/v3"):
        plain = cinder.client.get(path, token=cinder.tokens["demo"])
        assert plain.header("OpenStack-API-Version") == "volume 3.0"
        assert plain.header("Vary") == "OpenStack-API-Version"
        asked = cinder.client.get(
            path, token=cinder.tokens["demo"], headers={"OpenStack-API-Version": "volume 3.5"}
        )
        assert asked.header("OpenStack-API-Version") == "volume 3.5"
    root_new = cinder.client.get("/volume/", headers={"OpenStack-API-Version": "volume 3.72"})
    assert root_new.status == 406
    assert root_new.header("OpenStack-API-Version") == "volume 3.72"
    too_new = cinder.get("/volumes", version="3.72")
    assert (too_new.status, too_new.header("OpenStack-API-Version")) == (406, "volume 3.72")
    assert too_new.header("Vary") == "OpenStack-API-Version"
    for version, status in (("2.0", 406), ("3.x", 400)):
        refused = cinder.get("/volumes", version=version)
        assert refused.status == status
        assert refused.header("OpenStack-API-Version") is None
        assert refused.header("Vary") is None


def test_the_recorded_version_headers(cinder):
    """Each version header Cinder 29 sent
    (tests/fixtures/volume/realcloud/cinder-29-version-headers.json);
    ``latest`` names the local maximum (3.70, not 3.71)."""
    recorded = load("realcloud/cinder-29-version-headers.json")["exchanges"]
    for exchange in recorded:
        version, path = exchange["request"]["version"], exchange["request"]["path"]
        headers = {"OpenStack-API-Version": "volume " + version} if version else {}
        local_path = "/volume" + path.replace("{project_id}", cinder.projects["demo"])
        result = cinder.client.get(local_path, token=cinder.tokens["demo"], headers=headers)
        expected = exchange["openstack-api-version"]
        if version == "latest":
            expected = "volume " + microversions.MAX_VERSION
        assert result.status == exchange["status"], exchange["request"]
        assert result.header("OpenStack-API-Version") == expected, exchange["request"]
        assert result.header("Vary") == exchange["vary"], exchange["request"]


def test_fault_bodies_and_token(cinder):
    missing = cinder.get("/volumes/00000000-0000-4000-8000-000000000000")
    assert missing.json() == {
        "itemNotFound": {
            "code": 404,
            "message": "Volume 00000000-0000-4000-8000-000000000000 could not be found.",
        }
    }
    anonymous = cinder.client.get("/volume/v3/%s/volumes" % cinder.projects["demo"])
    assert anonymous.status == 401 and "error" in anonymous.json()
    malformed = cinder.client.request(
        "POST",
        "/volume/v3/%s/volumes" % cinder.projects["demo"],
        body=b"{",
        token=cinder.tokens["demo"],
    )
    assert malformed.json() == {"badRequest": {"code": 400, "message": "Malformed request body."}}


def test_catalog_lists_volumev3_and_block_storage(cinder):
    body = cinder.client.authenticate().json()["token"]
    urls = {s["type"]: s["endpoints"][0]["url"] for s in body["catalog"]}
    expected = "http://cloud.test:8775/volume/v3/" + body["project"]["id"]
    assert urls["volumev3"] == urls["block-storage"] == expected


def test_types(cinder):
    listed = cinder.get("/types", user="admin").json()["volume_types"]
    assert [t["name"] for t in listed] == ["__DEFAULT__"]
    sample = load("volume_type/volume-types-list-response.json")["volume_types"][2]
    assert_same_shape(listed[0], sample)
    # cinder's v3 view: qos_specs_id is the admin's (access_types_qos_specs_id)
    listed = cinder.get("/types").json()["volume_types"]
    assert "qos_specs_id" not in listed[0]
    shown = cinder.get("/types/" + listed[0]["id"]).json()["volume_type"]
    assert shown == listed[0]
    missing = cinder.get("/types/nosuch")
    assert (missing.status, message(missing)) == (404, "Volume type nosuch could not be found.")
    by_name = cinder.create(volume_type="__DEFAULT__")
    assert by_name["volume_type"] == "__DEFAULT__"


def test_quota_show_defaults_usage_and_policy(cinder):
    demo = cinder.projects["demo"]
    shown = cinder.get("/os-quota-sets/" + demo).json()["quota_set"]
    assert_same_shape(
        shown, dict(load("quota_sets/quotas-show-response.json")["quota_set"], id=demo)
    )
    assert shown["volumes"] == 10 and shown["gigabytes"] == 1000 and shown["id"] == demo
    cinder.create(size=3)
    usage = cinder.get("/os-quota-sets/%s?usage=True" % demo).json()["quota_set"]
    assert_same_shape(usage, load("quota_sets/quotas-show-usage-response.json")["quota_set"])
    assert usage["volumes"] == {"limit": 10, "in_use": 1, "reserved": 0}
    assert usage["gigabytes"]["in_use"] == 3
    assert usage["volumes___DEFAULT__"]["in_use"] == 1
    defaults = cinder.get("/os-quota-sets/%s/defaults" % demo).json()["quota_set"]
    assert defaults["volumes"] == 10
    other = cinder.get("/os-quota-sets/" + cinder.projects["alt"])
    assert (other.status, message(other)) == (
        403,
        "Policy doesn't allow volume_extension:quotas:show to be performed.",
    )
    update = cinder.put("/os-quota-sets/" + demo, {"quota_set": {"volumes": 5}})
    assert (update.status, message(update)) == (
        403,
        "Policy doesn't allow volume_extension:quotas:update to be performed.",
    )


def test_quota_update_checks(cinder):
    demo = cinder.projects["demo"]
    path = "/os-quota-sets/" + demo

    def put(body):
        return cinder.put(path, {"quota_set": body}, user="admin", project=False)

    assert message(put({"bogus": 1})) == "Invalid input received: Bad key(s) in quota set: bogus"
    assert message(put({"volumes": "x"})) == "volumes must be an integer."
    assert message(put({"volumes": -2})) == "volumes must be >= -1"
    cinder.create(size=2)
    cinder.create(size=2)
    below = put({"volumes": 1})
    assert message(below) == (
        "Quota volumes limit must be equal or greater than existing resources. Current usage"
        " is 2 and the requested limit is 1."
    )
    done = put({"volumes": 2, "gigabytes": "5"})
    assert done.status == 200
    assert done.json()["quota_set"]["volumes"] == 2
    over = cinder.create(expect=413)
    # cinder's fault middleware names the escaped QuotaError's class
    assert message(over) == (
        "VolumeLimitExceeded: Maximum number of volumes allowed (2) exceeded for quota 'volumes'."
    )
    assert put({"volumes": 3}).status == 200
    too_big = cinder.create(expect=413, size=2)
    assert message(too_big) == (
        "VolumeSizeExceedsAvailableQuota: Requested volume or snapshot exceeds allowed"
        " gigabytes quota. Requested 2G, quota is 5G and 4G has been consumed."
    )
    assert cinder.delete(path, user="admin", project=False).status == 200
    assert cinder.get(path).json()["quota_set"]["volumes"] == 10


def test_attachments_api(cinder):
    created = cinder.create()
    server = cinder.server()
    assert cinder.attach(server, created["id"]).status == 200
    assert cinder.get("/attachments", version="3.26").status == 404
    listed = cinder.get("/attachments").json()["attachments"]
    assert len(listed) == 1
    assert listed[0]["instance"] == server and listed[0]["status"] == "attached"
    shown = cinder.get("/attachments/" + listed[0]["id"]).json()["attachment"]
    # the sample's connection_info is empty; the fake driver's is iSCSI's
    sample = load("attachments/attachment-show-response.json")["attachment"]
    assert_same_shape(shown, sample, ignore=("connection_info",))
    assert shown["connection_info"]["driver_volume_type"] == "iscsi"
    alt = cinder.get("/attachments/" + listed[0]["id"], user="alt")
    assert alt.status == 404
    assert cinder.get("/attachments", user="alt").json()["attachments"] == []
    filtered = cinder.get("/attachments/detail?instance_id=" + server).json()["attachments"]
    assert [a["id"] for a in filtered] == [listed[0]["id"]]
