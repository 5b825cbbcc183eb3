"""The local Swift's metadata: account, container and object POST, a
container PUT with metadata and ACLs, and Swift's metadata limits
(swift/common/constraints.py, swift/common/db.py), over real HTTP."""

import pytest
import requests


def test_container_put_and_post_keep_metadata_and_acls(env):
    demo = env.demo
    url = demo.swift + "/meta-box"
    resp = requests.put(
        url,
        headers={
            **demo.headers,
            "X-Container-Meta-Color": "blue",
            "X-Container-Meta-Size": "big",
            "X-Container-Read": ".r:*",
        },
    )
    assert resp.status_code == 201
    head = requests.head(url, headers=demo.headers).headers
    assert head["X-Container-Meta-Color"] == "blue"
    assert head["X-Container-Read"] == ".r:*"
    assert "X-Container-Write" not in head

    resp = requests.post(
        url,
        headers={
            **demo.headers,
            "X-Remove-Container-Meta-Color": "x",
            "X-Container-Meta-Size": "",
            "X-Container-Meta-Shape": "round",
            "X-Container-Write": "%s:*" % demo.project,
            "X-Remove-Container-Read": "x",
        },
    )
    assert resp.status_code == 204
    head = requests.get(url, headers=demo.headers).headers
    assert head["X-Container-Meta-Shape"] == "round"
    assert "X-Container-Meta-Color" not in head and "X-Container-Meta-Size" not in head
    assert head["X-Container-Write"] == "%s:*" % demo.project
    assert "X-Container-Read" not in head

    # a PUT on the existing container (202) updates it too
    resp = requests.put(url, headers={**demo.headers, "X-Container-Meta-Color": "red"})
    assert resp.status_code == 202
    head = requests.head(url, headers=demo.headers).headers
    assert (head["X-Container-Meta-Color"], head["X-Container-Meta-Shape"]) == ("red", "round")


def test_post_to_a_missing_container_or_object_is_404(env):
    demo = env.demo
    assert requests.post(demo.swift + "/no-such", headers=demo.headers).status_code == 404
    requests.put(demo.swift + "/meta-empty", headers=demo.headers)
    resp = requests.post(demo.swift + "/meta-empty/none", headers=demo.headers)
    assert resp.status_code == 404


def test_object_post_replaces_its_metadata_and_content_type(env):
    demo = env.demo
    requests.put(demo.swift + "/meta-objs", headers=demo.headers)
    url = demo.swift + "/meta-objs/o"
    requests.put(
        url,
        data=b"body",
        headers={**demo.headers, "X-Object-Meta-Old": "1", "X-Object-Meta-Keep": "2"},
    )
    resp = requests.post(
        url,
        headers={**demo.headers, "X-Object-Meta-Keep": "3", "Content-Type": "text/x-new"},
    )
    assert resp.status_code == 202
    assert "<h1>Accepted</h1>" in resp.text
    got = requests.get(url, headers=demo.headers)
    assert got.content == b"body"
    assert got.headers["X-Object-Meta-Keep"] == "3"
    assert "X-Object-Meta-Old" not in got.headers
    assert got.headers["Content-Type"] == "text/x-new"
    requests.post(url, headers=demo.headers)
    got = requests.head(url, headers=demo.headers)
    assert "X-Object-Meta-Keep" not in got.headers
    assert got.headers["Content-Type"] == "text/x-new"


def test_a_reader_cannot_post_metadata(env):
    # the alt project's token on demo's account: refused like any foreign token
    demo = env.demo
    requests.put(demo.swift + "/meta-foreign", headers=demo.headers)
    resp = requests.post(
        demo.swift + "/meta-foreign", headers={**env.alt.headers, "X-Container-Meta-A": "b"}
    )
    assert resp.status_code == 403
    assert (
        "X-Container-Meta-A"
        not in requests.head(demo.swift + "/meta-foreign", headers=demo.headers).headers
    )


@pytest.mark.parametrize("where", ["account", "container", "object"])
@pytest.mark.parametrize(
    "headers, text",
    [
        ({"X-{K}-Meta-" + "n" * 129: "v"}, "Metadata name too long: x-{k}-meta-N" + "n" * 128),
        (
            {"X-{K}-Meta-Big": "v" * 257},
            "Metadata value longer than 256: x-{k}-meta-Big",
        ),
        ({"X-{K}-Meta-%d" % i: "v" for i in range(91)}, "Too many metadata items; max 90"),
        (
            {"X-{K}-Meta-%d" % i: "v" * 250 for i in range(17)},
            "Total metadata too large; max 4096",
        ),
    ],
    ids=["name", "value", "count", "total"],
)
def test_swifts_metadata_limits(env, where, headers, text):
    demo = env.demo
    requests.put(demo.swift + "/meta-limits", headers=demo.headers)
    requests.put(demo.swift + "/meta-limits/o", data=b"x", headers=demo.headers)
    url = {
        "account": demo.swift,
        "container": demo.swift + "/meta-limits",
        "object": demo.swift + "/meta-limits/o",
    }[where]
    kind = where.title()
    sent = {k.replace("{K}", kind): v for k, v in headers.items()}
    resp = requests.post(url, headers={**demo.headers, **sent})
    assert resp.status_code == 400
    assert resp.text == text.replace("{k}", where)
    assert resp.headers["Content-Type"].startswith("text/plain")
    # an object PUT is refused before its body is stored
    if where == "object":
        resp = requests.put(url, data=b"new", headers={**demo.headers, **sent})
        assert resp.status_code == 400
        assert requests.get(url, headers=demo.headers).content == b"x"


def test_stored_container_metadata_is_limited_as_a_whole(env):
    demo = env.demo
    url = demo.swift + "/meta-whole"
    requests.put(url, headers=demo.headers)
    for start in (0, 45):
        sent = {"X-Container-Meta-K%d" % i: "v" for i in range(start, start + 45)}
        resp = requests.post(url, headers={**demo.headers, **sent})
        assert resp.status_code == 204
    resp = requests.post(url, headers={**demo.headers, "X-Container-Meta-One-More": "v"})
    assert resp.status_code == 400
    assert resp.text == "Too many metadata items; max 90"
    # replacing a value keeps the count
    resp = requests.post(url, headers={**demo.headers, "X-Container-Meta-K0": "w"})
    assert resp.status_code == 204
