"""Request bodies hashed as they arrive (issue 26): the server's spool of a
large Swift object or Glance image upload carries the digests its handler
asks for, computed by ``spool.Tail`` threads reading the file behind the
writer, and ``files.Files.store`` takes them instead of hashing the bytes
again; a staged upload is not hashed; a body cut short leaves no thread;
digests the spool does not have are hashed by the store as before."""

import hashlib
import http.client
import json
import os
import socket
import threading
import time

import pytest

from occli.localcloud import files
from occli.localcloud import spool
from tests.unit.localcloud import byte_harness

# over waitress's inbuf_overflow (512 KiB), several of spool.CHUNK
LARGE = 3 * spool.CHUNK + 17


@pytest.fixture
def served(tmp_path):
    with byte_harness.served(tmp_path / "data") as served:
        yield served


@pytest.fixture
def hashed_in_store(monkeypatch):
    """The bytes ``files.Digests`` hashed with some digest (the store's own
    hashing), per digest name list."""
    seen = []
    real = files.Digests.update

    def update(self, chunk):
        if self.digests:
            seen.append((tuple(self.digests), len(chunk)))
        return real(self, chunk)

    monkeypatch.setattr(files.Digests, "update", update)
    return seen


_request = byte_harness.request


def _tails():
    return [t for t in threading.enumerate() if t.name == "occli-spool-digest"]


def _no_tails_left():
    deadline = time.monotonic() + 10
    while _tails():
        assert time.monotonic() < deadline, "a digest thread outlived its request"
        time.sleep(0.01)


def test_an_object_is_hashed_as_it_arrives(served, hashed_in_store):
    cloud, server, token, account = served
    payload = os.urandom(LARGE)
    status, headers, _ = _request(server, "PUT", account + "/c/big", token, payload)
    assert status == 201
    assert headers["Etag"] == hashlib.md5(payload).hexdigest()
    assert hashed_in_store == []  # the spool's MD5, not the store's
    assert _request(server, "GET", account + "/c/big", token)[2] == payload
    _no_tails_left()


def test_a_chunked_object_is_hashed_as_it_arrives(served, hashed_in_store):
    cloud, server, token, account = served
    payload = os.urandom(LARGE)
    pieces = (payload[i : i + 300_000] for i in range(0, len(payload), 300_000))
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        conn.request(
            "PUT",
            account + "/c/chunked",
            body=pieces,
            headers={"X-Auth-Token": token, "Transfer-Encoding": "chunked"},
            encode_chunked=True,
        )
        answer = conn.getresponse()
        answer.read()
    finally:
        conn.close()
    assert answer.status == 201
    assert answer.headers["Etag"] == hashlib.md5(payload).hexdigest()
    assert hashed_in_store == []


def test_an_image_upload_is_hashed_as_it_arrives(served, hashed_in_store):
    cloud, server, token, _ = served
    status, _, body = _request(
        server,
        "POST",
        "/image/v2/images",
        token,
        b'{"disk_format": "raw", "container_format": "bare"}',
        {"Content-Type": "application/json"},
    )
    image_id = json.loads(body)["id"]
    payload = os.urandom(LARGE)
    octets = {"Content-Type": "application/octet-stream"}
    path = "/image/v2/images/%s/file" % image_id
    assert _request(server, "PUT", path, token, payload, octets)[0] == 204
    assert hashed_in_store == []
    image = json.loads(_request(server, "GET", "/image/v2/images/" + image_id, token)[2])
    assert image["checksum"] == hashlib.md5(payload).hexdigest()
    assert image["os_hash_value"] == hashlib.sha512(payload).hexdigest()


def test_what_is_hashed_is_what_the_handler_asks_for(served):
    cloud, _, _, account = served
    digests = {svc.name: svc.body_digests for svc in cloud.services}
    swift, glance = digests["objectstore"], digests["image"]
    assert swift("PUT", account + "/c/o") == files.MD5
    assert swift("PUT", account.replace("/object-store", "") + "/c/dir/o") == files.MD5
    assert swift("PUT", account + "/c") == () and swift("POST", account + "/c/o") == ()
    assert glance("PUT", "/image/v2/images/i/file") == ("md5", "sha512")
    assert glance("PUT", "/image/v2/images/i/stage") == ()  # hashed when imported
    assert glance("PUT", "/image/v2/images/i") == ()


def test_a_body_cut_short_leaves_no_digest_thread(served):
    cloud, server, token, account = served
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(
            b"PUT %s/c/cut HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Auth-Token: %s\r\n"
            b"Content-Length: %d\r\n\r\n" % (account.encode(), token.encode(), LARGE)
        )
        sock.sendall(os.urandom(LARGE // 2))
        deadline = time.monotonic() + 10
        while not _tails():  # the spool began and is hashed behind
            assert time.monotonic() < deadline
            time.sleep(0.01)
    _no_tails_left()
    assert _request(server, "GET", account + "/c/cut", token)[0] == 404


def test_the_store_hashes_what_the_spool_did_not(tmp_path):
    """A spool hashed with other digests (or none) is hashed again by the
    store, and still linked into place."""
    payload = os.urandom(LARGE)
    store = files.Files(str(tmp_path))
    with spool.spool_file(str(tmp_path)) as spooled:
        gate = threading.Semaphore(1)
        spooled.write(payload)
        spooled.flush()
        spooled.tails = (spool.Tail(spooled.fileno(), "sha1", gate),)
        spooled.tails[0].advance(len(payload))
        spooled.seek(0)
        chunks = iter(lambda: spooled.read(files.CHUNK), b"")
        stored = store.store(chunks, spooled, ("md5", "sha512"))
    assert stored.md5 == hashlib.md5(payload).hexdigest()
    assert stored.hashes["sha512"] == hashlib.sha512(payload).hexdigest()
    with store.open(stored.name) as f:
        assert f.read() == payload
    _no_tails_left()


def test_a_tail_gives_no_digest_of_other_than_what_was_written(tmp_path):
    with spool.spool_file(str(tmp_path)) as spooled:
        spooled.write(b"abc")
        spooled.flush()
        tail = spool.Tail(spooled.fileno(), "md5", threading.Semaphore(1))
        spooled.tails = (tail,)
        tail.advance(3)
        assert spooled.digested(["md5"], 3) == {"md5": hashlib.md5(b"abc").hexdigest()}
        assert spooled.digested(["md5"], 2) is None  # not that many bytes
        assert spooled.digested(["md5", "sha512"], 3) is None  # not those digests
    _no_tails_left()


def test_no_digest_hashes_while_the_gate_is_taken(tmp_path):
    """At most ``gate``'s count of digests hash at once per process
    (``server.DIGEST_THREADS``): one waiting for the gate hashes nothing."""
    gate = threading.Semaphore(1)
    with spool.spool_file(str(tmp_path)) as spooled:
        spooled.write(b"x" * LARGE)
        spooled.flush()
        with gate:
            tail = spool.Tail(spooled.fileno(), "md5", gate)
            spooled.tails = (tail,)
            tail.advance(LARGE)
            time.sleep(0.2)
            assert tail._hashed == 0
        assert spooled.digested(["md5"], LARGE) == {"md5": hashlib.md5(b"x" * LARGE).hexdigest()}
    _no_tails_left()
