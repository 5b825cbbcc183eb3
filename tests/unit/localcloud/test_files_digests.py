"""The local cloud's digests of stored bytes (issue 26): ``files.Digests``
hashes Glance's MD5 and SHA-512 beside each other (each digest after the
first in a thread of its own), ``Files.store`` returns the digests it was
asked for, and a large staged image's spool becomes its staged file,
unhashed until the import hashes it."""

import hashlib
import json
import os
import threading

import pytest

from occli.localcloud import files
from occli.localcloud import spool as spool_
from tests.unit.localcloud.test_byte_paths import LARGE
from tests.unit.localcloud.test_byte_paths import _request
from tests.unit.localcloud.test_byte_paths import copies  # noqa: F401 (fixture)
from tests.unit.localcloud.test_byte_paths import served  # noqa: F401 (fixture)


def test_digests_match_hashlib_and_run_in_threads():
    payload = os.urandom(3 * files.CHUNK + 7)
    before = threading.active_count()
    digests = files.Digests(["md5", "sha512", "sha256"])
    # the first in this thread, the two others each in their own
    assert threading.active_count() == before + 2
    for start in range(0, len(payload), files.CHUNK):
        digests.update(payload[start : start + files.CHUNK])
    stored = digests.stored("0" * 32)
    assert threading.active_count() == before
    assert stored.size == len(payload)
    assert stored.md5 == hashlib.md5(payload).hexdigest()
    assert stored.hashes == {
        "md5": stored.md5,
        "sha512": hashlib.sha512(payload).hexdigest(),
        "sha256": hashlib.sha256(payload).hexdigest(),
    }


def test_digests_closed_early_end_their_threads():
    before = threading.active_count()
    digests = files.Digests(["md5", "sha512"])
    digests.update(b"x" * files.CHUNK)
    digests.close()
    assert threading.active_count() == before


@pytest.mark.parametrize("spooled", [True, False])
def test_store_returns_the_digests_asked_for(tmp_path, spooled):
    store = files.Files(str(tmp_path))
    payload = os.urandom(2 * files.CHUNK + 5)
    chunks = [payload[: files.CHUNK], payload[files.CHUNK :]]
    if spooled:
        with spool_.spool_file(str(tmp_path)) as spool:
            spool.write(payload)
            spool.seek(0)
            read = iter(lambda: spool.read(files.CHUNK), b"")
            stored = store.store(read, spool, ("md5", "sha512"))
    else:
        stored = store.store(chunks, None, ("md5", "sha512"))
    assert stored.md5 == hashlib.md5(payload).hexdigest()
    assert stored.hashes["sha512"] == hashlib.sha512(payload).hexdigest()
    assert store.read(stored.name) == payload
    unhashed = store.store(chunks, None, ())
    assert unhashed.md5 == "" and unhashed.hashes == {} and unhashed.size == len(payload)
    # the default stays Swift's MD5
    assert store.store(chunks).hashes == {"md5": stored.md5}


def test_a_failed_stream_ends_the_digest_threads(tmp_path):
    store = files.Files(str(tmp_path))
    before = threading.active_count()

    def failing():
        yield b"x" * files.CHUNK
        raise OSError("gone")

    with pytest.raises(OSError):
        store.store(failing(), None, ("md5", "sha512"))
    assert threading.active_count() == before
    assert [n for n in os.listdir(store.root) if not n.startswith(".")] == []


def test_a_large_staged_image_s_spool_becomes_its_staged_file(served, copies):  # noqa: F811
    cloud, server, token, _ = served
    json_type = {"Content-Type": "application/json"}
    status, _, body = _request(
        server,
        "POST",
        "/image/v2/images",
        token,
        b'{"disk_format": "raw", "container_format": "bare"}',
        json_type,
    )
    assert status == 201, body
    image_id = json.loads(body)["id"]
    payload = os.urandom(LARGE)
    octets = {"Content-Type": "application/octet-stream"}
    stage = "/image/v2/images/%s/stage" % image_id
    assert _request(server, "PUT", stage, token, payload, octets)[0] == 204
    assert copies == []  # linked, not written again
    (staged,) = os.listdir(cloud.image.staging.root)
    assert os.stat(os.path.join(cloud.image.staging.root, staged)).st_nlink == 1
    method = b'{"method": {"name": "glance-direct"}}'
    path = "/image/v2/images/%s/import" % image_id
    assert _request(server, "POST", path, token, method, json_type)[0] == 202
    image = json.loads(_request(server, "GET", "/image/v2/images/" + image_id, token)[2])
    assert image["status"] == "active" and image["size"] == LARGE
    assert image["checksum"] == hashlib.md5(payload).hexdigest()
    assert image["os_hash_value"] == hashlib.sha512(payload).hexdigest()
    status, _, data = _request(server, "GET", "/image/v2/images/%s/file" % image_id, token)
    assert status == 200 and data == payload
