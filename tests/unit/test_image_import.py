"""Glance's interoperable import from the client: ``image stage``,
``image import`` and ``image create --import``, and the manager's stage,
import_image, import_methods and stores, on Glance's api-ref samples
(tests/fixtures/image/: image-info-import-response.json,
stores-list-response.json, image-import-g-d-request.json) and OSC's checks
(openstackclient/image/v2/image.py ``StageImage``, ``ImportImage``)."""

import copy
import json
import os

import pytest

from occli.v2.image.image_data import CHUNK_SIZE

from .fakes import IMAGE
from .fakes import load_fixture
from .fakes import requests_to
from .test_image_writes import _consume

CREATED = load_fixture("image", "image-create-response.json")
SHOWN = load_fixture("image", "image-show-response.json")
METHODS = load_fixture("image", "image-info-import-response.json")
STORES = load_fixture("image", "stores-list-response.json")
IMPORT_REQUEST = load_fixture("image", "image-import-g-d-request.json")
NEW_ID = CREATED["id"]
URL = IMAGE + "/v2/images/" + NEW_ID
DATA = os.urandom(2 * CHUNK_SIZE + 17)


@pytest.fixture
def glance(mock_cloud):
    """A Glance whose image ``NEW_ID`` (by id and by name ``Ubuntu``) is
    in ``glance.status``; staging makes it ``uploading``, importing
    ``active`` (after ``glance.polls`` reads in ``importing``)."""
    m = mock_cloud.mock
    m.status = "queued"
    m.polls = 0
    m.received = {}

    def image(status=None):
        return dict(copy.deepcopy(SHOWN), id=NEW_ID, name="Ubuntu", status=status or m.status)

    def show(request, context):
        if m.status == "importing":
            if m.polls == 0:
                m.status = "active"
            m.polls -= 1
        return image()

    def stage(request, context):
        m.received["headers"] = dict(request.headers)
        m.received["body_type"] = type(request.body)
        m.received["data"] = _consume(request.body)
        m.status = "uploading"
        context.status_code = 204
        return b""

    def do_import(request, context):
        m.status = "importing"
        context.status_code = 202
        return b""

    m.post(IMAGE + "/v2/images", status_code=201, json=lambda r, c: image("queued"))
    m.get(URL, json=show)
    m.get(IMAGE + "/v2/images/Ubuntu", status_code=404, text="404 Not Found\n\nNo image")
    m.get(IMAGE + "/v2/images?name=Ubuntu", json=lambda r, c: {"images": [image()]})
    m.put(URL + "/stage", content=stage)
    m.post(URL + "/import", content=do_import)
    m.get(IMAGE + "/v2/info/import", json=METHODS)
    m.get(IMAGE + "/v2/info/stores", json=STORES)
    return m


def test_manager_import_body_and_discovery(client, glance):
    assert client.images.import_methods() == ["glance-direct", "web-download"]
    assert [s["id"] for s in client.images.stores()] == ["reliable", "fast", "cheap", "special"]
    glance.status = "uploading"
    client.images.import_image(
        NEW_ID,
        stores=["common", "cheap", "fast", "reliable"],
        all_stores_must_succeed=False,
    )
    (post,) = requests_to(glance, "POST", "/import")
    assert post.json() == IMPORT_REQUEST


def test_stage_streams_the_file(cli, glance, tmp_path):
    path = tmp_path / "disk.img"
    path.write_bytes(DATA)
    code, out, err = cli("image", "stage", "--file", str(path), "Ubuntu")
    assert code == 0, err
    assert err == ""  # no progress when stderr is not a terminal
    received = glance.received
    assert received["data"] == DATA
    assert received["body_type"] is not bytes  # streamed, not read into memory
    assert received["headers"]["Content-Type"] == "application/octet-stream"
    assert received["headers"]["Content-Length"] == str(len(DATA))
    assert glance.status == "uploading"


def test_stage_without_data_is_refused(cli, glance, monkeypatch):
    with open(os.devnull) as stdin:
        monkeypatch.setattr("sys.stdin", stdin)
        code, out, err = cli("image", "stage", "Ubuntu")
    assert code == 2
    assert "No data to stage" in err
    assert requests_to(glance, "PUT", "/stage") == []


def test_stage_of_a_missing_file_is_refused(cli, glance, tmp_path):
    code, out, err = cli("image", "stage", "--file", str(tmp_path / "none"), "Ubuntu")
    assert code == 2 and "--file: cannot read" in err


