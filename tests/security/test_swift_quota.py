"""Swift quotas (issue 19, finding 17): one tenant wrote 216 × 5 MB, no
quota stopped it. Swift's account_quotas middleware: the reseller admin
(here: the admin role) sets ``X-Account-Quota-Bytes`` /
``X-Account-Quota-Count`` (or the legacy ``X-Account-Meta-Quota-Bytes``);
a PUT that would exceed one is a 413 ``Upload exceeds quota.``, checked
against the declared length before the body is read and against the bytes
received after; where an account sets none the cloud's defaults apply
(``Config.object_quota_bytes``, 1 GiB, and ``object_quota_count``).
"""

import io
import os

import pytest

from occli.localcloud import files
from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.identity.api.service import IdentityService
from occli.localcloud.objectstore.api.service import ObjectStoreService
from tests.security import authz_credentials as creds
from tests.unit.localcloud.wsgi_client import call

EXCEEDED = b"Upload exceeds quota."


class CountingInput:
    """A ``wsgi.input`` that counts the bytes read from it."""

    def __init__(self, data):
        self.stream = io.BytesIO(data)
        self.read_bytes = 0

    def read(self, size=-1):
        data = self.stream.read(size)
        self.read_bytes += len(data)
        return data


@pytest.fixture
def swift(tmp_path):
    """A cloud whose default quota is 100 bytes and 5 objects; the seeded
    admin holds the admin role on project demo too: its token scoped there
    is the reseller on demo's account."""
    cloud = LocalCloud(
        Config(data_dir=str(tmp_path / "data"), object_quota_bytes=100, object_quota_count=5),
        services=[IdentityService, ObjectStoreService],
    )
    creds.add_principals(cloud)
    client = creds.Client(cloud)
    with cloud.store.read() as db:
        demo = cloud.identity.project_id(db, "demo")
    tokens = {
        "member": client.password_token("demo"),
        "reader": client.password_token(creds.READER, project=creds.PROJECT_A),
        "reseller": client.password_token("admin", project="demo"),
    }
    account = "/object-store/v1/AUTH_" + demo
    client.call("PUT", account + "/c", token=tokens["member"])
    yield cloud, client, tokens, account
    cloud.close()


def _put(cloud, token, path, data, chunked=False, query=""):
    """``(status, body, bytes read from the input)`` of an object PUT."""
    stream = CountingInput(data)
    answer = call(
        cloud,
        "PUT",
        path,
        query=query,
        token=token or None,
        headers={"Transfer-Encoding": "chunked"} if chunked else None,
        wsgi_input=stream,
        length=None if chunked else len(data),
    )
    return answer.status, answer.body, stream.read_bytes


def _stored(cloud):
    with cloud.store.read() as db:
        rows = db.execute("SELECT name, size FROM swift_objects ORDER BY name").fetchall()
    return [tuple(r) for r in rows]


def test_the_defaults_are_a_laptops(tmp_path):
    config = Config(data_dir=str(tmp_path))
    assert config.object_quota_bytes == 1024**3
    assert config.object_quota_count == 100000
    assert config.max_object_size == 5 * 1024**3 + 2


def test_the_default_byte_quota_is_checked_before_the_body_is_read(swift):
    cloud, _, tokens, account = swift
    assert _put(cloud, tokens["member"], account + "/c/a", b"x" * 60)[0] == 201
    status, body, read = _put(cloud, tokens["member"], account + "/c/b", b"y" * 41)
    assert (status, body, read) == (413, EXCEEDED, 0)
    assert _put(cloud, tokens["member"], account + "/c/b", b"y" * 40)[0] == 201
    assert _stored(cloud) == [("a", 60), ("b", 40)]


def test_a_chunked_body_is_checked_against_the_bytes_received(swift):
    cloud, _, tokens, account = swift
    assert _put(cloud, tokens["member"], account + "/c/a", b"x" * 60)[0] == 201
    entries = sorted(os.listdir(cloud.objectstore.files.root))
    status, body, read = _put(cloud, tokens["member"], account + "/c/b", b"y" * 41, chunked=True)
    assert (status, body, read) == (413, EXCEEDED, 41)
    assert _stored(cloud) == [("a", 60)]
    assert sorted(os.listdir(cloud.objectstore.files.root)) == entries


def test_a_temp_url_put_is_bound_by_the_quota(swift):
    cloud, client, tokens, account = swift
    client.call(
        "POST", account, token=tokens["member"], headers={"X-Account-Meta-Temp-URL-Key": "k"}
    )
    path = account + "/c/signal"
    query = creds.temp_url_query("k", "PUT", path[len("/object-store") :], creds.expires_in(600))
    assert _put(cloud, None, path, b"z" * 101, query=query)[:2] == (413, EXCEEDED)
    assert _put(cloud, None, path, b"z" * 100, query=query)[0] == 201


