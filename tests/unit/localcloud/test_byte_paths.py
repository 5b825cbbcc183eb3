"""The byte paths through the HTTP server (issue 26): a body larger than
waitress keeps in memory is spooled to an anonymous file in the data dir
(``spool.spool_file``), and the local Swift's and Glance's uploads link
that spool into place as the stored file (``files.Files.store``), hashed
on the way, instead of writing a second copy; anything else is copied as
before; a cut-short upload leaves no file."""

import hashlib
import json
import os
import socket
import time

import pytest

from occli.localcloud import files
from occli.localcloud import spool as spool_
from tests.unit.localcloud import byte_harness

# over waitress's inbuf_overflow (512 KiB): spooled to a file
LARGE = 3 * 1024 * 1024 + 11
# under it: held in memory
SMALL = 100 * 1024


@pytest.fixture
def served(tmp_path):
    with byte_harness.served(tmp_path / "data") as served:
        yield served


@pytest.fixture
def copies(monkeypatch):
    """The sizes of the bodies ``Files`` wrote as copies."""
    written = []
    write = files.Files._write

    def recording(self, chunks, *digests):
        stored = write(self, chunks, *digests)
        written.append(stored.size)
        return stored

    monkeypatch.setattr(files.Files, "_write", recording)
    return written


_request = byte_harness.request


def _stored_files(cloud, root):
    return sorted(os.listdir(root))


def test_a_large_object_s_spool_becomes_its_file(served, copies):
    cloud, server, token, account = served
    payload = os.urandom(LARGE)
    md5 = hashlib.md5(payload).hexdigest()
    status, headers, _ = _request(server, "PUT", account + "/c/big", token, payload, {"ETag": md5})
    assert status == 201
    assert headers["Etag"] == md5
    assert copies == []  # linked, not written again
    root = cloud.objectstore.files.root
    (name,) = _stored_files(cloud, root)
    st = os.stat(os.path.join(root, name))
    assert st.st_size == LARGE and st.st_nlink == 1 and st.st_mode & 0o777 == 0o600
    status, headers, body = _request(server, "GET", account + "/c/big", token)
    assert status == 200 and body == payload and headers["Etag"] == md5


def test_a_large_object_with_a_wrong_etag_leaves_no_file(served, copies):
    cloud, server, token, account = served
    status, _, _ = _request(
        server, "PUT", account + "/c/big", token, os.urandom(LARGE), {"ETag": "0" * 32}
    )
    assert status == 422
    assert _stored_files(cloud, cloud.objectstore.files.root) == []


def test_a_small_object_is_copied(served, copies):
    cloud, server, token, account = served
    payload = os.urandom(SMALL)
    status, _, _ = _request(server, "PUT", account + "/c/small", token, payload)
    assert status == 201
    assert copies == [SMALL]
    assert _request(server, "GET", account + "/c/small", token)[2] == payload


def test_a_refused_link_falls_back_to_a_copy(served, copies, monkeypatch):
    cloud, server, token, account = served

    def refused(fd, root, name):
        raise OSError("no link")

    monkeypatch.setattr(files, "_link", refused)
    payload = os.urandom(LARGE)
    status, headers, _ = _request(server, "PUT", account + "/c/big", token, payload)
    assert status == 201 and headers["Etag"] == hashlib.md5(payload).hexdigest()
    assert copies == [LARGE]
    assert _request(server, "GET", account + "/c/big", token)[2] == payload


def test_a_large_image_s_spool_becomes_its_file(served, copies):
    cloud, server, token, _ = served
    status, _, body = _request(
        server,
        "POST",
        "/image/v2/images",
        token,
        b'{"disk_format": "raw", "container_format": "bare"}',
        {"Content-Type": "application/json"},
    )
    assert status == 201, body
    image_id = json.loads(body)["id"]
    payload = os.urandom(LARGE)
    octets = {"Content-Type": "application/octet-stream"}
    path = "/image/v2/images/%s/file" % image_id
    assert _request(server, "PUT", path, token, payload, octets)[0] == 204
    assert copies == []
    image = json.loads(_request(server, "GET", "/image/v2/images/" + image_id, token)[2])
    assert image["status"] == "active" and image["size"] == LARGE
    assert image["checksum"] == hashlib.md5(payload).hexdigest()
    assert image["os_hash_value"] == hashlib.sha512(payload).hexdigest()
    status, headers, data = _request(server, "GET", path, token)
    assert status == 200 and data == payload
    assert headers["Content-MD5"] == image["checksum"]


def test_a_cut_short_upload_leaves_no_file(served):
    cloud, server, token, account = served
    before = sorted(os.listdir(cloud.config.data_dir))
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(
            b"PUT %s/c/cut HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Auth-Token: %s\r\n"
            b"Content-Length: %d\r\n\r\n" % (account.encode(), token.encode(), LARGE)
        )
        sock.sendall(os.urandom(LARGE // 2))
    # the server then serves the next upload; the cut one left nothing
    deadline = time.monotonic() + 10
    payload = os.urandom(LARGE)
    while _request(server, "PUT", account + "/c/next", token, payload)[0] != 201:
        assert time.monotonic() < deadline
    assert sorted(os.listdir(cloud.config.data_dir)) == before
    assert len(_stored_files(cloud, cloud.objectstore.files.root)) == 1
    assert _request(server, "GET", account + "/c/cut", token)[0] == 404


def test_store_links_an_anonymous_spool_and_copies_anything_else(tmp_path, copies):
    store = files.Files(str(tmp_path))
    payload = os.urandom(2 * files.CHUNK + 5)
    with spool_.spool_file(str(tmp_path)) as spool:
        spool.write(payload)
        spool.seek(0)
        stored = store.store(iter(lambda: spool.read(files.CHUNK), b""), spool)
        # the stored file is the spool itself (the same inode), not a copy
        assert os.stat(store.path(stored.name)).st_ino == os.fstat(spool.fileno()).st_ino
    assert copies == []
    assert stored.md5 == hashlib.md5(payload).hexdigest() and stored.size == len(payload)
    assert store.read(stored.name) == payload
    # a named file is no spool: copied
    named = tmp_path / "named"
    named.write_bytes(payload)
    with open(named, "rb") as f:
        other = store.store(iter(lambda: f.read(files.CHUNK), b""), f)
    assert copies == [len(payload)] and store.read(other.name) == payload
    # a spool read only in part: what was read is copied
    with spool_.spool_file(str(tmp_path)) as spool:
        spool.write(payload)
        spool.seek(0)
        part = store.store([spool.read(10)], spool)
    assert part.size == 10 and store.read(part.name) == payload[:10]