def test_import_waits_until_active(cli, glance):
    glance.status = "uploading"
    glance.polls = 2
    code, out, err = cli("image", "import", "--wait", "--wait-interval", "0", NEW_ID, "-f", "json")
    assert code == 0, err
    (post,) = requests_to(glance, "POST", "/import")
    assert post.json() == {"method": {"name": "glance-direct"}}
    assert json.loads(out)["status"] == "active"


def test_import_with_a_store(cli, glance):
    glance.status = "uploading"
    code, out, err = cli("image", "import", "--store", "fast", "--allow-failure", NEW_ID)
    assert code == 0, err
    (post,) = requests_to(glance, "POST", "/import")
    assert post.json() == {
        "method": {"name": "glance-direct"},
        "stores": ["fast"],
        "all_stores_must_succeed": False,
    }


def test_import_wait_reports_a_failed_import(cli, glance):
    glance.status = "uploading"

    def back_to_queued(request, context):
        glance.status = "queued"
        context.status_code = 202
        return b""

    glance.post(URL + "/import", content=back_to_queued)
    code, out, err = cli("image", "import", "--wait", "--wait-interval", "0", NEW_ID)
    assert code == 1
    assert "The import of image %s failed: it is queued." % NEW_ID in err


@pytest.mark.parametrize(
    "argv, status, message",
    [
        (
            ["--method", "copy-image", "--all-stores"],
            "active",
            "The 'copy-image' import method is not supported by this deployment."
            " Supported: glance-direct, web-download",
        ),
        (
            [],
            "queued",
            "The 'glance-direct' import method can only be used with an image in"
            " status 'uploading'",
        ),
        (
            ["--method", "web-download"],
            "queued",
            "The '--uri' option is required when using '--method=web-download'",
        ),
        (
            ["--method", "web-download", "--uri", "not-a-url"],
            "queued",
            "'not-a-url' is not a valid url",
        ),
        (
            ["--uri", "http://example.com/x"],
            "uploading",
            "The '--uri' option is only supported when using '--method=web-download'",
        ),
        (
            ["--remote-image", NEW_ID],
            "uploading",
            "The '--remote-image' option is only supported when using '--method=glance-download'",
        ),
        (
            ["--method", "glance-download"],
            "queued",
            "The '--remote-region' and '--remote-image' options are required when"
            " using '--method=glance-download'",
        ),
        (
            ["--method", "copy-image"],
            "active",
            "The '--stores' or '--all-stores' options are required when using"
            " '--method=copy-image'",
        ),
    ],
)
def test_import_refusals(cli, glance, argv, status, message):
    glance.status = status
    code, out, err = cli("image", "import", *argv, NEW_ID)
    assert code == 1, err
    assert message in err
    assert requests_to(glance, "POST", "/import") == []


def test_import_without_the_feature(cli, glance):
    glance.get(IMAGE + "/v2/info/import", status_code=404, text="404 Not Found\n\nThe resource")
    glance.status = "uploading"
    code, out, err = cli("image", "import", NEW_ID)
    assert code == 1
    assert "The Image Import feature is not supported by this deployment" in err


def test_store_and_all_stores_are_exclusive(cli, glance):
    code, out, err = cli("image", "import", "--store", "fast", "--all-stores", NEW_ID)
    assert code == 2 and "--store and --all-stores cannot be combined." in err


def test_create_with_import_stages_then_imports(cli, glance, tmp_path):
    path = tmp_path / "disk.img"
    path.write_bytes(DATA)
    code, out, err = cli(
        "image", "create", "--import", "--file", str(path), "Ubuntu", "-f", "json"
    )
    assert code == 0, err
    assert glance.received["data"] == DATA
    assert requests_to(glance, "PUT", "/file") == []
    (post,) = requests_to(glance, "POST", "/import")
    assert post.json() == {"method": {"name": "glance-direct"}}
    assert json.loads(out)["id"] == NEW_ID


def test_create_with_import_deletes_the_image_when_staging_fails(cli, glance, tmp_path):
    path = tmp_path / "disk.img"
    path.write_bytes(DATA)
    glance.put(URL + "/stage", status_code=413, text="413 Request Entity Too Large\n\nquota")
    glance.delete(URL, status_code=204)
    code, out, err = cli("image", "create", "--import", "--file", str(path), "Ubuntu")
    assert code == 1
    assert len(requests_to(glance, "DELETE", NEW_ID)) == 1
    assert requests_to(glance, "POST", "/import") == []
