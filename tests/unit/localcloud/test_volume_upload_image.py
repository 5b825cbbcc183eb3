"""Cinder's ``os-volume_upload_image`` in the local cloud
(cinder/api/contrib/volume_actions.py ``_volume_upload_image``,
cinder/volume/api.py ``copy_volume_to_image``): the answer's shape (the
api-ref sample), status checks and texts, ``force`` (Cinder's
``enable_force_upload``), the microversion 3.1 parameters, the public
image policy, ``uploading`` → back and the image made in Glance."""

import json
import pathlib

import pytest

from tests.shape import assert_same_shape
from tests.unit.localcloud.volume_harness import MISSING
from tests.unit.localcloud.volume_harness import Cinder
from tests.unit.localcloud.volume_harness import cinder_cloud
from tests.unit.localcloud.volume_harness import make_cloud
from tests.unit.localcloud.volume_harness import message

cinder = pytest.fixture(cinder_cloud, name="cinder")

FIXTURES = pathlib.Path(__file__).parents[2] / "fixtures" / "volume" / "volume_actions"
GIB = 1024**3


def load(name):
    return json.loads((FIXTURES / name).read_text())


def upload(cinder, volume_id, user="demo", version="3.70", **params):
    params.setdefault("image_name", "from-volume")
    return cinder.post(
        "/volumes/%s/action" % volume_id,
        {"os-volume_upload_image": params},
        user=user,
        version=version,
    )


def glance_image(cinder, image_id, user="demo"):
    result = cinder.client.request(
        "GET", "/image/v2/images/" + image_id, token=cinder.tokens[user]
    )
    assert result.status == 200, result.body
    return result.json()


def test_sample_request_answers_the_sample_shape(cinder):
    volume = cinder.create(name="data", size=2)
    request = load("volume-upload-to-image-request.json")
    result = cinder.post("/volumes/%s/action" % volume["id"], request)
    assert result.status == 202, result.body
    answer = result.json()["os-volume_upload_image"]
    sample = load("volume-upload-to-image-response.json")["os-volume_upload_image"]
    # the sample's volume had no type (null); every volume here has one
    assert_same_shape(dict(answer, volume_type=None), sample)
    # Cinder's VolumeType object: OSC shows its name
    assert answer["volume_type"]["name"] == "__DEFAULT__"
    assert (answer["id"], answer["size"], answer["status"]) == (volume["id"], 2, "uploading")
    assert (answer["image_name"], answer["disk_format"], answer["container_format"]) == (
        "test",
        "raw",
        "bare",
    )
    assert (answer["visibility"], answer["protected"]) == ("private", False)
    image = glance_image(cinder, answer["image_id"])
    assert image["name"] == "test"
    assert image["owner"] == cinder.projects["demo"]
    # build_time 0: uploaded at once, the raw size of the whole volume
    assert image["status"] == "active"
    assert image["size"] == 2 * GIB
    assert (image["disk_format"], image["container_format"]) == ("raw", "bare")
    assert cinder.show(volume["id"])["status"] == "available"


def test_uploading_until_the_build_time_then_back(tmp_path, clock):
    cloud = make_cloud(tmp_path / "slow", build_time=10)
    try:
        slow = Cinder(cloud)
        volume = slow.create()
        assert slow.show(volume["id"])["status"] == "available"
        result = upload(slow, volume["id"], disk_format="qcow2", protected=True)
        assert result.status == 202, result.body
        image_id = result.json()["os-volume_upload_image"]["image_id"]
        clock.advance(5)
        assert slow.show(volume["id"])["status"] == "uploading"
        image = glance_image(slow, image_id)
        assert (image["status"], image["size"], image["protected"]) == ("queued", None, True)
        # an uploading volume is not uploaded again, nor deleted
        again = upload(slow, volume["id"])
        assert again.status == 400
        assert (
            message(again) == "Invalid volume: Volume %s status must be available" % (volume["id"])
        )
        assert slow.delete("/volumes/" + volume["id"]).status == 400
        clock.advance(6)
        assert slow.show(volume["id"])["status"] == "available"
        image = glance_image(slow, image_id)
        assert (image["status"], image["size"], image["disk_format"]) == (
            "active",
            GIB,
            "qcow2",
        )
    finally:
        cloud.close()


