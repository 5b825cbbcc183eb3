"""Swift object bytes outside the database (issue 19, finding 6): 5 MB PUTs
stored as SQLite BLOBs held the single write lock while the body was read
and written, and pushed another tenant's write p99 past a second.

Object bytes are private files under the data directory (0700 directory,
0600 files, written under a temporary name then renamed), their metadata in
SQLite; a PUT streams its body with no transaction open and takes the write
lock only for its metadata row; a refused or failed PUT leaves nothing.
"""

import hashlib
import io
import os
import sqlite3
import stat
import uuid

import pytest

from occli.localcloud import files
from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.identity.api.service import IdentityService
from occli.localcloud.objectstore import migrations
from occli.localcloud.objectstore.api.service import ObjectStoreService
from occli.localcloud.store import Store
from tests.unit.localcloud.wsgi_client import Client
from tests.unit.localcloud.wsgi_client import call


def _cloud(data_dir):
    return LocalCloud(
        Config(data_dir=str(data_dir)), services=[IdentityService, ObjectStoreService]
    )


@pytest.fixture
def swift(tmp_path):
    cloud = _cloud(tmp_path / "data")
    client = Client(cloud)
    token = client.token("demo")
    with cloud.store.read() as db:
        account = "/object-store/v1/AUTH_" + cloud.identity.project_id(db, "demo")
    assert client.request("PUT", account + "/c", token=token).status == 201
    yield cloud, token, account
    cloud.close()


def _put(cloud, token, path, body, headers=None):
    return call(cloud, "PUT", path, body=body, headers=headers, token=token)


def _object_dir(cloud):
    return os.path.join(cloud.config.data_dir, files.DIRECTORY)


def _entries(cloud):
    return sorted(os.listdir(_object_dir(cloud)))


def _database_bytes(cloud):
    data = b""
    for suffix in ("", "-wal"):
        path = cloud.store.path + suffix
        if os.path.exists(path):
            with open(path, "rb") as f:
                data += f.read()
    return data


