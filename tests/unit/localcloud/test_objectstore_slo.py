"""The local Swift's static large objects (swift/common/middleware/slo.py):
the manifest PUT and its refusals (slo's texts), the assembled GET/HEAD
with ranges, ``?multipart-manifest=get`` and ``=delete``, the listing's
sizes and etags, ``/info``'s ``slo`` section, and the segments read with
the caller's rights, over real HTTP."""

import base64
import hashlib
import http.client
import json
import urllib.parse

import pytest
import requests

from occli.localcloud.objectstore import slo

SEG = 70000  # more than one file read (64 KiB)


def _md5(data):
    return hashlib.md5(data).hexdigest()


def _bytes(index, size=SEG):
    return bytes([65 + index]) * size


def _container(env, name, **headers):
    url = env.demo.swift + "/" + name
    assert requests.put(url, headers={**env.demo.headers, **headers}).status_code in (201, 202)
    return url


def _segments(env, name, count=3):
    """Container ``name`` with ``count`` segments ``s/000000``…; their
    manifest entries (path, etag, size_bytes)."""
    url = _container(env, name)
    entries = []
    for i in range(count):
        data = _bytes(i)
        resp = requests.put(url + "/s/%06d" % i, data=data, headers=env.demo.headers)
        assert resp.status_code == 201
        entries.append({"path": "/%s/s/%06d" % (name, i), "etag": _md5(data), "size_bytes": SEG})
    return url, entries


def _put_manifest(env, url, manifest, headers=None, raw=None):
    return requests.put(
        url + "?multipart-manifest=put",
        data=raw if raw is not None else json.dumps(manifest),
        headers={**env.demo.headers, **(headers or {})},
    )


