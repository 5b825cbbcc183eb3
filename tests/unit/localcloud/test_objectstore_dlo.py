"""The local Swift's dynamic large objects (swift/common/middleware/dlo.py):
a manifest with ``X-Object-Manifest: <container>/<prefix>`` answers its
segments, listed under the prefix, one after the other; its etag, ranges,
``?multipart-manifest=get``, the header's refusal, and the segments'
container read with the caller's rights, over real HTTP."""

import hashlib
import urllib.parse

import pytest
import requests

from occli.localcloud.objectstore import dlo

SEG = 70000


def _container(env, name, **headers):
    url = env.demo.swift + "/" + name
    assert requests.put(url, headers={**env.demo.headers, **headers}).status_code in (201, 202)
    return url


def _dynamic(env, name, count=3, manifest_name="big"):
    """Container ``name`` with segments ``big/000000``… and the manifest
    ``big`` (an empty body) over them; the segments' bytes."""
    url = _container(env, name)
    parts = [bytes([97 + i]) * SEG for i in range(count)]
    for i, data in enumerate(parts):
        resp = requests.put(url + "/big/%06d" % i, data=data, headers=env.demo.headers)
        assert resp.status_code == 201
    resp = requests.put(
        url + "/" + manifest_name,
        data=b"",
        headers={**env.demo.headers, "X-Object-Manifest": "%s/big/" % name},
    )
    assert resp.status_code == 201
    return url, parts


def test_get_and_head_assemble_the_listing(env):
    url, parts = _dynamic(env, "dlo-basic")
    got = requests.get(url + "/big", headers=env.demo.headers)
    assert got.status_code == 200
    assert got.content == b"".join(parts)
    etag = hashlib.md5("".join(hashlib.md5(p).hexdigest() for p in parts).encode()).hexdigest()
    assert got.headers["Etag"] == '"%s"' % etag
    assert got.headers["X-Object-Manifest"] == "dlo-basic/big/"
    head = requests.head(url + "/big", headers=env.demo.headers)
    assert head.headers["Content-Length"] == str(3 * SEG)
    # a new segment under the prefix joins at once
    requests.put(url + "/big/000003", data=b"tail", headers=env.demo.headers)
    assert requests.get(url + "/big", headers=env.demo.headers).content.endswith(b"ctail")
    cond = requests.get(url + "/big", headers={**env.demo.headers, "If-Match": etag})
    assert cond.status_code == 412  # the etag changed with the listing


def test_a_single_range_is_served_several_are_not(env):
    url, parts = _dynamic(env, "dlo-range")
    whole = b"".join(parts)
    one = requests.get(url + "/big", headers={**env.demo.headers, "Range": "bytes=69998-70001"})
    assert one.status_code == 206
    assert one.content == whole[69998:70002]
    many = requests.get(url + "/big", headers={**env.demo.headers, "Range": "bytes=0-1,5-6"})
    assert many.status_code == 200  # dlo ignores a multi-range request
    assert many.content == whole
    bad = requests.get(url + "/big", headers={**env.demo.headers, "Range": "bytes=999999-"})
    assert bad.status_code == 416


def test_manifest_get_answers_the_manifest_itself(env):
    url, _ = _dynamic(env, "dlo-mget")
    got = requests.get(url + "/big?multipart-manifest=get", headers=env.demo.headers)
    assert got.status_code == 200
    assert got.content == b""
    assert got.headers["X-Object-Manifest"] == "dlo-mget/big/"


@pytest.mark.parametrize("value", ["nocontainer", "/prefix", "c/", "c//p", "c/p?x", "c/p&x"])
def test_a_malformed_manifest_header_is_400(env, value):
    url = _container(env, "dlo-bad")
    resp = requests.put(
        url + "/m", data=b"", headers={**env.demo.headers, "X-Object-Manifest": value}
    )
    assert (resp.status_code, resp.text) == (400, dlo.BAD_HEADER)


