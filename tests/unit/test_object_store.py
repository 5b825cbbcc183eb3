"""ObjectStoreManager: account temp-URL key, containers, objects, temp URLs."""

import hashlib
import hmac
from urllib.parse import parse_qs
from urllib.parse import urlparse

import pytest

from occli import exceptions
from occli.v2.object_store import object_store

from .fakes import PROJECT_ID
from .fakes import SWIFT
from .fakes import TOKEN
from .fakes import requests_to

KEY = "0123456789abcdef0123456789abcdef"
SWIFT_PATH = "/swift/v1/AUTH_" + PROJECT_ID


def test_signature_is_hmac_sha256_hex_over_method_expires_path():
    expected = hmac.new(
        KEY.encode(), b"PUT\n1700000000\n/v1/AUTH_p/c/o", hashlib.sha256
    ).hexdigest()
    assert object_store.temp_url_signature(KEY, "put", 1700000000, "/v1/AUTH_p/c/o") == expected
    assert len(expected) == 64


def test_signature_matches_the_local_cloud_verifier():
    from occli.localcloud.objectstore import tempurl as server_side

    assert object_store.temp_url_signature(
        KEY, "PUT", 1700000000, "/x/c/o"
    ) == server_side.temp_url_signature(KEY, "PUT", 1700000000, "/x/c/o")


def test_temp_url_signs_the_full_decoded_url_path_of_the_object(client, mock_cloud):
    url = client.object_store.temp_url(
        "cont/obj/with space é", "PUT", 1700000000, key=KEY, absolute=True
    )
    parsed = urlparse(url)
    assert url.startswith(SWIFT + "/cont/obj/with%20space%20%C3%A9?")
    assert parsed.path == SWIFT_PATH + "/cont/obj/with%20space%20%C3%A9"
    query = parse_qs(parsed.query)
    assert query["temp_url_expires"] == ["1700000000"]
    # Swift verifies the decoded PATH_INFO (swiftclient signs the plain path)
    path = SWIFT_PATH + "/cont/obj/with space é"
    assert query["temp_url_sig"] == [
        hmac.new(KEY.encode(), ("PUT\n1700000000\n" + path).encode(), hashlib.sha256).hexdigest()
    ]
    # no request was needed with an explicit key (the catalog comes from auth)
    assert not requests_to(mock_cloud.mock, "HEAD", SWIFT)


def test_temp_url_relative_expiry_and_account_key(client, mock_cloud, monkeypatch):
    monkeypatch.setattr(object_store.time, "time", lambda: 1000.4)
    mock_cloud.mock.head(SWIFT, status_code=204, headers={"X-Account-Meta-Temp-URL-Key": KEY})
    url = client.object_store.temp_url("/c/o", "GET", 60)
    query = parse_qs(urlparse(url).query)
    assert query["temp_url_expires"] == ["1060"]
    assert query["temp_url_sig"] == [
        object_store.temp_url_signature(KEY, "GET", 1060, SWIFT_PATH + "/c/o")
    ]


@pytest.mark.parametrize("path", ["", "c", "c/", "/c"])
def test_temp_url_needs_container_and_object(client, path):
    with pytest.raises(ValueError):
        client.object_store.temp_url(path, key=KEY)


def test_ensure_key_keeps_an_existing_key(client, mock_cloud):
    mock_cloud.mock.head(SWIFT, status_code=204, headers={"X-Account-Meta-Temp-URL-Key": KEY})
    assert client.object_store.ensure_temp_url_key() == KEY
    assert not requests_to(mock_cloud.mock, "POST", SWIFT)
    head = requests_to(mock_cloud.mock, "HEAD", SWIFT)[0]
    assert head.headers["X-Auth-Token"] == TOKEN


def test_ensure_key_sets_a_random_key_when_missing(client, mock_cloud):
    mock_cloud.mock.head(SWIFT, status_code=204)
    mock_cloud.mock.post(SWIFT, status_code=204)
    key = client.object_store.ensure_temp_url_key()
    assert len(key) == 32
    post = requests_to(mock_cloud.mock, "POST", SWIFT)[0]
    assert post.url == SWIFT
    assert post.headers["X-Account-Meta-Temp-URL-Key"] == key


