"""The local Glance's interoperable import (issue 20): ``/v2/info/import``,
``/v2/info/stores``, ``PUT …/stage`` (``queued → uploading``, streamed to
a private staging file) and ``POST …/import`` with ``glance-direct``
(``→ active``, hashed as an upload), every other method refused with
Glance's texts (``glance/api/v2/images.py``, ``image_data.py``,
``discovery.py``)."""

import hashlib
import os
import stat

import pytest

from occli.localcloud import app
from tests.unit.localcloud.test_image_write_data import OCTETS
from tests.unit.localcloud.test_image_write_data import Recording
from tests.unit.localcloud.test_image_write_data import new_image
from tests.unit.localcloud.test_image_write_data import show
from tests.unit.localcloud.test_image_write_data import text
from tests.unit.localcloud.wsgi_client import call

IMAGES = "/image/v2/images"


@pytest.fixture
def tokens(client):
    return {user: client.token(user) for user in ("demo", "alt", "admin")}


def stage(cloud, image_id, token, payload, headers=OCTETS, length="auto"):
    body = payload if isinstance(payload, Recording) else Recording(payload)
    size = len(body.getvalue()) if length == "auto" else length
    return call(
        cloud,
        "PUT",
        IMAGES + "/%s/stage" % image_id,
        headers=headers,
        token=token,
        wsgi_input=body,
        length=size,
    )


def do_import(client, image_id, token, body=None):
    if body is None:
        body = {"method": {"name": "glance-direct"}}
    return client.post(IMAGES + "/%s/import" % image_id, json=body, token=token)


def test_discovery(client, tokens):
    methods = client.get("/image/v2/info/import", token=tokens["demo"])
    assert methods.status == 200
    assert methods.json() == {
        "import-methods": {
            "description": "Import methods available.",
            "type": "array",
            "value": ["glance-direct", "web-download", "copy-image"],
        }
    }
    stores = client.get("/image/v2/info/stores", token=tokens["demo"])
    assert stores.status == 200
    assert stores.json() == {"stores": [{"id": "file", "default": "true"}]}
    # no Keystone unified limits: Glance reports no usage
    usage = client.get("/image/v2/info/usage", token=tokens["demo"])
    assert usage.status == 200 and usage.json() == {"usage": {}}


def test_create_names_the_import_methods_and_stores(client, tokens):
    result = client.post(
        IMAGES, json={"disk_format": "raw", "container_format": "bare"}, token=tokens["demo"]
    )
    assert result.status == 201
    assert result.header("OpenStack-image-import-methods") == (
        "glance-direct,web-download,copy-image"
    )
    assert result.header("OpenStack-image-store-ids") == (
        "file,os_glance_staging_store,os_glance_tasks_store"
    )


def test_stage_then_import(client, tokens):
    image_id = new_image(client, tokens["demo"])
    payload = os.urandom(3 * app.READ_CHUNK + 3)
    body = Recording(payload, during=lambda: show(client, image_id, tokens["demo"])["status"])
    staged = stage(client.cloud, image_id, tokens["demo"], body)
    assert staged.status == 204, staged.body
    # streamed in bounded reads, the image ``uploading`` meanwhile
    assert max(body.reads) <= app.READ_CHUNK and "uploading" in body.seen
    image = show(client, image_id, tokens["demo"])
    assert image["status"] == "uploading" and image["size"] == len(payload)
    assert image["checksum"] is None and image["os_hash_value"] is None
    staging = client.cloud.image.staging.root
    (name,) = os.listdir(staging)
    assert stat.S_IMODE(os.stat(staging).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(os.path.join(staging, name)).st_mode) == 0o600
    # no data to download before the import
    assert client.get(IMAGES + "/%s/file" % image_id, token=tokens["demo"]).status == 204

    result = do_import(client, image_id, tokens["demo"])
    assert result.status == 202, result.body
    image = show(client, image_id, tokens["demo"])
    assert image["status"] == "active"
    assert image["size"] == len(payload)
    assert image["checksum"] == hashlib.md5(payload).hexdigest()
    assert image["os_hash_algo"] == "sha512"
    assert image["os_hash_value"] == hashlib.sha512(payload).hexdigest()
    # the staged file moved among the image files
    assert os.listdir(staging) == []
    assert os.listdir(client.cloud.image.files.root) == [name]
    download = client.get(IMAGES + "/%s/file" % image_id, token=tokens["demo"])
    assert download.status == 200 and download.body == payload