def test_quoted_header_and_another_container(env):
    url = _container(env, "dlo-seg ments")
    requests.put(url + "/p1", data=b"one", headers=env.demo.headers)
    requests.put(url + "/p2", data=b"two", headers=env.demo.headers)
    host = _container(env, "dlo-host")
    value = urllib.parse.quote("dlo-seg ments/p")
    resp = requests.put(
        host + "/m", data=b"", headers={**env.demo.headers, "X-Object-Manifest": value}
    )
    assert resp.status_code == 201
    assert requests.get(host + "/m", headers=env.demo.headers).content == b"onetwo"


def test_segments_container_is_read_with_the_callers_rights(env):
    alt = env.alt
    shared = alt.swift + "/dlo-shared"
    requests.put(shared, headers={**alt.headers, "X-Container-Read": "*:*"})
    private = alt.swift + "/dlo-private"
    requests.put(private, headers=alt.headers)
    requests.put(private + "/p1", data=b"secret", headers=alt.headers)
    resp = requests.put(
        shared + "/m", data=b"", headers={**alt.headers, "X-Object-Manifest": "dlo-private/p"}
    )
    assert resp.status_code == 201
    assert requests.get(shared + "/m", headers=alt.headers).content == b"secret"
    # demo may read the manifest's container, not the segments'
    assert requests.get(shared + "/m", headers=env.demo.headers).status_code == 403
    missing = requests.put(
        shared + "/n", data=b"", headers={**alt.headers, "X-Object-Manifest": "dlo-none/p"}
    )
    assert missing.status_code == 201
    assert requests.get(shared + "/n", headers=alt.headers).status_code == 404


def test_a_segment_changed_before_the_first_byte_is_409(env, monkeypatch):
    url, _ = _dynamic(env, "dlo-changed")
    real = dlo.segments

    def listed_then_replaced(db, account, container, prefix, limit):
        # as if the first segment was replaced between dlo's listing and
        # its GET: the listing's etag is not the object's any more
        found = real(db, account, container, prefix, limit)
        found[0]["hash"] = "0" * 32
        return found

    monkeypatch.setattr(dlo, "segments", listed_then_replaced)
    assert requests.get(url + "/big", headers=env.demo.headers).status_code == 409


def test_copy_makes_a_whole_object_or_with_manifest_get_a_manifest(env):
    url, parts = _dynamic(env, "dlo-copy", count=2)
    whole = requests.put(
        url + "/whole",
        headers={**env.demo.headers, "X-Copy-From": "dlo-copy/big", "Content-Length": "0"},
    )
    assert whole.status_code == 201
    got = requests.get(url + "/whole", headers=env.demo.headers)
    assert got.content == b"".join(parts)
    assert "X-Object-Manifest" not in got.headers
    manifest = requests.put(
        url + "/again?multipart-manifest=get",
        headers={**env.demo.headers, "X-Copy-From": "dlo-copy/big", "Content-Length": "0"},
    )
    assert manifest.status_code == 201
    copied = requests.get(url + "/again", headers=env.demo.headers)
    assert copied.headers["X-Object-Manifest"] == "dlo-copy/big/"
    assert copied.content == b"".join(parts)


def test_post_sets_or_drops_the_manifest_header(env):
    url, parts = _dynamic(env, "dlo-post", count=1)
    # a POST without it: the object server keeps no X-Object-Manifest
    assert requests.post(url + "/big", headers=env.demo.headers).status_code == 202
    plain = requests.get(url + "/big", headers=env.demo.headers)
    assert plain.content == b"" and "X-Object-Manifest" not in plain.headers
    again = {**env.demo.headers, "X-Object-Manifest": "dlo-post/big/"}
    assert requests.post(url + "/big", headers=again).status_code == 202
    assert requests.get(url + "/big", headers=env.demo.headers).content == parts[0]
    bad = requests.post(url + "/big", headers={**env.demo.headers, "X-Object-Manifest": "x"})
    assert (bad.status_code, bad.text) == (400, dlo.BAD_HEADER)