def test_object_bytes_are_private_files_not_database_rows(swift):
    cloud, token, account = swift
    marker = ("never-in-the-database-" + uuid.uuid4().hex).encode() * 100
    assert _put(cloud, token, account + "/c/o", marker).status == 201
    assert marker[:64] not in _database_bytes(cloud)
    with cloud.store.read() as db:
        columns = [r["name"] for r in db.execute("PRAGMA table_info(swift_objects)")]
        (name,) = db.execute("SELECT file FROM swift_objects").fetchone()
    assert "body" not in columns
    directory = _object_dir(cloud)
    assert stat.S_IMODE(os.lstat(directory).st_mode) == 0o700
    assert _entries(cloud) == [name]
    st = os.lstat(os.path.join(directory, name))
    assert stat.S_ISREG(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o600
    with open(os.path.join(directory, name), "rb") as f:
        assert f.read() == marker


def test_replacing_and_deleting_remove_the_old_files(swift):
    cloud, token, account = swift
    assert _put(cloud, token, account + "/c/o", b"first").status == 201
    (first,) = _entries(cloud)
    assert _put(cloud, token, account + "/c/o", b"second").status == 201
    (second,) = _entries(cloud)
    assert second != first
    assert call(cloud, "GET", account + "/c/o", token=token).body == b"second"
    assert call(cloud, "DELETE", account + "/c/o", token=token).status == 204
    assert _entries(cloud) == []


@pytest.mark.parametrize(
    "case",
    ["etag_mismatch", "missing_container", "short_body", "over_limit", "reader", "no_token"],
)
def test_a_refused_or_failed_put_leaves_nothing(swift, case, monkeypatch):
    cloud, token, account = swift
    assert _put(cloud, token, account + "/c/o", b"kept").status == 201
    before_files = _entries(cloud)
    with cloud.store.read() as db:
        before_rows = [tuple(r) for r in db.execute("SELECT * FROM swift_objects")]
    path, body, headers, expected = account + "/c/o", b"replacement", {}, None
    put_token = token
    if case == "etag_mismatch":
        headers, expected = {"Etag": hashlib.md5(b"other").hexdigest()}, 422
    elif case == "missing_container":
        path, expected = account + "/gone/o", 404
    elif case == "over_limit":
        monkeypatch.setattr(cloud.config, "max_object_size", 4)
        expected = 413
    elif case == "reader":
        with cloud.store.transaction() as db:
            db.execute(
                "DELETE FROM role_assignments WHERE role_id IN"
                " (SELECT id FROM roles WHERE name IN ('member', 'admin'))"
                " AND user_id = ?",
                (cloud.identity.user_id(db, "demo"),),
            )
            db.execute(
                "INSERT INTO role_assignments (user_id, target_type, target_id, role_id)"
                " SELECT ?, 'project', ?, id FROM roles WHERE name = 'reader'",
                (cloud.identity.user_id(db, "demo"), cloud.identity.project_id(db, "demo")),
            )
        put_token, expected = Client(cloud).token("demo"), 403
    elif case == "no_token":
        put_token, expected = None, 401
    if case == "short_body":
        environ_body = io.BytesIO(b"only this")
        result = _short_put(cloud, token, path, environ_body, length=1000)
        assert result == 499
    else:
        assert _put(cloud, put_token, path, body, headers).status == expected
    assert _entries(cloud) == before_files
    with cloud.store.read() as db:
        assert [tuple(r) for r in db.execute("SELECT * FROM swift_objects")] == before_rows
    assert call(cloud, "GET", account + "/c/o", token=token).body == b"kept"


def _short_put(cloud, token, path, stream, length):
    """A PUT whose input ends before its Content-Length (a client gone)."""
    return call(cloud, "PUT", path, token=token, wsgi_input=stream, length=length).status


class LockProbe:
    """A ``wsgi.input`` that, at each read, checks that another connection
    can take the write lock at once (another tenant's write would not
    wait behind this upload)."""

    def __init__(self, path, data):
        self.path = path
        self.stream = io.BytesIO(data)
        self.locked = []

    def read(self, size=-1):
        other = sqlite3.connect(self.path, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
            self.locked.append(False)
        except sqlite3.OperationalError:
            self.locked.append(True)
        finally:
            other.close()
        return self.stream.read(size)


def test_a_put_streams_its_body_without_the_write_lock(swift):
    cloud, token, account = swift
    body = b"x" * (5 * files.CHUNK)
    probe = LockProbe(cloud.store.path, body)
    put = call(cloud, "PUT", account + "/c/big", token=token, wsgi_input=probe, length=len(body))
    assert put.status == 201
    assert probe.locked and not any(probe.locked)


def test_the_objects_directory_is_tightened_and_a_link_refused(tmp_path):
    data = tmp_path / "data"
    (data / files.DIRECTORY).mkdir(parents=True)
    os.chmod(data / files.DIRECTORY, 0o755)
    _cloud(data).close()
    assert stat.S_IMODE(os.lstat(data / files.DIRECTORY).st_mode) == 0o700

    linked = tmp_path / "linked"
    linked.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    os.symlink(elsewhere, linked / files.DIRECTORY)
    with pytest.raises(files.NotPrivate):
        _cloud(linked)


def test_an_object_file_replaced_by_a_link_is_not_followed(swift):
    cloud, token, account = swift
    assert _put(cloud, token, account + "/c/o", b"mine").status == 201
    (name,) = _entries(cloud)
    secret = os.path.join(os.path.dirname(_object_dir(cloud)), "clouds.yaml")
    path = os.path.join(_object_dir(cloud), name)
    os.unlink(path)
    os.symlink(secret, path)
    crashes = []
    cloud.log_exception = crashes.append
    result = call(cloud, "GET", account + "/c/o", token=token)
    assert result.status == 500 and b"demo-secret" not in result.body
    assert crashes


def test_legacy_blob_rows_move_to_files(tmp_path):
    """A database written before object files (migration step 1, BLOBs)
    gets its bytes moved to files and the ``body`` column dropped."""
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    store = Store(data / "cloud.db")
    store.migrate("objectstore", [migrations.TABLES])
    legacy = os.urandom(3 * files.CHUNK + 7)
    with store.transaction() as db:
        db.execute(
            "INSERT INTO swift_accounts (account, metadata, created_at) VALUES ('AUTH_x', '{}', 1)"
        )
        db.execute(
            "INSERT INTO swift_containers (account, name, metadata, created_at)"
            " VALUES ('AUTH_x', 'c', '{}', 1)"
        )
        db.execute(
            "INSERT INTO swift_objects (account, container, name, body, size, etag,"
            " content_type, metadata, timestamp)"
            " VALUES ('AUTH_x', 'c', 'o', ?, ?, ?, 'application/x', '{\"k\": \"v\"}', 5)",
            (legacy, len(legacy), hashlib.md5(legacy).hexdigest()),
        )
    store.close()
    cloud = _cloud(data)
    try:
        with cloud.store.read() as db:
            columns = [r["name"] for r in db.execute("PRAGMA table_info(swift_objects)")]
            obj = cloud.objectstore.read_object(db, "AUTH_x", "c", "o")
        assert "body" not in columns
        assert obj["body"] == legacy and obj["size"] == len(legacy)
        assert obj["etag"] == hashlib.md5(legacy).hexdigest()
        assert (obj["content_type"], obj["metadata"], obj["timestamp"]) == (
            "application/x",
            '{"k": "v"}',
            5,
        )
        assert _entries(cloud) == [obj["file"]]
    finally:
        cloud.close()
