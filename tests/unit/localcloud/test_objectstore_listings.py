"""The local Swift's container and account listings: ``prefix``,
``delimiter`` (``subdir`` entries), ``marker``, ``end_marker`` and
``limit`` in JSON and plain text, as Swift's container server pages them."""

import pytest
import requests

NAMES = ["a.txt", "photos/2024/x.jpg", "photos/2024/y.jpg", "photos/me.jpg", "videos/v.mp4", "z"]


@pytest.fixture(scope="module")
def box(env):
    demo = env.demo
    url = demo.swift + "/listing-box"
    requests.put(url, headers=demo.headers)
    for name in NAMES:
        requests.put(url + "/" + name, data=b"x", headers=demo.headers)
    return url


def _names(entries):
    return [e.get("name", e.get("subdir")) for e in entries]


@pytest.mark.parametrize(
    "query, expected",
    [
        ({}, NAMES),
        ({"delimiter": "/"}, ["a.txt", "photos/", "videos/", "z"]),
        ({"prefix": "photos/", "delimiter": "/"}, ["photos/2024/", "photos/me.jpg"]),
        ({"prefix": "photos/"}, NAMES[1:4]),
        ({"delimiter": "/", "limit": "2"}, ["a.txt", "photos/"]),
        ({"delimiter": "/", "marker": "photos/"}, ["videos/", "z"]),
        ({"marker": "photos/2024/y.jpg"}, NAMES[3:]),
        ({"end_marker": "photos/me.jpg"}, NAMES[:3]),
        ({"marker": "a.txt", "end_marker": "videos", "delimiter": "/"}, ["photos/"]),
        ({"limit": "0"}, []),
        ({"limit": "x"}, NAMES),  # not digits: ignored
        ({"prefix": "nothing"}, []),
    ],
)
def test_container_listing(env, box, query, expected):
    resp = requests.get(box, params={**query, "format": "json"}, headers=env.demo.headers)
    assert resp.status_code == 200
    entries = resp.json()
    assert _names(entries) == expected
    for entry in entries:
        if "subdir" in entry:
            assert set(entry) == {"subdir"}
        else:
            assert {"name", "hash", "bytes", "content_type", "last_modified"} <= set(entry)
    plain = requests.get(box, params=query, headers=env.demo.headers)
    if expected:
        assert (plain.status_code, plain.text) == (200, "".join(n + "\n" for n in expected))
    else:
        assert (plain.status_code, plain.text) == (204, "")


@pytest.mark.parametrize("limit", ["10001", "9" * 5000])
def test_a_limit_over_the_listing_limit_is_412(env, box, limit):
    resp = requests.get(box, params={"limit": limit}, headers=env.demo.headers)
    assert (resp.status_code, resp.text) == (412, "Maximum limit is 10000")
    resp = requests.get(box, params={"limit": "0002", "format": "json"}, headers=env.demo.headers)
    assert _names(resp.json()) == NAMES[:2]


def test_account_listing_rolls_up_containers_too(env):
    demo = env.alt
    for name in ("logs-2024", "logs-2025", "web"):
        requests.put(demo.swift + "/" + name, headers=demo.headers)
    resp = requests.get(
        demo.swift, params={"delimiter": "-", "format": "json"}, headers=demo.headers
    )
    names = _names(resp.json())
    assert "logs-" in names and "web" in names
    assert "logs-2024" not in names
    resp = requests.get(demo.swift, params={"prefix": "logs-"}, headers=demo.headers)
    assert resp.text == "logs-2024\nlogs-2025\n"