def test_set_secondary_key(client, mock_cloud):
    mock_cloud.mock.post(SWIFT, status_code=204)
    client.object_store.set_temp_url_key("k2", secondary=True)
    post = requests_to(mock_cloud.mock, "POST", SWIFT)[0]
    assert post.headers["X-Account-Meta-Temp-URL-Key-2"] == "k2"


def test_containers_and_objects(client, mock_cloud):
    m = mock_cloud.mock
    m.put(SWIFT + "/my%20c", status_code=201)
    m.put(SWIFT + "/my%20c/a/b.json", status_code=201)
    m.get(SWIFT + "/my%20c/a/b.json", content=b'{"x": 1}')
    m.head(SWIFT + "/my%20c/a/b.json", headers={"Last-Modified": "Tue, 14 Nov 2023 22:13:20 GMT"})
    m.delete(SWIFT + "/my%20c/a/b.json", status_code=204)
    m.delete(SWIFT + "/my%20c", status_code=204)
    store = client.object_store
    store.put_container("my c")
    store.put_object("my c", "a/b.json", '{"x": 1}', content_type="application/json")
    assert store.get_object("my c", "a/b.json") == b'{"x": 1}'
    assert store.head_object("my c", "a/b.json")["last-modified"].startswith("Tue")
    store.delete_object("my c", "a/b.json")
    store.delete_container("my c")
    put = requests_to(m, "PUT", "/a/b.json")[0]
    assert put.body == b'{"x": 1}'
    assert put.headers["Content-Type"] == "application/json"
    assert [(r.method, r.url) for r in m.request_history if r.url.startswith(SWIFT)] == [
        ("PUT", SWIFT + "/my%20c"),
        ("PUT", SWIFT + "/my%20c/a/b.json"),
        ("GET", SWIFT + "/my%20c/a/b.json"),
        ("HEAD", SWIFT + "/my%20c/a/b.json"),
        ("DELETE", SWIFT + "/my%20c/a/b.json"),
        ("DELETE", SWIFT + "/my%20c"),
    ]


def test_swift_plain_text_errors(client, mock_cloud):
    mock_cloud.mock.get(
        SWIFT + "/c/o",
        status_code=404,
        text="<html><h1>Not Found</h1><p>The resource could not be found.</p></html>",
    )
    mock_cloud.mock.delete(
        SWIFT + "/c",
        status_code=409,
        text="There was a conflict when trying to complete your request.",
    )
    with pytest.raises(exceptions.NotFound) as err:
        client.object_store.get_object("c", "o")
    assert "could not be found" in str(err.value)
    with pytest.raises(exceptions.Conflict):
        client.object_store.delete_container("c")


def test_locate_objects_of_this_account_only(client):
    store = client.object_store
    assert store.locate(SWIFT + "/c/o%20x/y?temp_url_sig=a") == ("c", "o x/y")
    assert store.locate("http://elsewhere.test" + SWIFT_PATH + "/c/o") is None
    assert store.locate(SWIFT + "/c") is None
    assert store.locate("http://cloud.test/swift/v1/AUTH_other/c/o") is None
    assert store.locate(None) is None


def test_changes_return_a_result_with_the_request_id(client, mock_cloud):
    m = mock_cloud.mock
    headers = {"X-Openstack-Request-Id": "tx-1"}
    m.put(SWIFT + "/c", status_code=201, text="<html>Created</html>", headers=headers)
    m.put(SWIFT + "/c/o", status_code=201, text="", headers=headers)
    m.delete(SWIFT + "/c/o", status_code=204, headers=headers)
    m.delete(SWIFT + "/c", status_code=204, headers=headers)
    m.post(SWIFT, status_code=204, headers=headers)
    for result in (
        client.object_store.put_container("c"),
        client.object_store.put_object("c", "o", b"x"),
        client.object_store.delete_object("c", "o"),
        client.object_store.delete_container("c"),
        client.object_store.set_temp_url_key(KEY),
    ):
        assert (result.request_ids, result.body) == (["tx-1"], {})
