"""The local Glance's storage quota (issue 20): Glance's
``user_storage_quota`` over a project's uploaded and staged data, its
413 (``glance/api/common.py`` ``check_quota``, ``StorageQuotaFull`` as
``glance/api/v2/image_data.py`` words it), checked before and after the
bytes arrive."""

import os

import pytest

from tests.unit.localcloud.test_image_import import do_import
from tests.unit.localcloud.test_image_import import stage
from tests.unit.localcloud.test_image_write_data import Recording
from tests.unit.localcloud.test_image_write_data import new_image
from tests.unit.localcloud.test_image_write_data import put
from tests.unit.localcloud.test_image_write_data import show
from tests.unit.localcloud.test_image_write_data import text


@pytest.fixture
def tokens(client):
    return {user: client.token(user) for user in ("demo", "alt")}


def over(size, remaining):
    return (
        "Image exceeds the storage quota: The size of the data %s will exceed the limit."
        " %s bytes remaining." % (size, remaining)
    )


def test_uploads_count_against_the_projects_quota(client, tokens):
    client.cloud.image.user_storage_quota = 1000
    first = new_image(client, tokens["demo"])
    assert put(client.cloud, first, tokens["demo"], b"x" * 600).status == 204
    second = new_image(client, tokens["demo"])
    body = Recording(b"x" * 500)
    declared = put(client.cloud, second, tokens["demo"], body)
    # refused before anything is read
    assert declared.status == 413 and body.reads == []
    assert text(declared) == over(500, 400)
    # a body of unknown length: refused once past what is left
    streamed = put(client.cloud, second, tokens["demo"], b"x" * 500, length=None)
    assert streamed.status == 413
    assert show(client, second, tokens["demo"])["status"] == "queued"
    assert len(os.listdir(client.cloud.image.files.root)) == 1
    # what is left still fits; another project has its own quota
    assert put(client.cloud, second, tokens["demo"], b"x" * 400).status == 204
    other = new_image(client, tokens["alt"])
    assert put(client.cloud, other, tokens["alt"], b"x" * 1000).status == 204
    # none left and the size unknown: refused at once
    third = new_image(client, tokens["demo"])
    full = put(client.cloud, third, tokens["demo"], b"x", length=None)
    assert full.status == 413 and text(full) == over(None, 0)


def test_replacing_an_images_data_does_not_count_it_twice(client, tokens):
    client.cloud.image.user_storage_quota = 1000
    image_id = new_image(client, tokens["demo"])
    assert put(client.cloud, image_id, tokens["demo"], b"x" * 800).status == 204
    # deleting it frees its bytes
    assert client.delete("/image/v2/images/" + image_id, token=tokens["demo"]).status == 204
    image_id = new_image(client, tokens["demo"])
    assert put(client.cloud, image_id, tokens["demo"], b"x" * 1000).status == 204


def test_staged_data_counts_against_the_quota(client, tokens):
    client.cloud.image.user_storage_quota = 1000
    staged = new_image(client, tokens["demo"])
    assert stage(client.cloud, staged, tokens["demo"], b"x" * 700).status == 204
    image_id = new_image(client, tokens["demo"])
    upload = put(client.cloud, image_id, tokens["demo"], b"x" * 400)
    assert upload.status == 413 and text(upload) == over(400, 300)
    second = new_image(client, tokens["demo"])
    staging = stage(client.cloud, second, tokens["demo"], b"x" * 400, length=None)
    assert staging.status == 413
    assert show(client, second, tokens["demo"])["status"] == "queued"
    assert len(os.listdir(client.cloud.image.staging.root)) == 1
    # importing moves the bytes, it does not add to them
    assert do_import(client, staged, tokens["demo"]).status == 202
    assert put(client.cloud, image_id, tokens["demo"], b"x" * 300).status == 204


def test_no_quota_by_default(client, tokens):
    assert client.cloud.image.user_storage_quota == 0
    image_id = new_image(client, tokens["demo"])
    assert put(client.cloud, image_id, tokens["demo"], b"x" * 5000).status == 204
