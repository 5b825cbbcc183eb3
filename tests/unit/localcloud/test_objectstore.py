"""The local cloud's Swift v1 object store, over real HTTP (waitress)."""

import base64
import hashlib
import hmac
import io
import time

import pytest
import requests

from occli.localcloud.objectstore.api.service import ObjectStoreService
from occli.localcloud.objectstore.tempurl import temp_url_signature
from tests.unit.localcloud import wsgi_client
from tests.unit.localcloud.heat_swift_harness import make_temp_url


def test_account_metadata_and_temp_url_keys(env):
    demo = env.demo
    requests.post(demo.swift, headers={**demo.headers, "X-Remove-Account-Meta-Temp-URL-Key": "x"})
    resp = requests.head(demo.swift, headers=demo.headers)
    assert resp.status_code == 204
    assert int(resp.headers["X-Account-Container-Count"]) >= 0
    assert "X-Account-Meta-Temp-URL-Key" not in resp.headers

    resp = requests.post(
        demo.swift,
        headers={
            **demo.headers,
            "X-Account-Meta-Temp-URL-Key": "k1",
            "X-Account-Meta-Temp-URL-Key-2": "k2",
            "X-Account-Meta-Color": "red",
        },
    )
    assert resp.status_code == 204
    head = requests.head(demo.swift, headers=demo.headers).headers
    assert head["X-Account-Meta-Temp-URL-Key"] == "k1"
    assert head["X-Account-Meta-Temp-URL-Key-2"] == "k2"
    assert head["X-Account-Meta-Color"] == "red"

    requests.post(
        demo.swift,
        headers={
            **demo.headers,
            "X-Remove-Account-Meta-Temp-URL-Key-2": "x",
            "X-Account-Meta-Color": "",
        },
    )
    head = requests.head(demo.swift, headers=demo.headers).headers
    assert "X-Account-Meta-Temp-URL-Key-2" not in head
    assert "X-Account-Meta-Color" not in head
    assert head["X-Account-Meta-Temp-URL-Key"] == "k1"


def test_account_auth(env):
    demo = env.demo
    resp = requests.get(demo.swift)
    assert resp.status_code == 401
    assert resp.headers["Content-Type"].startswith("text/html")
    assert "<h1>Unauthorized</h1>" in resp.text
    assert requests.get(demo.swift, headers={"X-Auth-Token": "bogus"}).status_code == 401
    resp = requests.get(demo.swift, headers=env.alt.headers)
    assert resp.status_code == 403
    assert "<h1>Forbidden</h1>" in resp.text
    assert requests.get(demo.swift, headers=env.admin.headers).status_code == 403


def test_containers_and_listings(env):
    demo = env.alt
    assert requests.put(demo.swift + "/c1", headers=demo.headers).status_code == 201
    assert requests.put(demo.swift + "/c1", headers=demo.headers).status_code == 202
    requests.put(demo.swift + "/c0", headers=demo.headers)

    resp = requests.get(demo.swift, headers=demo.headers)
    assert resp.status_code == 200
    assert resp.text == "c0\nc1\n"
    listing = requests.get(demo.swift + "?format=json", headers=demo.headers)
    assert [c["name"] for c in listing.json()] == ["c0", "c1"]
    assert set(listing.json()[0]) == {"name", "count", "bytes", "last_modified"}

    assert requests.get(demo.swift + "/c1", headers=demo.headers).status_code == 204
    requests.put(demo.swift + "/c1/b.txt", data=b"bb", headers=demo.headers)
    requests.put(demo.swift + "/c1/a/x.json", data=b"{}", headers=demo.headers)
    resp = requests.get(demo.swift + "/c1", headers=demo.headers)
    assert resp.text == "a/x.json\nb.txt\n"
    assert resp.headers["X-Container-Object-Count"] == "2"
    rows = requests.get(demo.swift + "/c1?format=json&prefix=a/", headers=demo.headers).json()
    assert [(r["name"], r["bytes"], r["content_type"]) for r in rows] == [
        ("a/x.json", 2, "application/json")
    ]
    assert rows[0]["hash"] == hashlib.md5(b"{}").hexdigest()
    head = requests.head(demo.swift + "/c1", headers=demo.headers)
    assert head.status_code == 204
    assert head.headers["X-Container-Bytes-Used"] == "4"

    assert requests.delete(demo.swift + "/c1", headers=demo.headers).status_code == 409
    assert requests.delete(demo.swift + "/nope", headers=demo.headers).status_code == 404
    assert requests.get(demo.swift + "/nope", headers=demo.headers).status_code == 404
    assert requests.delete(demo.swift + "/c0", headers=demo.headers).status_code == 204