def test_stage_refusals(client, tokens):
    image_id = new_image(client, tokens["demo"])
    wrong_type = stage(client.cloud, image_id, tokens["demo"], b"x", headers={})
    assert wrong_type.status == 415
    unknown = stage(client.cloud, "f" * 8 + "-ffff-ffff-ffff-" + "f" * 12, tokens["demo"], b"x")
    assert unknown.status == 404
    # another project's image it cannot see: not found; the admin's seeded
    # public image: seen but not the caller's
    assert stage(client.cloud, image_id, tokens["alt"], b"x").status == 404
    public = client.get(IMAGES, token=tokens["demo"]).json()["images"]
    seeded = [i for i in public if i["visibility"] == "public"][0]
    forbidden = stage(client.cloud, seeded["id"], tokens["demo"], b"x")
    assert forbidden.status == 403
    assert text(forbidden) == "You are not authorized to complete modify_image action."
    # staged twice: Glance's status transition 409
    assert stage(client.cloud, image_id, tokens["demo"], b"abc").status == 204
    again = stage(client.cloud, image_id, tokens["demo"], b"abc")
    assert again.status == 409
    assert text(again) == "Image status transition from uploading to uploading is not allowed"
    # nor uploaded to while staged
    upload = call(
        client.cloud,
        "PUT",
        IMAGES + "/%s/file" % image_id,
        headers=OCTETS,
        token=tokens["demo"],
        wsgi_input=Recording(b"abc"),
        length=3,
    )
    assert upload.status == 409
    # an active image
    active = new_image(client, tokens["demo"])
    assert stage(client.cloud, active, tokens["demo"], b"abc").status == 204
    assert do_import(client, active, tokens["demo"]).status == 202
    late = stage(client.cloud, active, tokens["demo"], b"abc")
    assert late.status == 409
    assert text(late) == "Image status transition from active to uploading is not allowed"


def test_stage_over_the_size_cap_is_unstaged(client, tokens):
    client.cloud.image.image_size_cap = 100
    image_id = new_image(client, tokens["demo"])
    result = stage(client.cloud, image_id, tokens["demo"], b"x" * 101, length=None)
    assert result.status == 413
    assert text(result) == "The incoming image is too large: The provided image is too large."
    image = show(client, image_id, tokens["demo"])
    assert image["status"] == "queued" and image["size"] is None
    assert os.listdir(client.cloud.image.staging.root) == []


@pytest.mark.parametrize(
    "body, message",
    [
        ({}, "Import request requires a 'method' field."),
        ({"method": {}}, "Import request requires a 'name' field."),
        # off, as by default (web-download and copy-image: test_image_import_methods)
        ({"method": {"name": "glance-download"}}, "Unknown import method name 'glance-download'."),
        (
            {"method": {"name": "glance-direct"}, "all_stores": "yes"},
            "'all_stores' must be boolean value only",
        ),
        (
            {"method": {"name": "glance-direct"}, "all_stores_must_succeed": 1},
            "'all_stores_must_succeed' must be boolean value only",
        ),
        (
            {"method": {"name": "glance-direct"}, "all_stores": True, "stores": ["file"]},
            "All_stores parameter can't be used with x-image-meta-store header"
            " or stores parameter",
        ),
    ],
)
def test_import_bad_requests(client, tokens, body, message):
    image_id = new_image(client, tokens["demo"])
    assert stage(client.cloud, image_id, tokens["demo"], b"abc").status == 204
    result = do_import(client, image_id, tokens["demo"], body)
    assert result.status == 400
    assert text(result) == message
    assert show(client, image_id, tokens["demo"])["status"] == "uploading"


def test_import_conflicts(client, tokens):
    queued = new_image(client, tokens["demo"])
    not_staged = do_import(client, queued, tokens["demo"])
    assert not_staged.status == 409
    assert text(not_staged) == (
        "Image needs to be staged before 'glance-direct' method can be used"
    )
    bare = client.post(IMAGES, json={"disk_format": "raw"}, token=tokens["demo"]).json()["id"]
    assert stage(client.cloud, bare, tokens["demo"], b"abc").status == 204
    no_format = do_import(client, bare, tokens["demo"])
    assert no_format.status == 409
    assert text(no_format) == "'container_format' needs to be set before import"
    image_id = new_image(client, tokens["demo"])
    assert stage(client.cloud, image_id, tokens["demo"], b"abc").status == 204
    unknown_store = do_import(
        client, image_id, tokens["demo"], {"method": {"name": "glance-direct"}, "stores": ["x"]}
    )
    assert unknown_store.status == 409
    assert text(unknown_store) == "Store for identifier x not found"
    assert (
        do_import(
            client,
            image_id,
            tokens["demo"],
            {"method": {"name": "glance-direct"}, "stores": ["file"]},
        ).status
        == 202
    )
    active = do_import(client, image_id, tokens["demo"])
    assert active.status == 409
    assert text(active) == "Image with status active cannot be target for import"


