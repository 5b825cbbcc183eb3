"""``image create --volume`` and ``client.volumes.upload_to_image``
(Cinder's ``os-volume_upload_image``, OSC's ``_take_action_volume``)
against requests-mock, on Cinder's api-ref samples
(tests/fixtures/volume/volume_actions/)."""

import copy
import json

import pytest

from .fakes import VOLUME
from .fakes import load_fixture
from .fakes import requests_to

VOLUME_ID = "3a81fdac-e8ae-4e61-b6a2-2e14ff316f19"
ANSWER = load_fixture("volume", "volume_actions", "volume-upload-to-image-response.json")
REQUEST = load_fixture("volume", "volume_actions", "volume-upload-to-image-request.json")
ACTION = VOLUME + "/volumes/" + VOLUME_ID + "/action"


@pytest.fixture
def cinder(mock_cloud):
    """Volume ``data`` (VOLUME_ID), by id and by name, and its upload."""
    body = copy.deepcopy(load_fixture("volume", "volumes", "volume-show-response.json"))
    body["volume"].update(id=VOLUME_ID, name="data")
    m = mock_cloud.mock
    m.get(VOLUME + "/volumes/" + VOLUME_ID, json=body)
    m.get(VOLUME + "/volumes/data", status_code=404, json={"itemNotFound": {"code": 404}})
    m.get(VOLUME + "/volumes/detail?name=data", json={"volumes": [body["volume"]]})
    answer = copy.deepcopy(ANSWER)
    answer["os-volume_upload_image"]["volume_type"] = {"id": "t1", "name": "lvmdriver-1"}
    m.post(ACTION, status_code=202, json=answer)
    return m


def _sent(cinder):
    posts = requests_to(cinder, "POST", "/action")
    assert len(posts) == 1
    return posts[0]


def test_manager_sends_the_sample_request_at_3_1(client, cinder):
    params = REQUEST["os-volume_upload_image"]
    answer = client.volumes.upload_to_image(
        VOLUME_ID,
        params["image_name"],
        force=params["force"],
        disk_format=params["disk_format"],
        container_format=params["container_format"],
        visibility=params["visibility"],
        protected=params["protected"],
    )
    sent = _sent(cinder)
    assert sent.json() == REQUEST
    assert sent.headers["OpenStack-API-Version"] == "volume 3.1"
    assert answer["image_id"] == ANSWER["os-volume_upload_image"]["image_id"]
    assert answer["status"] == "uploading"


def test_manager_without_visibility_stays_at_the_default_version(client, cinder):
    client.volumes.upload_to_image(VOLUME_ID, "img")
    sent = _sent(cinder)
    assert sent.json() == {"os-volume_upload_image": {"image_name": "img", "force": False}}
    assert sent.headers["OpenStack-API-Version"] == "volume 3.0"


def test_manager_refuses_what_cinder_would(client, cinder):
    from occli import exceptions

    with pytest.raises(exceptions.ValidationError, match="disk_format"):
        client.volumes.upload_to_image(VOLUME_ID, "img", disk_format="iso")
    with pytest.raises(exceptions.ValidationError, match="visibility"):
        client.volumes.upload_to_image(VOLUME_ID, "img", visibility="everyone")
    with pytest.raises(exceptions.ValidationError, match="image_name"):
        client.volumes.upload_to_image(VOLUME_ID, "")
    assert requests_to(cinder, "POST", "/action") == []


def test_image_create_volume_prints_cinders_answer_as_osc(cli, cinder):
    code, out, err = cli("image", "create", "--volume", "data", "backup", "-f", "json")
    assert code == 0, err
    sent = _sent(cinder)
    # OSC's defaults: raw, bare, private, not protected, not forced
    assert sent.json() == {
        "os-volume_upload_image": {
            "image_name": "backup",
            "force": False,
            "disk_format": "raw",
            "container_format": "bare",
            "visibility": "private",
            "protected": False,
        }
    }
    assert sent.headers["OpenStack-API-Version"] == "volume 3.1"
    shown = json.loads(out)
    expected = dict(ANSWER["os-volume_upload_image"], volume_type="lvmdriver-1")
    assert shown == expected
    assert list(shown) == sorted(expected)


def test_image_create_volume_options(cli, cinder):
    code, out, err = cli(
        "image", "create", "--volume", VOLUME_ID, "--force", "--disk-format", "qcow2",
        "--container-format", "ovf", "--public", "--protected", "img", "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    assert _sent(cinder).json()["os-volume_upload_image"] == {
        "image_name": "img",
        "force": True,
        "disk_format": "qcow2",
        "container_format": "ovf",
        "visibility": "public",
        "protected": True,
    }


def test_a_volume_without_type_shows_none(cli, cinder):
    cinder.post(ACTION, status_code=202, json=ANSWER)
    code, out, err = cli("image", "create", "--volume", "data", "img", "-f", "json")
    assert code == 0, err
    assert json.loads(out)["volume_type"] is None


def test_options_a_volume_upload_ignores_are_warned_of(cli, cinder):
    code, out, err = cli(
        "image", "create", "--volume", "data", "--min-disk", "1", "--tag", "t", "img"
    )
    assert code == 0, err
    assert "'--min-disk' was given, which is not supported when creating an image" in err
    assert "'--tag' was given" in err


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--disk-format", "iso"], "--disk-format"),
        (["--file", "/dev/null"], "--file"),
    ],
)
def test_usage_errors_before_any_request(cli, cinder, argv, named):
    code, out, err = cli("image", "create", "--volume", "data", *argv, "img")
    assert code == 2
    assert named in err
    assert requests_to(cinder, "POST", "/action") == []
    assert requests_to(cinder, "GET", "/volumes") == []


def test_cinder_refusal_is_reported(cli, cinder):
    cinder.post(
        ACTION,
        status_code=400,
        json={
            "badRequest": {
                "code": 400,
                "message": "Invalid volume: Volume %s status must be available" % VOLUME_ID,
            }
        },
    )
    code, out, err = cli("image", "create", "--volume", "data", "img")
    assert code == 1
    assert "Volume %s status must be available" % VOLUME_ID in err


def test_unknown_volume(cli, cinder):
    cinder.get(VOLUME + "/volumes/nope", status_code=404, json={"itemNotFound": {"code": 404}})
    cinder.get(VOLUME + "/volumes/detail?name=nope", json={"volumes": []})
    code, out, err = cli("image", "create", "--volume", "nope", "img")
    assert code == 1
    assert "nope" in err
    assert requests_to(cinder, "POST", "/action") == []