def test_object_crud(env):
    demo = env.demo
    requests.put(demo.swift + "/c", headers=demo.headers)
    resp = requests.put(
        demo.swift + "/c/o",
        data=b"hello",
        headers={**demo.headers, "Content-Type": "text/x-greeting", "X-Object-Meta-Kind": "demo"},
    )
    assert resp.status_code == 201
    assert resp.headers["Etag"] == hashlib.md5(b"hello").hexdigest()

    resp = requests.get(demo.swift + "/c/o", headers=demo.headers)
    assert resp.status_code == 200
    assert resp.content == b"hello"
    assert resp.headers["Content-Type"] == "text/x-greeting"
    assert resp.headers["Etag"] == hashlib.md5(b"hello").hexdigest()
    assert resp.headers["X-Object-Meta-Kind"] == "demo"
    assert resp.headers["Last-Modified"].endswith(" GMT")
    ts = float(resp.headers["X-Timestamp"])
    assert abs(ts - time.time()) < 60

    head = requests.head(demo.swift + "/c/o", headers=demo.headers)
    assert head.status_code == 200 and head.content == b""
    assert head.headers["Etag"] == resp.headers["Etag"]

    assert (
        requests.put(
            demo.swift + "/c/o", data=b"x", headers={**demo.headers, "Etag": "0" * 32}
        ).status_code
        == 422
    )
    assert (
        requests.put(demo.swift + "/missing/o", data=b"x", headers=demo.headers).status_code == 404
    )
    assert requests.delete(demo.swift + "/c/o", headers=demo.headers).status_code == 204
    resp = requests.get(demo.swift + "/c/o", headers=demo.headers)
    assert resp.status_code == 404
    assert resp.text == ("<html><h1>Not Found</h1><p>The resource could not be found.</p></html>")
    assert requests.delete(demo.swift + "/c/o", headers=demo.headers).status_code == 404


def test_object_size_limit(env, monkeypatch):
    demo = env.demo
    monkeypatch.setattr(ObjectStoreService, "max_object_size", 10)
    requests.put(demo.swift + "/c", headers=demo.headers)
    resp = requests.put(demo.swift + "/c/big", data=b"x" * 11, headers=demo.headers)
    assert resp.status_code == 413
    assert resp.text == "Your request is too large."
    assert (
        requests.put(demo.swift + "/c/ok", data=b"x" * 10, headers=demo.headers).status_code == 201
    )


def test_default_object_size_limit_is_swifts_max_file_size(env):
    """Swift's max_file_size (5 GiB + 2): a larger declared length is a 413
    before any byte is read; waitress's own cap follows it."""
    demo = env.demo
    assert env.cloud.objectstore.max_object_size == 5 * 1024**3 + 2
    requests.put(demo.swift + "/c", headers=demo.headers)
    body = b"x" * (6 * 1024 * 1024)  # over the old 5 MiB cap
    assert requests.put(demo.swift + "/c/o", data=body, headers=demo.headers).status_code == 201
    assert requests.get(demo.swift + "/c/o", headers=demo.headers).content == body
    path = "/object-store/v1/AUTH_%s/c/huge" % demo.project
    answer = wsgi_client.call(
        env.cloud,
        "PUT",
        path,
        token=demo.token,
        wsgi_input=io.BytesIO(b""),
        length=5 * 1024**3 + 3,
    )
    assert answer.status == 413
    assert answer.body == b"Your request is too large."


@pytest.mark.parametrize("digest", ["sha1", "sha256", "sha512"])
@pytest.mark.parametrize("path_form", ["short", "full"])
def test_temp_url_put_then_get(env, digest, path_form):
    put_url = make_temp_url(env, env.demo, "sig", "obj", digest=digest, path_form=path_form)
    resp = requests.put(put_url, data=b'{"a": 1}')
    assert resp.status_code == 201, resp.text
    # a PUT URL does not allow GET, but HEAD is allowed with a PUT signature
    assert requests.get(put_url).status_code == 401
    assert requests.head(put_url).status_code == 200
    get_url = make_temp_url(
        env, env.demo, "sig", "obj", method="GET", digest=digest, path_form=path_form
    )
    resp = requests.get(get_url)
    assert resp.status_code == 200
    assert resp.json() == {"a": 1}
    assert resp.headers["Content-Disposition"].startswith('attachment; filename="obj"')


def test_temp_url_base64_signature_and_second_key(env):
    demo = env.demo
    requests.post(
        demo.swift,
        headers={
            **demo.headers,
            "X-Account-Meta-Temp-URL-Key": "one",
            "X-Account-Meta-Temp-URL-Key-2": "two",
        },
    )
    requests.put(demo.swift + "/c", headers=demo.headers)
    expires = int(time.time()) + 60
    path = "/v1/AUTH_%s/c/o" % demo.project
    raw = hmac.new(b"two", ("PUT\n%d\n%s" % (expires, path)).encode(), hashlib.sha512).digest()
    sig = "sha512:" + base64.urlsafe_b64encode(raw).decode().rstrip("=")
    resp = requests.put(
        env.url + "/object-store" + path,
        data=b"x",
        params={"temp_url_sig": sig, "temp_url_expires": str(expires)},
    )
    assert resp.status_code == 201