def test_import_policy(client, tokens):
    image_id = new_image(client, tokens["demo"])
    assert stage(client.cloud, image_id, tokens["demo"], b"abc").status == 204
    assert do_import(client, image_id, tokens["alt"]).status == 404
    # the admin may import anyone's staged image
    assert do_import(client, image_id, tokens["admin"]).status == 202
    assert show(client, image_id, tokens["demo"])["status"] == "active"


def test_deleting_a_staged_image_removes_its_staged_file(client, tokens):
    image_id = new_image(client, tokens["demo"])
    assert stage(client.cloud, image_id, tokens["demo"], b"abc").status == 204
    assert len(os.listdir(client.cloud.image.staging.root)) == 1
    assert client.delete(IMAGES + "/" + image_id, token=tokens["demo"]).status == 204
    assert os.listdir(client.cloud.image.staging.root) == []


def test_hidden_images_are_listed_only_when_asked_for(client, tokens):
    """Glance's ``os_hidden`` filter (``glance/api/v2/images.py`` ``index``)."""
    result = client.post(
        IMAGES, json={"name": "hidden-one", "os_hidden": True}, token=tokens["demo"]
    )
    hidden = result.json()["id"]
    shown = new_image(client, tokens["demo"])
    default = [i["id"] for i in client.get(IMAGES, token=tokens["demo"]).json()["images"]]
    assert shown in default and hidden not in default
    only = client.get(IMAGES + "?os_hidden=true", token=tokens["demo"]).json()["images"]
    assert [i["id"] for i in only] == [hidden]
    explicit = client.get(IMAGES + "?os_hidden=False", token=tokens["demo"]).json()
    assert [i["id"] for i in explicit["images"]] == default
    # still shown by id
    assert show(client, hidden, tokens["demo"])["os_hidden"] is True
    bad = client.get(IMAGES + "?os_hidden=maybe", token=tokens["demo"])
    assert bad.status == 400
    assert text(bad) == (
        "Invalid value 'maybe' for 'os_hidden' filter. Valid values are 'true' or 'false'."
    )


def test_an_import_is_a_task_and_leaves_glances_properties(client, tokens):
    image_id = new_image(client, tokens["demo"])
    assert stage(client.cloud, image_id, tokens["demo"], b"abc").status == 204
    assert do_import(client, image_id, tokens["demo"]).status == 202
    image = show(client, image_id, tokens["demo"])
    assert "os_glance_import_task" not in image
    assert image["os_glance_importing_to_stores"] == ""
    assert image["os_glance_failed_import"] == ""
    found = client.get(IMAGES + "/%s/tasks" % image_id, token=tokens["demo"])
    (task,) = found.json()["tasks"]
    assert task["type"] == "api_image_import" and task["status"] == "success"
    assert task["result"] == {"image_id": image_id}
    assert task["input"]["import_req"] == {"method": {"name": "glance-direct"}}
    assert task["input"]["backend"] == ["file"]


def test_a_failed_import_puts_the_image_back_to_queued(client, tokens, monkeypatch):
    image_id = new_image(client, tokens["demo"])
    assert stage(client.cloud, image_id, tokens["demo"], b"abc").status == 204

    def broken(name, target):
        raise OSError("disk gone")

    monkeypatch.setattr(client.cloud.image.staging, "move", broken)
    # accepted, as Glance's flow fails after its 202
    assert do_import(client, image_id, tokens["demo"]).status == 202
    image = show(client, image_id, tokens["demo"])
    assert image["status"] == "queued" and image["size"] is None
    assert image["os_glance_failed_import"] == "file"
    assert image["os_glance_importing_to_stores"] == ""
    assert "os_glance_import_task" not in image
    assert os.listdir(client.cloud.image.staging.root) == []
    (task,) = client.get(IMAGES + "/%s/tasks" % image_id, token=tokens["demo"]).json()["tasks"]
    assert task["status"] == "failure" and task["message"] == "Error: OSError"
    # staged again, it imports
    monkeypatch.undo()
    assert stage(client.cloud, image_id, tokens["demo"], b"abcd").status == 204
    assert do_import(client, image_id, tokens["demo"]).status == 202
    assert show(client, image_id, tokens["demo"])["size"] == 4