def _in_use(cinder):
    volume = cinder.create()
    server = cinder.server()
    assert cinder.attach(server, volume["id"]).status == 200
    assert cinder.show(volume["id"])["status"] == "in-use"
    return volume


def test_in_use_refused_and_force_ignored_by_default(cinder):
    volume = _in_use(cinder)
    for params in ({}, {"force": True}):
        result = upload(cinder, volume["id"], **params)
        assert result.status == 400
        assert message(result) == (
            "Invalid volume: Volume %s status must be available" % volume["id"]
        )
    assert cinder.show(volume["id"])["status"] == "in-use"


def test_force_uploads_an_in_use_volume_when_enabled(tmp_path):
    cloud = make_cloud(tmp_path / "force", enable_force_upload=True)
    try:
        forcing = Cinder(cloud)
        volume = _in_use(forcing)
        refused = upload(forcing, volume["id"])
        assert refused.status == 400
        assert message(refused) == (
            "Invalid volume: Volume %s status must be available" % volume["id"]
        )
        result = upload(forcing, volume["id"], force="true")
        assert result.status == 202, result.body
        # back to in-use, not available: still attached
        assert forcing.show(volume["id"])["status"] == "in-use"
    finally:
        cloud.close()


def test_visibility_and_protected_need_3_1(cinder):
    volume = cinder.create()
    old = upload(cinder, volume["id"], version="3.0", visibility="private")
    assert old.status == 400
    assert "Additional properties are not allowed" in message(old)
    result = upload(cinder, volume["id"], version="3.0")
    assert result.status == 202, result.body
    answer = result.json()["os-volume_upload_image"]
    # no visibility sent to Glance before 3.1: its default
    assert answer["visibility"] == "shared"
    assert glance_image(cinder, answer["image_id"])["visibility"] == "shared"


def test_public_image_is_an_admins(cinder):
    volume = cinder.create()
    refused = upload(cinder, volume["id"], visibility="public")
    assert refused.status == 403
    assert message(refused) == (
        "Policy doesn't allow volume_extension:volume_actions:upload_public to be performed."
    )
    assert cinder.show(volume["id"])["status"] == "available"
    mine = cinder.create(user="admin")
    result = upload(cinder, mine["id"], user="admin", visibility="public")
    assert result.status == 202, result.body
    image_id = result.json()["os-volume_upload_image"]["image_id"]
    # a public image: the demo project sees it
    assert glance_image(cinder, image_id)["visibility"] == "public"


@pytest.mark.parametrize(
    ("params", "text"),
    [
        ({"image_name": ""}, "image_name"),
        ({"disk_format": "iso"}, "disk_format"),
        ({"force": "maybe"}, "force"),
        ({"visibility": "everyone"}, "visibility"),
        ({"unknown": 1}, "Additional properties are not allowed"),
    ],
)
def test_schema_refusals(cinder, params, text):
    volume = cinder.create()
    result = upload(cinder, volume["id"], **params)
    assert result.status == 400
    assert text in message(result)
    assert cinder.show(volume["id"])["status"] == "available"


def test_no_image_name_and_unknown_volume(cinder):
    volume = cinder.create()
    result = cinder.post(
        "/volumes/%s/action" % volume["id"], {"os-volume_upload_image": {"force": False}}
    )
    assert result.status == 400
    assert "'image_name' is a required property" in message(result)
    missing = upload(cinder, MISSING)
    assert missing.status == 404
    assert message(missing) == "Volume %s could not be found." % MISSING
    # another project's volume is not found either
    assert upload(cinder, volume["id"], user="alt").status == 404
