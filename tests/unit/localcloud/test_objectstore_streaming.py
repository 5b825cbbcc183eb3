"""The local Swift streams object bodies: a PUT reads ``wsgi.input`` and a
GET answers in chunks of at most ``files.CHUNK`` bytes, whatever the
object's size, so memory stays flat; a HEAD opens nothing."""

import hashlib
import io

import pytest

from occli.localcloud import files
from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.identity.api.service import IdentityService
from occli.localcloud.objectstore.api.service import ObjectStoreService
from tests.unit.localcloud import wsgi_client
from tests.unit.localcloud.wsgi_client import Client

SIZE = 20 * files.CHUNK + 123  # several times the chunk bound, not a multiple


class RecordingInput:
    """A ``wsgi.input`` that records the size asked for by each read
    (``-1``: read everything)."""

    def __init__(self, data):
        self.stream = io.BytesIO(data)
        self.sizes = []

    def read(self, size=-1):
        self.sizes.append(size)
        return self.stream.read(size)


@pytest.fixture
def swift(tmp_path):
    cloud = LocalCloud(
        Config(data_dir=str(tmp_path / "data")), services=[IdentityService, ObjectStoreService]
    )
    client = Client(cloud)
    token = client.token("demo")
    with cloud.store.read() as db:
        account = "/object-store/v1/AUTH_" + cloud.identity.project_id(db, "demo")
    assert client.request("PUT", account + "/c", token=token).status == 201
    yield cloud, token, account
    cloud.close()


def _call(cloud, method, path, token, wsgi_input=None, length=None, headers=None):
    """``(status, headers, the response iterable's chunks)``."""
    answer = wsgi_client.call(
        cloud,
        method,
        path,
        headers=headers,
        token=token,
        wsgi_input=wsgi_input or io.BytesIO(b""),
        length=length,
    )
    return answer.status, answer.headers, answer.chunks


def _body(seed=b"streamed"):
    return (hashlib.sha256(seed).digest() * (SIZE // 32 + 1))[:SIZE]


def test_put_and_get_never_move_more_than_a_chunk_at_once(swift):
    cloud, token, account = swift
    body = _body()
    for _ in range(3):
        upload = RecordingInput(body)
        status, headers, _ = _call(cloud, "PUT", account + "/c/big", token, upload, len(body))
        assert status == 201
        assert headers["etag"] == hashlib.md5(body).hexdigest()
        assert upload.sizes and all(0 < size <= files.CHUNK for size in upload.sizes)
        assert len(upload.sizes) >= SIZE // files.CHUNK
        status, headers, chunks = _call(cloud, "GET", account + "/c/big", token)
        assert status == 200
        assert headers["content-length"] == str(SIZE)
        assert len(chunks) > 1 and all(len(c) <= files.CHUNK for c in chunks)
        assert b"".join(chunks) == body


def test_a_chunked_put_streams_too(swift):
    """No Content-Length: ``Transfer-Encoding: chunked`` (a server that
    decoded it passes the plain bytes), read in bounded chunks to the end."""
    cloud, token, account = swift
    body = _body(b"chunked")
    upload = RecordingInput(body)
    status, headers, _ = _call(
        cloud,
        "PUT",
        account + "/c/chunked",
        token,
        upload,
        headers={"Transfer-Encoding": "chunked"},
    )
    assert status == 201
    assert all(0 < size <= files.CHUNK for size in upload.sizes)
    status, _, chunks = _call(cloud, "GET", account + "/c/chunked", token)
    assert b"".join(chunks) == body


def test_a_chunked_put_over_the_size_limit_is_refused_midway(swift, monkeypatch):
    cloud, token, account = swift
    monkeypatch.setattr(cloud.config, "max_object_size", 3 * files.CHUNK)
    upload = RecordingInput(_body())
    status, _, chunks = _call(
        cloud, "PUT", account + "/c/over", token, upload, headers={"Transfer-Encoding": "chunked"}
    )
    assert status == 413
    assert b"".join(chunks) == b"Your request is too large."
    # it stopped reading once past the limit
    assert sum(upload.sizes) <= 5 * files.CHUNK
    assert _call(cloud, "HEAD", account + "/c/over", token)[0] == 404


def test_head_opens_no_file(swift, monkeypatch):
    cloud, token, account = swift
    body = _body()
    assert _call(cloud, "PUT", account + "/c/o", token, io.BytesIO(body), len(body))[0] == 201
    opened = []
    monkeypatch.setattr(cloud.objectstore.files, "open", opened.append)
    status, headers, chunks = _call(cloud, "HEAD", account + "/c/o", token)
    assert (status, headers["content-length"], b"".join(chunks)) == (200, str(SIZE), b"")
    assert opened == []


def test_chunked_transfer_encoding_over_http(env):
    """Over a real server (waitress decodes the chunks): a body sent without
    a Content-Length is stored whole, and read back in bounded chunks."""
    import requests

    demo = env.demo
    body = _body(b"over http")
    requests.put(demo.swift + "/http-chunked", headers=demo.headers)
    pieces = (body[i : i + 10000] for i in range(0, len(body), 10000))
    resp = requests.put(demo.swift + "/http-chunked/o", data=pieces, headers=demo.headers)
    assert resp.status_code == 201, resp.text
    assert resp.headers["Etag"] == hashlib.md5(body).hexdigest()
    got = requests.get(demo.swift + "/http-chunked/o", headers=demo.headers, stream=True)
    assert got.headers["Content-Length"] == str(SIZE)
    assert b"".join(got.iter_content(files.CHUNK)) == body
