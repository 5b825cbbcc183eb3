"""The local Swift's multi-range GET as swob answers it (swob.py Range's
ranges_for_length and Response's multipart/byteranges, utils'
document_iters_to_multipart_byteranges): a 206 ``multipart/byteranges``
body with a boundary, one part per satisfiable range, and swob's 416 for
egregious sets (more than 50 ranges, more than 2 overlapping pairs, 8 or
more out of order), over real HTTP."""

import re

import pytest
import requests

from occli.localcloud.objectstore.api import common

DATA = bytes(range(256)) * 4  # 1024 bytes, each offset's value recognisable


@pytest.fixture(scope="module")
def obj(env):
    demo = env.demo
    assert requests.put(demo.swift + "/ranges", headers=demo.headers).status_code == 201
    url = demo.swift + "/ranges/data.bin"
    resp = requests.put(
        url, data=DATA, headers={**demo.headers, "Content-Type": "application/x-test"}
    )
    assert resp.status_code == 201
    return url


def _get(env, url, value):
    return requests.get(url, headers={**env.demo.headers, "Range": value})


def _parts(resp):
    """``[(headers, data)]`` of a multipart/byteranges answer, checking
    its framing byte for byte."""
    match = re.fullmatch(
        r"multipart/byteranges;boundary=([0-9a-f]{32})", resp.headers["Content-Type"]
    )
    assert match, resp.headers["Content-Type"]
    boundary = match.group(1).encode()
    body = resp.content
    assert int(resp.headers["Content-Length"]) == len(body)
    assert body.endswith(b"--" + boundary + b"--")
    parts = []
    for chunk in body[: -len(boundary) - 4].split(b"--" + boundary + b"\r\n")[1:]:
        head, _, data = chunk.partition(b"\r\n\r\n")
        assert data.endswith(b"\r\n")
        lines = dict(line.split(b": ", 1) for line in head.split(b"\r\n"))
        parts.append(({k.decode(): v.decode() for k, v in lines.items()}, data[:-2]))
    return parts


def test_two_ranges_are_a_multipart_byteranges_206(env, obj):
    resp = _get(env, obj, "bytes=0-9,-5")
    assert resp.status_code == 206
    assert "Content-Range" not in resp.headers
    assert _parts(resp) == [
        ({"Content-Type": "application/x-test", "Content-Range": "bytes 0-9/1024"}, DATA[:10]),
        (
            {"Content-Type": "application/x-test", "Content-Range": "bytes 1019-1023/1024"},
            DATA[-5:],
        ),
    ]
    # a fresh boundary each time, as swob's random one
    again = _get(env, obj, "bytes=0-9,-5").headers["Content-Type"]
    assert again != resp.headers["Content-Type"]


def test_ranges_past_the_end_are_clipped_or_dropped(env, obj):
    resp = _get(env, obj, "bytes=1000-2000,5000-6000,10-11")
    assert resp.status_code == 206
    assert [(h["Content-Range"], d) for h, d in _parts(resp)] == [
        ("bytes 1000-1023/1024", DATA[1000:]),
        ("bytes 10-11/1024", DATA[10:12]),
    ]
    # one satisfiable range left: a plain 206
    resp = _get(env, obj, "bytes=0-1,5000-6000")
    assert resp.status_code == 206
    assert resp.headers["Content-Range"] == "bytes 0-1/1024"
    assert resp.headers["Content-Type"] == "application/x-test"
    assert resp.content == DATA[:2]


def test_no_satisfiable_range_is_416(env, obj):
    resp = _get(env, obj, "bytes=5000-6000,-0")
    assert resp.status_code == 416
    assert resp.headers["Content-Range"] == "bytes */1024"
    assert "The Range requested is not available." in resp.text


def test_a_malformed_range_in_the_set_ignores_the_header(env, obj):
    for value in ("bytes=0-1,x-2", "bytes=0-1,5-3", "bytes=0-1,-", "bytes=0-1,7"):
        resp = _get(env, obj, value)
        assert (resp.status_code, resp.content) == (200, DATA), value


def test_fifty_ranges_are_served_and_fifty_one_refused(env, obj):
    fifty = ",".join("%d-%d" % (i * 10, i * 10 + 1) for i in range(50))
    resp = _get(env, obj, "bytes=" + fifty)
    assert resp.status_code == 206
    parts = _parts(resp)
    assert len(parts) == 50
    assert parts[49][1] == DATA[490:492]
    resp = _get(env, obj, "bytes=%s,600-601" % fifty)
    assert resp.status_code == 416
    assert resp.headers["Content-Range"] == "bytes */1024"


def test_more_than_two_overlapping_pairs_are_refused(env, obj):
    # 0-10 and 5-15 overlap, 5-15 and 12-20 too: two pairs
    assert _get(env, obj, "bytes=0-10,5-15,12-20").status_code == 206
    # all three overlap each other: three pairs
    assert _get(env, obj, "bytes=0-10,1-10,2-10").status_code == 416
    # ranges from one start overlap too
    assert _get(env, obj, "bytes=0-5,0-10,0-20").status_code == 416


def test_eight_ranges_out_of_order_are_refused(env, obj):
    seven = ",".join("%d-%d" % (i * 10, i * 10 + 1) for i in reversed(range(7)))
    resp = _get(env, obj, "bytes=" + seven)
    assert resp.status_code == 206 and len(_parts(resp)) == 7
    assert _get(env, obj, "bytes=100-101," + seven).status_code == 416
    ascending = ",".join("%d-%d" % (i * 10, i * 10 + 1) for i in range(8))
    assert _get(env, obj, "bytes=" + ascending).status_code == 206


def test_head_ignores_the_ranges(env, obj):
    resp = requests.head(obj, headers={**env.demo.headers, "Range": "bytes=0-1,4-5"})
    assert resp.status_code == 200
    assert resp.headers["Content-Length"] == "1024"


def test_byte_ranges_without_http():
    assert common.byte_ranges(None, 10) is None
    assert common.byte_ranges("bytes=0-1,-3", 10) == [(0, 2), (7, 10)]
    assert common.byte_ranges("bytes=-20", 10) == [(0, 10)]
    assert common.byte_ranges("bytes=10-", 10) == []
    assert common.byte_ranges("bytes=-5", 0) is None  # an empty object: all of it


def test_closing_the_body_unread_closes_every_part():
    class Part(list):
        closed = False

        def close(self):
            self.closed = True

    parts = [((0, 1), Part([b"a"])), ((2, 3), Part([b"c"]))]
    body = common.ByteRanges(parts, 3, "text/plain", b"b" * 32)
    body.close()
    assert all(chunks.closed for _, chunks in parts)
    assert body.length() == len(b"".join(common.ByteRanges(parts, 3, "text/plain", b"b" * 32)))