def _read_short(url, headers):
    """``(status, body)`` of a GET whose body ends before its
    Content-Length (the test fails if it is complete)."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.request("GET", parts.path, headers=headers)
        resp = conn.getresponse()
        with pytest.raises(http.client.IncompleteRead) as short:
            resp.read()
        return resp.status, short.value.partial
    finally:
        conn.close()


def _whole(count=3):
    return b"".join(_bytes(i) for i in range(count))


def test_info_has_slos_section(env):
    info = requests.get(env.url + "/info").json()
    assert info["slo"] == {
        "max_manifest_segments": 1000,
        "max_manifest_size": 8 * 1024 * 1024,
        "yield_frequency": 10,
        "min_segment_size": 1,
        "allow_async_delete": False,
    }
    assert "dlo" not in info  # dlo registers no section


def test_put_and_get_a_static_large_object(env):
    url, entries = _segments(env, "slo-basic")
    resp = _put_manifest(env, url + "/big.bin", entries, {"X-Object-Meta-Kind": "big"})
    assert resp.status_code == 201, resp.text
    slo_etag = _md5("".join(e["etag"] for e in entries).encode())
    assert resp.headers["Etag"] == '"%s"' % slo_etag
    got = requests.get(url + "/big.bin", headers=env.demo.headers, stream=True)
    assert got.status_code == 200
    assert got.headers["X-Static-Large-Object"] == "True"
    assert got.headers["Etag"] == '"%s"' % slo_etag
    assert got.headers["Content-Length"] == str(3 * SEG)
    assert got.headers["X-Object-Meta-Kind"] == "big"
    # streamed in bounded chunks
    chunks = list(got.raw.stream(1 << 20, decode_content=False))
    assert b"".join(chunks) == _whole()
    head = requests.head(url + "/big.bin", headers=env.demo.headers)
    assert head.headers["Content-Length"] == str(3 * SEG)
    assert head.headers["X-Manifest-Etag"] != slo_etag
    # conditions see the large object's etag
    cond = requests.get(url + "/big.bin", headers={**env.demo.headers, "If-None-Match": slo_etag})
    assert cond.status_code == 304


def test_ranges_over_the_assembled_object(env):
    url, entries = _segments(env, "slo-ranges")
    assert _put_manifest(env, url + "/m", entries).status_code == 201
    whole = _whole()
    one = requests.get(url + "/m", headers={**env.demo.headers, "Range": "bytes=69990-70010"})
    assert one.status_code == 206
    assert one.content == whole[69990:70011]
    assert one.headers["Content-Range"] == "bytes 69990-70010/%d" % len(whole)
    tail = requests.get(url + "/m", headers={**env.demo.headers, "Range": "bytes=-5"})
    assert tail.content == whole[-5:]
    multi = requests.get(
        url + "/m", headers={**env.demo.headers, "Range": "bytes=0-1,139999-140001"}
    )
    assert multi.status_code == 206
    assert multi.headers["Content-Type"].startswith("multipart/byteranges;boundary=")
    assert b"Content-Range: bytes 0-1/210000\r\n\r\nAA\r\n" in multi.content
    assert b"Content-Range: bytes 139999-140001/210000\r\n\r\nBCC\r\n" in multi.content
    bad = requests.get(url + "/m", headers={**env.demo.headers, "Range": "bytes=999999-"})
    assert bad.status_code == 416
    assert bad.headers["Content-Range"] == "bytes */210000"


def test_segment_ranges_data_segments_and_the_etag(env):
    url, entries = _segments(env, "slo-parts", count=2)
    manifest = [
        {"path": entries[0]["path"], "range": "10-19"},
        {"data": base64.b64encode(b"inline!").decode()},
        {"path": entries[1]["path"], "range": "-3"},
    ]
    resp = _put_manifest(env, url + "/m", manifest)
    assert resp.status_code == 201, resp.text
    expected = _bytes(0)[10:20] + b"inline!" + _bytes(1)[-3:]
    got = requests.get(url + "/m", headers=env.demo.headers)
    assert got.content == expected
    etag = _md5(
        (
            "%s:10-19;" % entries[0]["etag"]
            + _md5(b"inline!")
            + "%s:%d-%d;" % (entries[1]["etag"], SEG - 3, SEG - 1)
        ).encode()
    )
    assert got.headers["Etag"] == '"%s"' % etag
    raw = requests.get(url + "/m?multipart-manifest=get&format=raw", headers=env.demo.headers)
    assert raw.json() == [
        {
            "etag": entries[0]["etag"],
            "path": entries[0]["path"],
            "range": "10-19",
            "size_bytes": SEG,
        },
        {"data": base64.b64encode(b"inline!").decode()},
        {
            "etag": entries[1]["etag"],
            "path": entries[1]["path"],
            "range": "%d-%d" % (SEG - 3, SEG - 1),
            "size_bytes": SEG,
        },
    ]


def test_manifest_get_answers_the_stored_manifest(env):
    url, entries = _segments(env, "slo-mget", count=2)
    assert _put_manifest(env, url + "/m", entries).status_code == 201
    got = requests.get(url + "/m?multipart-manifest=get", headers=env.demo.headers)
    assert got.status_code == 200
    assert got.headers["Content-Type"] == "application/json; charset=utf-8"
    assert got.headers["X-Static-Large-Object"] == "True"
    assert got.headers["Etag"] == _md5(got.content)
    stored = got.json()
    assert [s["name"] for s in stored] == [e["path"] for e in entries]
    assert [(s["bytes"], s["hash"]) for s in stored] == [(SEG, e["etag"]) for e in entries]
    assert all(s["content_type"] and s["last_modified"] for s in stored)
    # the raw form PUTs again as the same large object
    raw = requests.get(url + "/m?multipart-manifest=get&format=raw", headers=env.demo.headers)
    again = _put_manifest(env, url + "/m2", None, raw=raw.content)
    assert again.status_code == 201
    assert requests.get(url + "/m2", headers=env.demo.headers).content == _whole(2)


def test_listing_shows_the_large_objects_size_and_etag(env):
    url, entries = _segments(env, "slo-list", count=2)
    resp = _put_manifest(env, url + "/m", entries)
    listing = requests.get(url + "?format=json&prefix=m", headers=env.demo.headers).json()
    (item,) = listing
    assert item["bytes"] == 2 * SEG
    assert item["slo_etag"] == resp.headers["Etag"]
    manifest = requests.get(url + "/m?multipart-manifest=get", headers=env.demo.headers)
    assert item["hash"] == _md5(manifest.content)


def test_nested_manifests(env):
    url, entries = _segments(env, "slo-nested", count=3)
    assert _put_manifest(env, url + "/inner", entries[:2]).status_code == 201
    inner = requests.head(url + "/inner", headers=env.demo.headers)
    outer = [
        {"path": "/slo-nested/inner", "etag": inner.headers["Etag"].strip('"')},
        entries[2],
    ]
    assert _put_manifest(env, url + "/outer", outer).status_code == 201
    got = requests.get(url + "/outer", headers=env.demo.headers)
    assert got.content == _whole()
    part = requests.get(
        url + "/outer", headers={**env.demo.headers, "Range": "bytes=139998-140001"}
    )
    assert part.content == _whole()[139998:140002]
    stored = requests.get(url + "/outer?multipart-manifest=get", headers=env.demo.headers).json()
    assert stored[0]["sub_slo"] is True and stored[0]["bytes"] == 2 * SEG


@pytest.mark.parametrize(
    ("body", "text"),
    [
        ("{", "Manifest must be valid JSON.\n"),
        ('{"path": "/c/o"}', "Manifest must be a list.\n"),
        ("[1]", "Index 0: not a JSON object\n"),
        ('[{"nope": 1}]', "Index 0: expected keys to include one of 'data' or 'path'\n"),
        ('[{"path": "/c/o", "x": 1, "a": 2}]', 'Index 0: extraneous keys "a", "x"\n'),
        ('[{"path": 5}]', 'Index 0: "path" must be a string\n'),
        (
            '[{"path": "/c/o", "etag": 5}]',
            'Index 0: "etag" must be a string or null (if provided)\n',
        ),
        (
            '[{"path": "/c"}]',
            "Index 0: path does not refer to an object. Path must be of the form "
            "/container/object.\n",
        ),
        ('[{"path": "/c/o", "size_bytes": "x"}]', "Index 0: invalid size_bytes\n"),
        (
            '[{"path": "/c/o", "size_bytes": 0}, {"path": "/c/p"}]',
            "Index 0: too small; each segment must be at least 1 byte.\n",
        ),
        (
            '[{"path": "/slo-bad/m"}]',
            "Index 0: manifest must not include itself as a segment\n",
        ),
        ('[{"path": "/c/o", "range": "x"}]', "Index 0: invalid range\n"),
        (
            '[{"path": "/c/o", "range": "1-2,4-5"}]',
            "Index 0: multiple ranges (only one allowed)\n",
        ),
        ('[{"path": "/c/o", "range": "9-", "size_bytes": 5}]', "Index 0: unsatisfiable range\n"),
        ('[{"data": "!!"}, {"path": "/c/o"}]', "Index 0: data must be valid base64\n"),
        (
            '[{"data": "aGk="}]',
            "Inline data segments require at least one object-backed segment.\n",
        ),
    ],
)
def test_malformed_manifests_are_400_with_slos_texts(env, body, text):
    url = _container(env, "slo-bad")
    resp = _put_manifest(env, url + "/m", None, raw=body)
    assert resp.status_code == 400
    assert resp.text == text


def test_segment_problems_are_listed(env):
    url, entries = _segments(env, "slo-problems", count=2)
    manifest = [
        {"path": "/slo-problems/missing"},
        {"path": entries[0]["path"], "size_bytes": SEG + 1},
        {"path": entries[1]["path"], "etag": "0" * 32},
    ]
    resp = _put_manifest(env, url + "/m", manifest)
    assert resp.status_code == 400
    assert resp.headers["Content-Type"].startswith("text/plain")
    assert resp.text == (
        "Errors:\n"
        "/slo-problems/missing, 404 Not Found\n"
        "/slo-problems/s/000000, Size Mismatch\n"
        "/slo-problems/s/000001, Etag Mismatch\n"
    )
    as_json = _put_manifest(env, url + "/m", manifest, {"Accept": "application/json"})
    assert as_json.json() == {
        "Errors": [
            ["/slo-problems/missing", "404 Not Found"],
            ["/slo-problems/s/000000", "Size Mismatch"],
            ["/slo-problems/s/000001", "Etag Mismatch"],
        ]
    }
    assert requests.head(url + "/m", headers=env.demo.headers).status_code == 404


def test_empty_segment_refused_unless_last(env):
    url = _container(env, "slo-empty")
    requests.put(url + "/zero", data=b"", headers=env.demo.headers)
    requests.put(url + "/one", data=b"1", headers=env.demo.headers)
    resp = _put_manifest(
        env, url + "/m", [{"path": "/slo-empty/zero"}, {"path": "/slo-empty/one"}]
    )
    assert resp.status_code == 400
    assert (
        resp.text == "Errors:\n/slo-empty/zero, Too small; each segment must be at least 1 byte.\n"
    )
    last = _put_manifest(
        env, url + "/m", [{"path": "/slo-empty/one"}, {"path": "/slo-empty/zero"}]
    )
    assert last.status_code == 201


def test_limits_etag_and_reserved_header(env, monkeypatch):
    url, entries = _segments(env, "slo-limits", count=2)
    resp = _put_manifest(env, url + "/m", entries, {"Etag": "0" * 32})
    assert resp.status_code == 422
    monkeypatch.setattr(slo, "MAX_MANIFEST_SEGMENTS", 1)
    resp = _put_manifest(env, url + "/m", entries)
    assert (resp.status_code, resp.text) == (413, "Number of object-backed segments must be <= 1")
    monkeypatch.setattr(slo, "MAX_MANIFEST_SIZE", 10)
    resp = _put_manifest(env, url + "/m", entries)
    assert (resp.status_code, resp.text) == (413, "Manifest File > 10 bytes")
    resp = _put_manifest(env, url + "/m", None, raw=(b"[" + b" " * 20 + b"]" for _ in [0]))
    assert (resp.status_code, resp.text) == (413, "Manifest File > 10 bytes")
    monkeypatch.undo()
    copy = _put_manifest(env, url + "/m", entries, {"X-Copy-From": "/slo-limits/s/000000"})
    assert (copy.status_code, copy.text) == (
        405,
        "Multipart Manifest PUTs cannot be COPY requests",
    )
    reserved = requests.put(
        url + "/plain", data=b"x", headers={**env.demo.headers, "X-Static-Large-Object": "True"}
    )
    assert (reserved.status_code, reserved.text) == (400, slo.RESERVED_HEADER)
    assert requests.head(url + "/m", headers=env.demo.headers).status_code == 404


def test_a_missing_segment_is_409_first_and_truncates_later(env):
    url, entries = _segments(env, "slo-gone", count=3)
    assert _put_manifest(env, url + "/m", entries).status_code == 201
    requests.delete(url + "/s/000001", headers=env.demo.headers)
    # the status is sent: the body ends where the segment is missing
    assert _read_short(url + "/m", env.demo.headers) == (200, _bytes(0))
    requests.put(url + "/s/000000", data=b"changed", headers=env.demo.headers)
    first = requests.get(url + "/m", headers=env.demo.headers)
    assert first.status_code == 409


def test_segments_another_project_cannot_read_are_not_served(env):
    alt = env.alt
    shared = alt.swift + "/slo-shared"
    assert requests.put(shared, headers={**alt.headers, "X-Container-Read": "*:*"}).status_code
    secret_url = alt.swift + "/slo-secret"
    requests.put(secret_url, headers=alt.headers)
    requests.put(secret_url + "/s", data=b"secret", headers=alt.headers)
    requests.put(shared + "/s", data=b"public", headers=alt.headers)
    # the manifest in alt's shared container names alt's own private segment
    manifest = [{"path": "/slo-shared/s"}, {"path": "/slo-secret/s"}]
    resp = requests.put(
        shared + "/m?multipart-manifest=put", data=json.dumps(manifest), headers=alt.headers
    )
    assert resp.status_code == 201, resp.text
    assert requests.get(shared + "/m", headers=alt.headers).content == b"publicsecret"
    demo = env.demo.headers
    assert _read_short(shared + "/m", demo) == (200, b"public")
    # a manifest naming a segment its writer cannot read is refused
    url = _container(env, "slo-mine")
    mine = [{"path": "/slo-mine/x"}]
    requests.put(url + "/x", data=b"x", headers=demo)
    write_acl = {"X-Container-Write": "%s:*" % alt.project}
    requests.post(url, headers={**demo, **write_acl})
    requests.put(env.demo.swift + "/slo-private", headers=demo)
    requests.put(env.demo.swift + "/slo-private/p", data=b"p", headers=demo)
    theirs = mine + [{"path": "/slo-private/p"}]
    resp = requests.put(
        url + "/m?multipart-manifest=put", data=json.dumps(theirs), headers=alt.headers
    )
    assert resp.status_code == 400
    assert "/slo-mine/x, 403 Forbidden" in resp.text
    assert "/slo-private/p, 403 Forbidden" in resp.text


def test_multipart_delete_deletes_segments_and_manifest(env):
    url, entries = _segments(env, "slo-del", count=3)
    assert _put_manifest(env, url + "/inner", entries[:2]).status_code == 201
    outer = [{"path": "/slo-del/inner"}, entries[2]]
    assert _put_manifest(env, url + "/outer", outer).status_code == 201
    resp = requests.delete(
        url + "/outer?multipart-manifest=delete",
        headers={**env.demo.headers, "Accept": "application/json"},
    )
    assert resp.status_code == 200
    assert resp.json() == {
        "Response Status": "200 OK",
        "Response Body": "",
        "Number Deleted": 5,
        "Number Not Found": 0,
        "Errors": [],
    }
    assert requests.get(url, headers=env.demo.headers).status_code == 204  # empty


def test_multipart_delete_reports(env):
    url = _container(env, "slo-del-report")
    requests.put(url + "/plain", data=b"x", headers=env.demo.headers)
    resp = requests.delete(url + "/plain?multipart-manifest=delete", headers=env.demo.headers)
    assert resp.status_code == 200
    assert resp.text == (
        "Number Deleted: 0\nNumber Not Found: 0\nResponse Body: \n"
        "Response Status: 400 Bad Request\nErrors:\n/slo-del-report/plain, Not an SLO manifest\n"
    )
    assert requests.head(url + "/plain", headers=env.demo.headers).status_code == 200
    gone = requests.delete(url + "/nothing?multipart-manifest=delete", headers=env.demo.headers)
    assert gone.text.startswith("Number Deleted: 0\nNumber Not Found: 1\n")
    assert "Response Status: 200 OK\n" in gone.text
    # a segment its caller may not delete stays, and is reported
    shared = _container(env, "slo-del-ro", **{"X-Container-Read": "%s:*" % env.alt.project})
    requests.put(shared + "/s", data=b"s", headers=env.demo.headers)
    mine = env.alt.swift + "/slo-del-alt"
    requests.put(mine, headers=env.alt.headers)
    manifest = json.dumps([{"path": "/slo-del-alt/own"}])
    requests.put(mine + "/own", data=b"o", headers=env.alt.headers)
    assert requests.put(
        mine + "/m?multipart-manifest=put", data=manifest, headers=env.alt.headers
    ).ok
    xml = requests.delete(
        mine + "/m?multipart-manifest=delete", headers={**env.alt.headers, "Accept": "text/xml"}
    )
    assert xml.headers["Content-Type"].startswith("text/xml")
    assert "<number_deleted>2</number_deleted>" in xml.text
    anon = requests.delete(shared + "/s?multipart-manifest=delete")
    assert "Not an SLO manifest" not in anon.text
    assert "401 Unauthorized" in anon.text
    assert requests.head(shared + "/s", headers=env.demo.headers).status_code == 200


def test_copy_makes_a_whole_object_or_with_manifest_get_a_manifest(env):
    url, entries = _segments(env, "slo-copy", count=2)
    assert _put_manifest(env, url + "/m", entries).status_code == 201
    whole = requests.request(
        "COPY", url + "/m", headers={**env.demo.headers, "Destination": "slo-copy/whole"}
    )
    assert whole.status_code == 201
    assert whole.headers["Etag"] == _md5(_whole(2))
    got = requests.get(url + "/whole", headers=env.demo.headers)
    assert got.content == _whole(2)
    assert "X-Static-Large-Object" not in got.headers
    again = requests.request(
        "COPY",
        url + "/m?multipart-manifest=get",
        headers={**env.demo.headers, "Destination": "slo-copy/m2"},
    )
    assert again.status_code == 201
    copied = requests.get(url + "/m2", headers=env.demo.headers)
    assert copied.headers["X-Static-Large-Object"] == "True"
    assert copied.content == _whole(2)
    assert again.headers["Etag"] == copied.headers["Etag"]
    # a segment gone: the copy is refused, nothing is stored
    requests.delete(url + "/s/000001", headers=env.demo.headers)
    short = requests.put(
        url + "/short",
        headers={**env.demo.headers, "X-Copy-From": "slo-copy/m", "Content-Length": "0"},
    )
    assert short.status_code == 499
    assert requests.head(url + "/short", headers=env.demo.headers).status_code == 404
    reserved = requests.request(
        "COPY",
        url + "/whole",
        headers={**env.demo.headers, "Destination": "slo-copy/x", "X-Static-Large-Object": "1"},
    )
    assert (reserved.status_code, reserved.text) == (400, slo.RESERVED_HEADER)


def test_more_refusals(env, monkeypatch):
    url, entries = _segments(env, "slo-more", count=2)
    # a range past a segment whose size was not given: found on lookup
    resp = _put_manifest(env, url + "/m", [{"path": entries[0]["path"], "range": "%d-" % SEG}])
    assert (resp.status_code, resp.text) == (
        400,
        "Errors:\n/slo-more/s/000000, Unsatisfiable Range\n",
    )
    # X-Static-Large-Object is reserved on POST and DELETE too
    for method in ("POST", "DELETE"):
        reserved = requests.request(
            method, url + "/s/000000", headers={**env.demo.headers, "X-Static-Large-Object": "1"}
        )
        assert (reserved.status_code, reserved.text) == (400, slo.RESERVED_HEADER)
    assert requests.head(url + "/s/000000", headers=env.demo.headers).status_code == 200
    # manifests nested deeper than slo's recursion depth are not served
    assert _put_manifest(env, url + "/inner", entries).status_code == 201
    assert _put_manifest(env, url + "/outer", [{"path": "/slo-more/inner"}]).status_code == 201
    monkeypatch.setattr(slo, "MAX_RECURSION_DEPTH", 1)
    assert requests.get(url + "/outer", headers=env.demo.headers).status_code == 409
    monkeypatch.undo()
    assert requests.get(url + "/outer", headers=env.demo.headers).content == _whole(2)


def test_a_first_segment_the_caller_cannot_read_is_409(env):
    alt = env.alt
    shared = alt.swift + "/slo-first-shared"
    requests.put(shared, headers={**alt.headers, "X-Container-Read": "*:*"})
    private = alt.swift + "/slo-first-private"
    requests.put(private, headers=alt.headers)
    requests.put(private + "/s", data=b"secret", headers=alt.headers)
    manifest = json.dumps([{"path": "/slo-first-private/s"}])
    assert requests.put(
        shared + "/m?multipart-manifest=put", data=manifest, headers=alt.headers
    ).ok
    assert requests.get(shared + "/m", headers=env.demo.headers).status_code == 409
    # nor may demo delete it or its segment, nor read a manifest there
    resp = requests.delete(shared + "/m?multipart-manifest=delete", headers=env.demo.headers)
    assert resp.text.endswith(
        "Response Status: 400 Bad Request\nErrors:\n"
        "/slo-first-private/s, 403 Forbidden\n/slo-first-shared/m, 403 Forbidden\n"
    )
    gone = requests.delete(private + "/s?multipart-manifest=delete", headers=env.demo.headers)
    assert "/slo-first-private/s, Unable to load SLO manifest or segment.\n" in gone.text
    assert requests.head(private + "/s", headers=alt.headers).status_code == 200
    assert requests.head(shared + "/m", headers=alt.headers).status_code == 200


def test_post_keeps_a_static_large_object(env):
    url, entries = _segments(env, "slo-post", count=2)
    assert _put_manifest(env, url + "/m", entries).status_code == 201
    meta = {**env.demo.headers, "X-Object-Meta-Color": "red"}
    assert requests.post(url + "/m", headers=meta).status_code == 202
    got = requests.get(url + "/m", headers=env.demo.headers)
    assert got.headers["X-Static-Large-Object"] == "True"
    assert got.headers["X-Object-Meta-Color"] == "red"
    assert got.content == _whole(2)


def test_a_manifest_put_needs_a_length_or_chunks(env):
    url = _container(env, "slo-length")
    parts = urllib.parse.urlsplit(url + "/m")
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.putrequest("PUT", parts.path + "?multipart-manifest=put")
        conn.putheader("X-Auth-Token", env.demo.token)
        conn.endheaders()
        assert conn.getresponse().status == 411
    finally:
        conn.close()
    requests.put(url + "/s", data=b"s", headers=env.demo.headers)
    chunked = _put_manifest(env, url + "/m", None, raw=iter([b'[{"path": "/slo-length/s"}]']))
    assert chunked.status_code == 201


def test_a_temp_url_gets_the_whole_large_object(env):
    from tests.unit.localcloud.heat_swift_harness import make_temp_url

    url, entries = _segments(env, "slo-temp", count=2)
    assert _put_manifest(env, url + "/m", entries).status_code == 201
    signed = make_temp_url(env, env.demo, "slo-temp", "m", method="GET")
    got = requests.get(signed)  # no token: tempurl lets its subrequests through
    assert got.status_code == 200
    assert got.content == _whole(2)
    assert got.headers["Content-Disposition"].startswith('attachment; filename="m"')
    # a temp URL signs the manifest only: its query cannot name another
    forged = signed.replace("/slo-temp/m?", "/slo-temp/s/000000?")
    assert requests.get(forged).status_code == 401
