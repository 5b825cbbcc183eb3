"""The local Glance's image data (issue 20): ``PUT``/``GET
/v2/images/{id}/file`` streamed to and from a private file, with Glance's
``checksum`` (md5), ``os_hash_algo``/``os_hash_value`` (sha512), ``size``,
status ``queued → saving → active``, the size cap's 413
(``glance/api/v2/image_data.py``)."""

import hashlib
import io
import os
import stat

import pytest

from occli.localcloud import app
from occli.localcloud import files
from tests.unit.localcloud.wsgi_client import call

IMAGES = "/image/v2/images"
OCTETS = {"Content-Type": "application/octet-stream"}


def text(result):
    return result.body.decode().split("\n\n")[1]


class Recording(io.BytesIO):
    """A request body that records the size of each read, and can report
    the image's status from inside the upload (``during``)."""

    def __init__(self, data, during=None):
        super().__init__(data)
        self.reads = []
        self.during = during
        self.seen = []

    def read(self, size=-1):
        if self.during is not None:
            self.seen.append(self.during())
        chunk = super().read(size)
        self.reads.append(len(chunk))
        return chunk


@pytest.fixture
def tokens(client):
    return {user: client.token(user) for user in ("demo", "alt", "admin")}


def new_image(client, token):
    result = client.post(
        IMAGES, json={"disk_format": "raw", "container_format": "bare"}, token=token
    )
    assert result.status == 201, result.body
    return result.json()["id"]


def put(cloud, image_id, token, payload, headers=OCTETS, length="auto"):
    body = payload if isinstance(payload, Recording) else Recording(payload)
    size = len(body.getvalue()) if length == "auto" else length
    return call(
        cloud,
        "PUT",
        IMAGES + "/%s/file" % image_id,
        headers=headers,
        token=token,
        wsgi_input=body,
        length=size,
    )


def show(client, image_id, token):
    return client.get(IMAGES + "/" + image_id, token=token).json()


def test_upload_then_download(client, tokens):
    image_id = new_image(client, tokens["demo"])
    payload = os.urandom(4 * app.READ_CHUNK + 7)
    body = Recording(payload, during=lambda: show(client, image_id, tokens["demo"])["status"])
    result = put(client.cloud, image_id, tokens["demo"], body)
    assert result.status == 204, result.body
    # streamed in bounded reads, the image ``saving`` meanwhile
    assert max(body.reads) <= app.READ_CHUNK and len(body.reads) > 4
    assert set(body.seen[1:]) == {"saving"}
    image = show(client, image_id, tokens["demo"])
    assert image["status"] == "active"
    assert image["size"] == len(payload)
    assert image["checksum"] == hashlib.md5(payload).hexdigest()
    assert image["os_hash_algo"] == "sha512"
    assert image["os_hash_value"] == hashlib.sha512(payload).hexdigest()
    got = client.get(IMAGES + "/%s/file" % image_id, token=tokens["demo"])
    assert got.status == 200
    assert got.body == payload
    assert len(got.chunks) > 1 and max(len(c) for c in got.chunks) <= files.CHUNK
    assert got.header("Content-MD5") == image["checksum"]
    assert got.header("Content-Type") == "application/octet-stream"
    assert got.header("Content-Length") == str(len(payload))


def test_the_file_is_private_and_goes_with_the_image(client, tokens):
    image_id = new_image(client, tokens["demo"])
    assert put(client.cloud, image_id, tokens["demo"], b"bytes").status == 204
    root = client.cloud.image.files.root
    names = os.listdir(root)
    assert len(names) == 1
    assert stat.S_IMODE(os.stat(root).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(os.path.join(root, names[0])).st_mode) == 0o600
    assert client.delete(IMAGES + "/" + image_id, token=tokens["demo"]).status == 204
    assert os.listdir(root) == []


def test_a_second_upload_is_refused(client, tokens):
    image_id = new_image(client, tokens["demo"])
    assert put(client.cloud, image_id, tokens["demo"], b"one").status == 204
    again = put(client.cloud, image_id, tokens["demo"], b"two")
    assert again.status == 409
    assert text(again) == "Image status transition from active to saving is not allowed"
    got = client.get(IMAGES + "/%s/file" % image_id, token=tokens["demo"])
    assert got.body == b"one"