def test_the_default_object_count_quota(swift):
    cloud, _, tokens, account = swift
    for i in range(5):
        assert _put(cloud, tokens["member"], account + "/c/%d" % i, b"")[0] == 201
    assert _put(cloud, tokens["member"], account + "/c/5", b"")[:2] == (413, EXCEEDED)
    assert len(_stored(cloud)) == 5


@pytest.mark.parametrize(
    "header",
    [
        "X-Account-Quota-Bytes",
        "X-Account-Meta-Quota-Bytes",
        "X-Account-Quota-Count",
        "X-Remove-Account-Quota-Bytes",
        "X-Remove-Account-Meta-Quota-Bytes",
    ],
)
@pytest.mark.parametrize("who", ["member", "reader"])
def test_only_the_reseller_sets_a_quota(swift, header, who):
    cloud, client, tokens, account = swift
    before = client.call("HEAD", account, token=tokens["member"]).headers
    result = client.request("POST", account, token=tokens[who], headers={header: "999999999"})
    assert result.status == 403
    after = client.call("HEAD", account, token=tokens["member"]).headers
    assert {k: v for k, v in after.items() if "quota" in k} == {
        k: v for k, v in before.items() if "quota" in k
    }
    # the default still holds
    assert _put(cloud, tokens["member"], account + "/c/big", b"x" * 101)[0] == 413


def test_the_reseller_lifts_and_lowers_an_accounts_quota(swift):
    cloud, client, tokens, account = swift
    reseller = tokens["reseller"]
    client.call(
        "POST",
        account,
        token=reseller,
        headers={"X-Account-Quota-Bytes": "300", "X-Account-Quota-Count": "2"},
    )
    head = client.call("HEAD", account, token=tokens["reader"]).headers
    assert (head["x-account-quota-bytes"], head["x-account-quota-count"]) == ("300", "2")
    assert _put(cloud, tokens["member"], account + "/c/a", b"x" * 250)[0] == 201
    assert _put(cloud, tokens["member"], account + "/c/b", b"x" * 51)[:2] == (413, EXCEEDED)
    assert _put(cloud, tokens["member"], account + "/c/b", b"x" * 50)[0] == 201
    assert _put(cloud, tokens["member"], account + "/c/c", b"")[:2] == (413, EXCEEDED)
    # the reseller itself is bound by none
    assert _put(cloud, reseller, account + "/c/d", b"x" * 500)[0] == 201
    # the legacy header sets the byte quota too; a non-number is a 400
    client.call("POST", account, token=reseller, headers={"X-Account-Meta-Quota-Bytes": "2000"})
    assert _put(cloud, tokens["member"], account + "/c/a", b"x" * 250)[0] == 413  # count: 2
    client.call("POST", account, token=reseller, headers={"X-Remove-Account-Quota-Count": "x"})
    assert _put(cloud, tokens["member"], account + "/c/e", b"x" * 250)[0] == 201
    bad = client.request("POST", account, token=reseller, headers={"X-Account-Quota-Bytes": "-1"})
    assert bad.status == 400
    # removed: the cloud's default applies again
    client.call("POST", account, token=reseller, headers={"X-Remove-Account-Quota-Bytes": "x"})
    client.call(
        "POST", account, token=reseller, headers={"X-Remove-Account-Meta-Quota-Bytes": "x"}
    )
    head = client.call("HEAD", account, token=tokens["member"]).headers
    assert not any("quota" in k for k in head)
    assert _put(cloud, tokens["member"], account + "/c/f", b"x")[:2] == (413, EXCEEDED)


def test_unlimited(tmp_path):
    cloud = LocalCloud(
        Config(data_dir=str(tmp_path / "data"), object_quota_bytes=-1, object_quota_count=-1),
        services=[IdentityService, ObjectStoreService],
    )
    try:
        client = creds.Client(cloud)
        token = client.password_token("demo")
        with cloud.store.read() as db:
            account = "/object-store/v1/AUTH_" + cloud.identity.project_id(db, "demo")
        client.call("PUT", account + "/c", token=token)
        for i in range(3):
            body = b"x" * (2 * files.CHUNK)
            assert (
                call(cloud, "PUT", "%s/c/%d" % (account, i), body=body, token=token).status == 201
            )
    finally:
        cloud.close()
