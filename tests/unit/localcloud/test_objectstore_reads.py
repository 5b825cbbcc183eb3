"""The local Swift's ``GET /info``, ``Range`` reads and conditional
requests (swob's answers: 206, 416, 304, 412), over real HTTP."""

import hashlib

import pytest
import requests

BODY = bytes(range(256)) * 300  # 76800 bytes: more than one file read
ETAG = hashlib.md5(BODY).hexdigest()


@pytest.fixture(scope="module")
def obj(env):
    demo = env.demo
    requests.put(demo.swift + "/reads", headers=demo.headers)
    url = demo.swift + "/reads/blob"
    assert requests.put(url, data=BODY, headers=demo.headers).status_code == 201
    return url


@pytest.mark.parametrize("path", ["/info", "/object-store/info"])
def test_info_needs_no_token_and_shows_the_local_limits(env, path):
    resp = requests.get(env.url + path)
    assert resp.status_code == 200
    assert resp.headers["Content-Type"].startswith("application/json")
    info = resp.json()
    swift = info["swift"]
    assert swift["max_file_size"] == env.cloud.config.max_object_size
    assert swift["max_meta_count"] == 90
    assert swift["max_meta_overall_size"] == 4096
    assert swift["max_object_name_length"] == 1024
    assert swift["container_listing_limit"] == 10000
    assert swift["valid_api_versions"] == ["v1"]
    assert swift["policies"] == [{"name": "Policy-0", "aliases": "Policy-0", "default": True}]
    assert "sha256" in info["tempurl"]["allowed_digests"]
    assert "account_quotas" in info
    assert requests.head(env.url + path).status_code == 200


@pytest.mark.parametrize(
    "header, status, part, content_range",
    [
        ("bytes=0-9", 206, BODY[:10], "bytes 0-9/76800"),
        ("bytes=70000-", 206, BODY[70000:], "bytes 70000-76799/76800"),
        ("bytes=-5", 206, BODY[-5:], "bytes 76795-76799/76800"),
        ("bytes=100-999999", 206, BODY[100:], "bytes 100-76799/76800"),
        ("bytes=-999999", 206, BODY, "bytes 0-76799/76800"),
        ("bytes=76800-", 416, None, "bytes */76800"),
        ("bytes=-0", 416, None, "bytes */76800"),
        ("bytes=5-3", 200, BODY, None),  # malformed: ignored
        ("items=0-3", 200, BODY, None),
    ],
)
def test_range(env, obj, header, status, part, content_range):
    resp = requests.get(obj, headers={**env.demo.headers, "Range": header})
    assert resp.status_code == status
    assert resp.headers.get("Content-Range") == content_range
    if part is not None:
        assert resp.content == part
        assert int(resp.headers["Content-Length"]) == len(part)
        assert resp.headers["Etag"] == ETAG
    else:
        assert "<h1>Requested Range Not Satisfiable</h1>" in resp.text


def test_a_range_of_an_empty_object(env):
    demo = env.demo
    requests.put(demo.swift + "/reads", headers=demo.headers)
    url = demo.swift + "/reads/empty"
    requests.put(url, data=b"", headers=demo.headers)
    assert requests.get(url, headers={**demo.headers, "Range": "bytes=0-"}).status_code == 416
    resp = requests.get(url, headers={**demo.headers, "Range": "bytes=-4"})
    assert (resp.status_code, resp.content) == (200, b"")


@pytest.mark.parametrize("method", ["GET", "HEAD"])
@pytest.mark.parametrize(
    "headers, status",
    [
        ({"If-None-Match": '"%s"' % ETAG}, 304),
        ({"If-None-Match": "other, %s" % ETAG}, 304),
        ({"If-None-Match": "*"}, 304),
        ({"If-None-Match": "other"}, 200),
        ({"If-Match": ETAG}, 200),
        ({"If-Match": "*"}, 200),
        ({"If-Match": "other"}, 412),
        ({"If-Modified-Since": "Thu, 01 Jan 2099 00:00:00 GMT"}, 304),
        ({"If-Modified-Since": "Thu, 01 Jan 1970 00:00:00 GMT"}, 200),
        ({"If-Unmodified-Since": "Thu, 01 Jan 1970 00:00:00 GMT"}, 412),
        ({"If-Modified-Since": "not a date"}, 200),
    ],
)
def test_conditional_get(env, obj, method, headers, status):
    resp = requests.request(method, obj, headers={**env.demo.headers, **headers})
    assert resp.status_code == status
    assert resp.headers["Etag"] == ETAG
    if status == 304:
        assert resp.content == b""
    elif status == 412:
        assert method == "HEAD" or "<h1>Precondition Failed</h1>" in resp.text
    elif method == "GET":
        assert resp.content == BODY


def test_if_match_star_on_a_missing_object_is_412(env, obj):
    url = obj + "-missing"
    resp = requests.get(url, headers={**env.demo.headers, "If-Match": "*"})
    assert resp.status_code == 412
    assert requests.get(url, headers=env.demo.headers).status_code == 404


def test_put_if_none_match(env, obj):
    demo = env.demo
    resp = requests.put(obj, data=b"new", headers={**demo.headers, "If-None-Match": "*"})
    assert resp.status_code == 412
    assert requests.get(obj, headers=demo.headers).content == BODY
    resp = requests.put(obj, data=b"new", headers={**demo.headers, "If-None-Match": ETAG})
    assert (resp.status_code, resp.text) == (400, "If-None-Match only supports *")
    fresh = obj + "-fresh"
    resp = requests.put(fresh, data=b"new", headers={**demo.headers, "If-None-Match": "*"})
    assert resp.status_code == 201


def test_upload_etag_mismatch_is_422_and_keeps_the_old_object(env, obj):
    demo = env.demo
    resp = requests.put(obj, data=b"other", headers={**demo.headers, "Etag": "0" * 32})
    assert resp.status_code == 422
    assert "<h1>Unprocessable Entity</h1>" in resp.text
    assert requests.get(obj, headers=demo.headers).content == BODY
    good = hashlib.md5(b"other").hexdigest()
    url = obj + "-checked"
    resp = requests.put(url, data=b"other", headers={**demo.headers, "Etag": '"%s"' % good})
    assert resp.status_code == 201


@pytest.mark.parametrize(
    "header", ["bytes=" + "9" * 5000 + "-", "bytes=²-3", "bytes=--0", "bytes=-"]
)
def test_an_unreadable_range_is_ignored(env, obj, header):
    resp = requests.get(obj, headers={**env.demo.headers, "Range": header})
    assert (resp.status_code, resp.content) == (200, BODY)
