"""A read whose snapshot names a file a later write removed (issue 26's CI
failure: a software deployment's GET read its signal object while the
agent's PUT replaced it, and answered 500 for the FileNotFoundError).

A write commits, then unlinks the file it replaced or deleted; a read that
took its snapshot before that commit and opens the file after the unlink
finds it gone (``files.Stale``). The request runs again in a newer
snapshot, which has the row as it is now: the new bytes, or a 404; the
segments of a large object read while its body streams are read again on
their own. Each race is made to happen here, in order, not waited for.
"""

import hashlib
import json
import threading

import pytest

from occli.localcloud import files
from occli.localcloud.app import Response
from occli.localcloud.app import Service
from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.identity.api.service import IdentityService
from occli.localcloud.image.api.service import ImageService
from occli.localcloud.objectstore.api.service import ObjectStoreService
from tests.unit.localcloud.wsgi_client import Client
from tests.unit.localcloud.wsgi_client import call


@pytest.fixture
def cloud(tmp_path):
    made = LocalCloud(
        Config(data_dir=str(tmp_path / "data"), build_time=0),
        services=[IdentityService, ImageService, ObjectStoreService],
    )
    yield made
    made.close()


@pytest.fixture
def swift(cloud):
    token = Client(cloud).token("demo")
    with cloud.store.read() as db:
        account = "/object-store/v1/AUTH_" + cloud.identity.project_id(db, "demo")
    assert call(cloud, "PUT", account + "/c", token=token).status == 201
    return cloud, token, account


def _before_open(monkeypatch, write, when=lambda name, opened: not opened):
    """Run ``write()`` on a thread of its own (another request, finished
    before this goes on) just before the first ``Files.open`` for which
    ``when(name, names opened so far)`` holds; the names opened, in order."""
    real = files.Files.open
    opened = []
    done = []

    def open_(self, name):
        if not done and when(name, opened):
            done.append(True)
            thread = threading.Thread(target=write)
            thread.start()
            thread.join(30)
        opened.append(name)
        return real(self, name)

    monkeypatch.setattr(files.Files, "open", open_)
    return opened


def test_a_get_racing_a_replace_answers_the_new_bytes(swift, monkeypatch):
    cloud, token, account = swift
    path = account + "/c/o"
    assert call(cloud, "PUT", path, body=b"old" * 1000, token=token).status == 201
    replaced = []

    def replace():
        replaced.append(call(cloud, "PUT", path, body=b"new" * 1000, token=token).status)

    opened = _before_open(monkeypatch, replace)
    got = call(cloud, "GET", path, token=token)
    assert replaced == [201]
    assert (got.status, got.body) == (200, b"new" * 1000)
    assert got.header("Etag") == hashlib.md5(b"new" * 1000).hexdigest()
    # the old file (gone when opened), then the new one
    assert len(opened) == 2 and opened[0] != opened[1]


def test_a_get_racing_a_delete_is_a_404(swift, monkeypatch):
    cloud, token, account = swift
    path = account + "/c/o"
    assert call(cloud, "PUT", path, body=b"x" * 100, token=token).status == 201
    _before_open(monkeypatch, lambda: call(cloud, "DELETE", path, token=token))
    assert call(cloud, "GET", path, token=token).status == 404


def test_a_file_always_gone_is_a_503_not_a_500(swift, monkeypatch):
    cloud, token, account = swift
    path = account + "/c/o"
    assert call(cloud, "PUT", path, body=b"x" * 100, token=token).status == 201
    opened = []

    def gone(self, name):
        opened.append(name)
        raise files.Stale(2, "No such file or directory", name)

    monkeypatch.setattr(files.Files, "open", gone)
    got = call(cloud, "GET", path, token=token)
    assert got.status == 503
    # one read per attempt, each in a newer snapshot, then it gives up
    assert len(opened) == files.STALE_ATTEMPTS


def test_a_segment_replaced_as_the_body_streams_is_read_again(swift, monkeypatch):
    cloud, token, account = swift
    parts = [bytes([65 + i]) * 70000 for i in range(2)]
    for i, data in enumerate(parts):
        assert call(cloud, "PUT", account + "/c/s%d" % i, body=data, token=token).status == 201
    manifest = [
        {"path": "/c/s%d" % i, "etag": hashlib.md5(d).hexdigest()} for i, d in enumerate(parts)
    ]
    made = call(
        cloud,
        "PUT",
        account + "/c/big",
        query="multipart-manifest=put",
        body=json.dumps(manifest).encode(),
        token=token,
    )
    assert made.status == 201
    with cloud.store.read() as db:
        (second,) = db.execute("SELECT file FROM swift_objects WHERE name = 's1'").fetchone()

    def same_bytes_again():
        call(cloud, "PUT", account + "/c/s1", body=parts[1], token=token)

    # the second segment is opened as the body streams, after the answer began
    opened = _before_open(monkeypatch, same_bytes_again, lambda name, _: name == second)
    got = call(cloud, "GET", account + "/c/big", token=token)
    assert (got.status, got.body) == (200, b"".join(parts))
    assert opened.count(second) == 1 and len(opened) == 4  # manifest, s0, s1 gone, s1 new


def test_an_image_download_racing_its_delete_is_a_404(cloud, monkeypatch):
    client = Client(cloud)
    token = client.token("admin")
    image = client.request(
        "POST",
        "/image/v2/images",
        json={"name": "i", "disk_format": "raw", "container_format": "bare"},
        token=token,
    ).json()["id"]
    uploaded = client.request(
        "PUT",
        "/image/v2/images/%s/file" % image,
        body=b"disk" * 1000,
        headers={"Content-Type": "application/octet-stream"},
        token=token,
    )
    assert uploaded.status == 204
    deleted = []
    _before_open(
        monkeypatch,
        lambda: deleted.append(client.request("DELETE", "/image/v2/images/" + image, token=token)),
    )
    got = client.request("GET", "/image/v2/images/%s/file" % image, token=token)
    assert deleted[0].status == 204
    assert got.status == 404


class _Replaying(Service):
    """Handlers that find their file gone the first time."""

    name = "replaying"
    prefix = "/replaying"

    def __init__(self, cloud):
        super().__init__(cloud)
        self.calls = []
        self.route("GET", "/read", self.read, auth=False)
        self.route("PUT", "/streamed", self.streamed, auth=False, mode=None)

    def read(self, req):
        self.calls.append(req.db is not None)
        if len(self.calls) == 1:
            raise files.Stale(2, "No such file or directory", "x")
        return Response(200, {"attempt": len(self.calls)})

    def streamed(self, req):
        self.calls.append(b"".join(req.body_chunks(req.content_length)))
        raise files.Stale(2, "No such file or directory", "x")


@pytest.fixture
def replaying(tmp_path):
    made = LocalCloud(Config(data_dir=str(tmp_path / "r")), services=[_Replaying])
    yield made, made.services[0]
    made.close()


def test_a_read_runs_again_in_a_new_snapshot(replaying):
    cloud, service = replaying
    got = call(cloud, "GET", "/replaying/read")
    assert (got.status, got.json()) == (200, {"attempt": 2})
    assert service.calls == [True, True]


def test_a_request_whose_body_was_streamed_is_not_run_again(replaying):
    cloud, service = replaying
    got = call(cloud, "PUT", "/replaying/streamed", body=b"once")
    assert got.status == 503
    assert service.calls == [b"once"]
