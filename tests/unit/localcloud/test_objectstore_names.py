"""Object names in the local Swift as Swift keeps them: a trailing ``/``
is part of the name (``PUT …/c/dir/`` stores ``dir/``, the pseudo-directory
marker swiftclient and Horizon make), never dropped into ``dir``."""

import pytest
import requests


@pytest.fixture(scope="module")
def names(env):
    demo = env.demo
    assert requests.put(demo.swift + "/names", headers=demo.headers).status_code == 201
    return demo.swift + "/names"


def _listing(env, url, **params):
    resp = requests.get(url, params=dict(params, format="json"), headers=env.demo.headers)
    assert resp.status_code == 200, resp.text
    return [item.get("name", item.get("subdir")) for item in resp.json()]


def test_a_trailing_slash_is_part_of_the_name(env, names):
    headers = env.demo.headers
    put = requests.put(
        names + "/dir/",
        data=b"",
        headers={**headers, "Content-Type": "application/directory"},
    )
    assert put.status_code == 201, put.text
    assert _listing(env, names) == ["dir/"]
    got = requests.get(names + "/dir/", headers=headers)
    assert got.status_code == 200
    assert got.headers["Content-Type"] == "application/directory"
    assert got.content == b""
    # ``dir`` is another object, which does not exist
    assert requests.get(names + "/dir", headers=headers).status_code == 404
    assert requests.head(names + "/dir", headers=headers).status_code == 404


def test_slash_names_are_distinct_objects(env, names):
    headers = env.demo.headers
    for name, body in (("two", b"plain"), ("two/", b"slash"), ("two//", b"slashes")):
        resp = requests.put(names + "/" + name, data=body, headers=headers)
        assert resp.status_code == 201, resp.text
    for name, body in (("two", b"plain"), ("two/", b"slash"), ("two//", b"slashes")):
        assert requests.get(names + "/" + name, headers=headers).content == body
    listed = _listing(env, names, prefix="two")
    assert listed == ["two", "two/", "two//"]
    # the delimiter rolls the slash names up under the ``two/`` prefix
    assert _listing(env, names, prefix="two", delimiter="/") == ["two", "two/"]
    delete = requests.delete(names + "/two/", headers=headers)
    assert delete.status_code == 204
    assert _listing(env, names, prefix="two") == ["two", "two//"]
    assert requests.get(names + "/two", headers=headers).content == b"plain"


def test_copy_and_metadata_keep_the_slash(env, names):
    headers = env.demo.headers
    assert requests.put(names + "/src/", data=b"x", headers=headers).status_code == 201
    post = requests.post(names + "/src/", headers={**headers, "X-Object-Meta-Kind": "dir"})
    assert post.status_code == 202
    copy = requests.put(
        names + "/dst/",
        headers={**headers, "X-Copy-From": "/names/src/", "Content-Length": "0"},
    )
    assert copy.status_code == 201, copy.text
    assert copy.headers["X-Copied-From"] == "names/src/"
    got = requests.get(names + "/dst/", headers=headers)
    assert (got.content, got.headers["X-Object-Meta-Kind"]) == (b"x", "dir")
    assert requests.get(names + "/dst", headers=headers).status_code == 404


def test_a_container_path_with_a_slash_is_still_the_container(env, names):
    resp = requests.get(names + "/", params={"format": "json"}, headers=env.demo.headers)
    assert resp.status_code == 200
    assert isinstance(resp.json(), list)
