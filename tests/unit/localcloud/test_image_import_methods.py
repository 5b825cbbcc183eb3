"""The local Glance's ``web-download`` and ``copy-image`` imports, its
stores' details and what an upload or import leaves on the image, as the
real Glance 33 answered (``tests/fixtures/image/realcloud/glance-33-
imports.json`` and ``glance-33-data.json``): web-download is enabled but
no URI passes the local Glance's filtering (it never fetches), copy-image
is for admins and finds every image already in the one store."""

import pytest

from tests.unit.localcloud.test_image_import import do_import
from tests.unit.localcloud.test_image_import import stage
from tests.unit.localcloud.test_image_write_data import new_image
from tests.unit.localcloud.test_image_write_data import put
from tests.unit.localcloud.test_image_write_data import show
from tests.unit.localcloud.test_image_write_data import text

IMAGES = "/image/v2/images"
DATA = bytes(range(256)) * 16
COPY = {"method": {"name": "copy-image"}, "stores": ["file"]}


@pytest.fixture
def tokens(client):
    return {user: client.token(user) for user in ("demo", "alt", "admin")}


def tasks_of(client, image_id, token):
    return client.get(IMAGES + "/%s/tasks" % image_id, token=token).json()["tasks"]


@pytest.mark.parametrize(
    "uri", ["http://example.com/x.img", "http://127.0.0.1/x.img", "ftp://example.com/x", None]
)
def test_web_download_passes_no_filtering(client, tokens, uri):
    image_id = new_image(client, tokens["demo"])
    method = {"name": "web-download"}
    if uri is not None:
        method["uri"] = uri
    result = do_import(client, image_id, tokens["demo"], {"method": method})
    assert result.status == 400
    assert text(result) == "URI for web-download does not pass filtering: %s" % uri
    assert show(client, image_id, tokens["demo"])["status"] == "queued"
    assert tasks_of(client, image_id, tokens["demo"]) == []


def test_web_download_wants_a_queued_image(client, tokens):
    image_id = new_image(client, tokens["demo"])
    assert put(client.cloud, image_id, tokens["demo"], DATA).status == 204
    web = {"method": {"name": "web-download", "uri": "http://example.com/x.img"}}
    result = do_import(client, image_id, tokens["demo"], web)
    assert (result.status, text(result)) == (
        409,
        "Image with status active cannot be target for import",
    )


def test_copy_image(client, tokens):
    image_id = new_image(client, tokens["demo"])
    queued = do_import(client, image_id, tokens["admin"], COPY)
    assert (queued.status, text(queued)) == (
        409,
        "Only images with status active can be targeted for copying",
    )
    assert put(client.cloud, image_id, tokens["demo"], DATA).status == 204
    member = do_import(client, image_id, tokens["demo"], COPY)
    assert (member.status, text(member)) == (
        403,
        "You are not authorized to complete copy_image action.",
    )
    admin = do_import(client, image_id, tokens["admin"], COPY)
    assert (admin.status, text(admin)) == (400, "Image is already present at store 'file'")
    every = {"method": {"name": "copy-image"}, "all_stores": True}
    assert do_import(client, image_id, tokens["admin"], every).status == 202
    assert tasks_of(client, image_id, tokens["admin"]) == []
    assert show(client, image_id, tokens["demo"])["status"] == "active"


def test_stores_detail_for_admins(client, tokens):
    member = client.get("/image/v2/info/stores/detail", token=tokens["demo"])
    assert (member.status, text(member)) == (
        403,
        "You are not authorized to complete stores_info_detail action.",
    )
    admin = client.get("/image/v2/info/stores/detail", token=tokens["admin"])
    assert admin.status == 200
    ((store,),) = admin.json().values()
    properties = store.pop("properties")
    assert store == {"id": "file", "default": "true", "type": "file", "weight": 0}
    assert properties == {
        "data_dir": client.cloud.image.files.root,
        "chunk_size": 65536,
        "thin_provisioning": False,
    }


def test_the_import_task_keeps_the_request_id(client, tokens):
    image_id = new_image(client, tokens["demo"])
    assert stage(client.cloud, image_id, tokens["demo"], DATA).status == 204
    result = do_import(client, image_id, tokens["demo"])
    assert result.status == 202
    (task,) = tasks_of(client, image_id, tokens["demo"])
    assert task["request_id"] == result.header("x-openstack-request-id")
    assert task["request_id"].startswith("req-")


def test_data_shows_its_store_and_a_raw_images_virtual_size(client, tokens):
    raw = new_image(client, tokens["demo"])
    assert put(client.cloud, raw, tokens["demo"], DATA).status == 204
    image = show(client, raw, tokens["demo"])
    assert (image["stores"], image["size"], image["virtual_size"]) == ("file", 4096, 4096)
    # a deactivated image hides its locations, so its stores
    assert client.post(IMAGES + "/%s/actions/deactivate" % raw, token=tokens["demo"]).status == 204
    assert "stores" not in show(client, raw, tokens["demo"])
    # other formats: their headers are not read, no virtual size
    created = client.post(
        IMAGES, json={"disk_format": "qcow2", "container_format": "bare"}, token=tokens["demo"]
    )
    qcow2 = created.json()["id"]
    assert "stores" not in created.json()
    assert put(client.cloud, qcow2, tokens["demo"], DATA).status == 204
    image = show(client, qcow2, tokens["demo"])
    assert (image["stores"], image["virtual_size"]) == ("file", None)