def test_chunked_upload(client, tokens):
    image_id = new_image(client, tokens["demo"])
    assert put(client.cloud, image_id, tokens["demo"], b"x" * 1000, length=None).status == 204
    assert show(client, image_id, tokens["demo"])["size"] == 1000


def test_size_cap_is_glances_413_and_the_image_stays_queued(client, tokens):
    client.cloud.image.image_size_cap = 1000
    image_id = new_image(client, tokens["demo"])
    # a declared length over the cap is refused before anything is read
    body = Recording(b"x" * 1001)
    declared = put(client.cloud, image_id, tokens["demo"], body)
    assert declared.status == 413 and body.reads == []
    assert text(declared) == "The incoming image is too large: The provided image is too large."
    streamed = put(client.cloud, image_id, tokens["demo"], b"x" * 1001, length=None)
    assert streamed.status == 413
    assert text(streamed) == "The incoming image is too large: The provided image is too large."
    assert show(client, image_id, tokens["demo"])["status"] == "queued"
    assert os.listdir(client.cloud.image.files.root) == []
    assert put(client.cloud, image_id, tokens["demo"], b"x" * 1000).status == 204


def test_json_bodies_stay_small(client, tokens):
    client.cloud.image.image_size_cap = 10 * 1024 * 1024
    big = b"{" + b" " * (2 * 1024 * 1024) + b"}"
    result = client.post(IMAGES, body=big, token=tokens["demo"])
    assert result.status == 413


def test_upload_refusals(client, tokens):
    image_id = new_image(client, tokens["demo"])
    wrong_type = put(
        client.cloud, image_id, tokens["demo"], b"x", headers={"Content-Type": "text/plain"}
    )
    assert wrong_type.status == 415
    assert put(client.cloud, image_id, tokens["alt"], b"x").status == 404
    unknown = put(client.cloud, "no-such-image", tokens["demo"], b"x")
    assert unknown.status == 404 and text(unknown) == "No image found with ID no-such-image"
    community = client.post(IMAGES, json={"visibility": "community"}, token=tokens["demo"])
    other = put(client.cloud, community.json()["id"], tokens["alt"], b"x")
    assert other.status == 403
    assert text(other) == "You are not authorized to complete upload_image action."
    assert show(client, image_id, tokens["demo"])["status"] == "queued"


def test_a_cut_upload_puts_the_image_back_to_queued(client, tokens):
    image_id = new_image(client, tokens["demo"])
    result = put(client.cloud, image_id, tokens["demo"], b"short", length=100)
    assert result.status == 499
    assert show(client, image_id, tokens["demo"])["status"] == "queued"
    assert os.listdir(client.cloud.image.files.root) == []


def test_download_without_data_is_204(client, tokens):
    image_id = new_image(client, tokens["demo"])
    result = client.get(IMAGES + "/%s/file" % image_id, token=tokens["demo"])
    assert result.status == 204 and result.body == b""


def test_a_deactivated_image_downloads_for_admins_only(client, tokens):
    image_id = new_image(client, tokens["demo"])
    assert put(client.cloud, image_id, tokens["demo"], b"data").status == 204
    path = IMAGES + "/%s/actions/deactivate" % image_id
    assert client.post(path, token=tokens["admin"]).status == 204
    refused = client.get(IMAGES + "/%s/file" % image_id, token=tokens["demo"])
    assert refused.status == 403
    assert text(refused) == (
        "The requested image has been deactivated. Image data download is forbidden."
    )
    assert client.get(IMAGES + "/%s/file" % image_id, token=tokens["admin"]).body == b"data"


def test_a_refused_upload_leaves_the_image_as_it_was(client, tokens):
    client.cloud.image.image_size_cap = 10
    image_id = new_image(client, tokens["demo"])
    before = show(client, image_id, tokens["demo"])
    assert put(client.cloud, image_id, tokens["demo"], b"x" * 11, length=None).status == 413
    assert show(client, image_id, tokens["demo"]) == before