@pytest.mark.parametrize(
    "case",
    [
        "bad_sig",
        "expired",
        "wrong_method",
        "wrong_key",
        "other_object",
        "missing_expires",
        "container_path",
    ],
)
def test_temp_url_rejections(env, case):
    demo = env.demo
    kwargs = {}
    if case == "expired":
        kwargs["expires"] = int(time.time()) - 1
    if case == "wrong_key":
        kwargs["key"] = "other"
    url = make_temp_url(env, demo, "c", "o", **kwargs)
    if case == "wrong_key":
        requests.post(
            demo.swift, headers={**demo.headers, "X-Account-Meta-Temp-URL-Key": "secret-key"}
        )
    method = "PUT"
    if case == "bad_sig":
        sig_start = url.index("temp_url_sig=") + len("temp_url_sig=")
        url = url[:sig_start] + ("0" * 64) + url[sig_start + 64 :]
    elif case == "wrong_method":
        method = "DELETE"
    elif case == "other_object":
        url = url.replace("/c/o?", "/c/p?")
    elif case == "missing_expires":
        url = url.split("&temp_url_expires")[0]
    elif case == "container_path":
        url = url.replace("/c/o?", "/c?")
    resp = requests.request(method, url, data=b"x")
    assert resp.status_code == 401
    assert resp.text == "401 Unauthorized: Temp URL invalid\n"
    assert resp.headers["Content-Type"].startswith("text/plain")


def test_temp_url_needs_no_token_but_token_needs_project(env):
    url = make_temp_url(env, env.demo, "c", "o")
    resp = requests.put(url, data=b"x", headers=env.alt.headers)
    assert resp.status_code == 201
    assert requests.put(url.split("?")[0], data=b"x", headers=env.alt.headers).status_code == 403


def test_read_object_helper(env):
    demo = env.demo
    requests.put(demo.swift + "/c", headers=demo.headers)
    requests.put(demo.swift + "/c/o", data=b"abc", headers=demo.headers)
    with env.cloud.store.transaction() as db:
        obj = env.cloud.objectstore.read_object(db, "AUTH_" + demo.project, "c", "o")
        assert bytes(obj["body"]) == b"abc"
        assert obj["timestamp"] > 0
        assert env.cloud.objectstore.read_object(db, "AUTH_" + demo.project, "c", "zz") is None


def test_non_ascii_and_space_names_and_their_temp_urls(env):
    """Names are UTF-8 text (not WSGI's latin-1), and a temp URL is signed
    over the decoded path, as Swift verifies it."""
    from urllib.parse import quote

    demo = env.demo
    container, obj = "bôx é", "sig näl/1"
    requests.post(demo.swift, headers={**demo.headers, "X-Account-Meta-Temp-URL-Key": "utf-key"})
    assert (
        requests.put(
            demo.swift + "/" + quote(container, safe=""), headers=demo.headers
        ).status_code
        == 201
    )
    expires = int(time.time()) + 600
    path = "/v1/AUTH_%s/%s/%s" % (demo.project, container, obj)
    url = "%s/object-store%s?temp_url_sig=%s&temp_url_expires=%d" % (
        env.url,
        quote(path),
        temp_url_signature("utf-key", "PUT", expires, path),
        expires,
    )
    assert requests.put(url, data=b"{}").status_code == 201
    # the escaped path is not what Swift signs
    bad = url.replace(
        temp_url_signature("utf-key", "PUT", expires, path),
        temp_url_signature("utf-key", "PUT", expires, quote(path)),
    )
    assert requests.put(bad, data=b"{}").status_code == 401
    listing = requests.get(demo.swift, params={"format": "json"}, headers=demo.headers).json()
    assert container in [c["name"] for c in listing]
    with env.cloud.store.transaction() as db:
        found = env.cloud.objectstore.read_object(db, "AUTH_" + demo.project, container, obj)
        assert found is not None and bytes(found["body"]) == b"{}"


def test_head_of_an_object_reports_its_length_without_a_body(env):
    demo = env.demo
    requests.put(demo.swift + "/head-box", headers=demo.headers)
    requests.put(demo.swift + "/head-box/blob", data=b"x" * 1234, headers=demo.headers)
    resp = requests.head(demo.swift + "/head-box/blob", headers=demo.headers)
    assert resp.status_code == 200
    assert resp.headers["Content-Length"] == "1234"
    assert resp.content == b""


def test_swift_api_also_answers_at_the_root_like_heats_temp_urls(env):
    """heat and heatclient (TEMP_URL_SIGNAL) build a temp URL from the
    object-store endpoint's scheme and host only: ``<host>/v1/AUTH_p/c/o``.
    A Swift on its own port serves that; so must this one-port cloud."""
    demo = env.demo
    full = make_temp_url(env, demo, "root", "signal")
    at_root = full.replace("/object-store/v1/", "/v1/", 1)
    assert requests.put(at_root, data=b'{"deploy_status_code": 0}').status_code == 201
    assert requests.get(demo.swift + "/root/signal", headers=demo.headers).json() == {
        "deploy_status_code": 0
    }
    root_account = env.url + "/v1/AUTH_" + demo.project
    assert requests.head(root_account, headers=demo.headers).status_code == 204
    assert requests.get(root_account + "/root/signal").status_code == 401
    # other root paths still belong to the identity service
    assert requests.get(env.url + "/v3").status_code == 200
