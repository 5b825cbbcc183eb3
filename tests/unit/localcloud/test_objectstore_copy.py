"""The local Swift's server-side copy (swift/common/middleware/copy.py):
``COPY`` with ``Destination`` and ``PUT`` with ``X-Copy-From``, the
destination's metadata as the middleware sets it, and its refusals."""

import hashlib

import pytest
import requests

BODY = b"copy me " * 20000  # 160000 bytes: more than one file read


@pytest.fixture(scope="module")
def src(env):
    demo = env.demo
    for name in ("copy-src", "copy-dst"):
        requests.put(demo.swift + "/" + name, headers=demo.headers)
    url = demo.swift + "/copy-src/dir/orig"
    resp = requests.put(
        url,
        data=BODY,
        headers={
            **demo.headers,
            "Content-Type": "text/x-orig",
            "X-Object-Meta-Color": "blue",
            "X-Object-Meta-Size": "big",
        },
    )
    assert resp.status_code == 201
    return url


def _get(env, path):
    return requests.get(env.demo.swift + path, headers=env.demo.headers)


def test_put_with_x_copy_from_keeps_and_updates_the_metadata(env, src):
    resp = requests.put(
        env.demo.swift + "/copy-dst/a",
        headers={
            **env.demo.headers,
            "X-Copy-From": "/copy-src/dir/orig",
            "X-Object-Meta-Size": "small",
            "Content-Length": "0",
        },
    )
    assert resp.status_code == 201
    assert resp.headers["Etag"] == hashlib.md5(BODY).hexdigest()
    assert resp.headers["X-Copied-From"] == "copy-src/dir/orig"
    assert resp.headers["X-Copied-From-Account"] == "AUTH_" + env.demo.project
    assert resp.headers["X-Copied-From-Last-Modified"].endswith(" GMT")
    assert resp.headers["X-Object-Meta-Color"] == "blue"
    got = _get(env, "/copy-dst/a")
    assert got.content == BODY
    assert got.headers["Content-Type"] == "text/x-orig"
    assert (got.headers["X-Object-Meta-Color"], got.headers["X-Object-Meta-Size"]) == (
        "blue",
        "small",
    )
    # the copy is its own: replacing the source leaves it
    requests.put(src, data=b"changed", headers=env.demo.headers)
    assert _get(env, "/copy-dst/a").content == BODY
    requests.put(
        src,
        data=BODY,
        headers={
            **env.demo.headers,
            "Content-Type": "text/x-orig",
            "X-Object-Meta-Color": "blue",
            "X-Object-Meta-Size": "big",
        },
    )


def test_copy_with_destination_and_fresh_metadata(env, src):
    resp = requests.request(
        "COPY",
        src,
        headers={
            **env.demo.headers,
            "Destination": "copy-dst/b%20c",
            "X-Fresh-Metadata": "true",
            "X-Object-Meta-New": "1",
            "Content-Type": "text/x-copy",
        },
    )
    assert resp.status_code == 201
    got = _get(env, "/copy-dst/b c")
    assert got.content == BODY
    assert got.headers["Content-Type"] == "text/x-copy"
    assert got.headers["X-Object-Meta-New"] == "1"
    assert "X-Object-Meta-Color" not in got.headers


def test_copy_onto_itself_changes_only_the_metadata(env, src):
    resp = requests.request(
        "COPY",
        env.demo.swift + "/copy-dst/self",
        headers={**env.demo.headers, "Destination": "/copy-dst/self"},
    )
    assert resp.status_code == 404  # no such source
    requests.put(env.demo.swift + "/copy-dst/self", data=b"me", headers=env.demo.headers)
    resp = requests.request(
        "COPY",
        env.demo.swift + "/copy-dst/self",
        headers={**env.demo.headers, "Destination": "/copy-dst/self", "X-Object-Meta-K": "v"},
    )
    assert resp.status_code == 201
    got = _get(env, "/copy-dst/self")
    assert (got.content, got.headers["X-Object-Meta-K"]) == (b"me", "v")


@pytest.mark.parametrize(
    "method, path, headers, status, text",
    [
        ("COPY", "/copy-src/dir/orig", {}, 412, "Destination header required"),
        (
            "COPY",
            "/copy-src/dir/orig",
            {"Destination": "nocontainer"},
            412,
            "Destination header must be of the form <container name>/<object name>",
        ),
        (
            "PUT",
            "/copy-dst/x",
            {"X-Copy-From": "/only"},
            412,
            "X-Copy-From header must be of the form <container name>/<object name>",
        ),
        (
            "PUT",
            "/copy-dst/x",
            {"X-Copy-From": "/copy-src/dir/orig", "Content-Length": "3"},
            400,
            "Copy requests require a zero byte body",
        ),
        ("PUT", "/copy-dst/x", {"X-Copy-From": "/copy-src/missing"}, 404, None),
        ("PUT", "/no-such/x", {"X-Copy-From": "/copy-src/dir/orig"}, 404, None),
        (
            "COPY",
            "/copy-src/dir/orig",
            {"Destination": "copy-dst/x", "Destination-Account": "AUTH_other"},
            403,
            None,
        ),
    ],
)
def test_copy_refusals(env, src, method, path, headers, status, text):
    data = b"abc" if headers.get("Content-Length") == "3" else None
    resp = requests.request(
        method, env.demo.swift + path, data=data, headers={**env.demo.headers, **headers}
    )
    assert resp.status_code == status
    if text is not None:
        assert resp.text == text
    assert _get(env, "/copy-dst/x").status_code == 404


def test_copy_needs_the_accounts_write_rights(env, src):
    resp = requests.put(
        env.demo.swift + "/copy-dst/y",
        headers={**env.alt.headers, "X-Copy-From": "/copy-src/dir/orig"},
    )
    assert resp.status_code == 403
    assert _get(env, "/copy-dst/y").status_code == 404


def test_a_copy_counts_against_the_quota(env, src, monkeypatch):
    monkeypatch.setattr(env.cloud.config, "object_quota_count", 0)
    resp = requests.put(
        env.demo.swift + "/copy-dst/z",
        headers={**env.demo.headers, "X-Copy-From": "/copy-src/dir/orig"},
    )
    assert resp.status_code == 413
    assert resp.text == "Upload exceeds quota."
