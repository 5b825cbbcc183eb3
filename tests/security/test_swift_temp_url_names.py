"""Issue 9: temp URLs of objects with non-ASCII names, and ``filename=``
with non-ASCII, quotes or CR/LF, get Swift tempurl's Content-Disposition
(RFC 6266: a quoted ASCII form plus ``filename*=UTF-8''…``), not a 500.

Swift's tempurl middleware (``disposition_format``) percent-encodes both
forms (``quote(name, safe=' /')`` and ``quote(name)``), so a quote, a
backslash or CR/LF can never end the quoted string or the header: it
answers 200 with them encoded, and so does this cloud.
"""

import time
from urllib.parse import quote

import pytest
import requests

from occli.localcloud.objectstore.tempurl import content_disposition
from occli.localcloud.objectstore.tempurl import temp_url_signature
from tests.unit.localcloud.heat_swift_harness import start_env


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    env, stop = start_env(tmp_path_factory.mktemp("cloud"))
    yield env
    stop()


def get_url(env, container, name):
    """Store ``name`` in ``container`` and return a GET temp URL for it."""
    demo = env.demo
    requests.post(demo.swift, headers={**demo.headers, "X-Account-Meta-Temp-URL-Key": "k"})
    requests.put(demo.swift + "/" + quote(container), headers=demo.headers)
    assert (
        requests.put(
            "%s/%s/%s" % (demo.swift, quote(container), quote(name)),
            data=b"{}",
            headers=demo.headers,
        ).status_code
        == 201
    )
    expires = int(time.time()) + 600
    path = "/v1/AUTH_%s/%s/%s" % (demo.project, container, name)
    return "%s/object-store%s?temp_url_sig=%s&temp_url_expires=%d" % (
        env.url,
        quote(path),
        temp_url_signature("k", "GET", expires, path),
        expires,
    )


@pytest.mark.parametrize(
    "name, header",
    [
        ("☃.json", "attachment; filename=\"%E2%98%83.json\"; filename*=UTF-8''%E2%98%83.json"),
        (
            "dir/snow man ☃",
            "attachment; filename=\"snow man %E2%98%83\"; filename*=UTF-8''snow%20man%20%E2%98%83",
        ),
        ('q"b\\s.txt', "attachment; filename=\"q%22b%5Cs.txt\"; filename*=UTF-8''q%22b%5Cs.txt"),
    ],
)
def test_object_names(env, name, header):
    url = get_url(env, "names", name)
    for method in ("GET", "HEAD"):
        resp = requests.request(method, url)
        assert resp.status_code == 200, resp.text
        assert resp.headers["Content-Disposition"] == header


@pytest.mark.parametrize(
    "query, header",
    [
        ("filename=%E2%98%83", "attachment; filename=\"%E2%98%83\"; filename*=UTF-8''%E2%98%83"),
        (
            "filename=a%0D%0ASet-Cookie:%20x=1",
            'attachment; filename="a%0D%0ASet-Cookie%3A x%3D1"; '
            "filename*=UTF-8''a%0D%0ASet-Cookie%3A%20x%3D1",
        ),
        ("filename=%22%5C%22", "attachment; filename=\"%22%5C%22\"; filename*=UTF-8''%22%5C%22"),
        (
            "filename=first&filename=second",
            "attachment; filename=\"first\"; filename*=UTF-8''first",
        ),
        ("inline", "inline"),
        (
            "inline&filename=%E2%98%83",
            "inline; filename=\"%E2%98%83\"; filename*=UTF-8''%E2%98%83",
        ),
    ],
    ids=["snowman", "crlf", "quotes-backslash", "first-wins", "inline", "inline-named"],
)
def test_filename_and_inline(env, query, header):
    url = get_url(env, "named", "o.json") + "&" + query
    resp = requests.get(url)
    assert resp.status_code == 200, resp.text
    assert resp.headers["Content-Disposition"] == header
    assert "Set-Cookie" not in resp.headers


def test_the_header_is_always_printable_ascii():
    for name in ("\r\n", "\x00", "é\t☃", '"' * 3, "\u2028"):
        value = content_disposition({"filename": [name]}, "o")
        assert value.isascii() and value.isprintable(), value
