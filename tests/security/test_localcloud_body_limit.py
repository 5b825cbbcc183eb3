"""Request body cap (issue 9 F): the HTTP server refuses a body above the
largest any service accepts before buffering it (waitress's default was
1 GB, unauthenticated), and the application refuses an over-limit
``Content-Length`` before reading."""

import socket

import pytest

from occli.localcloud import app
from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.identity.api.service import IdentityService
from occli.localcloud.server import BackgroundServer


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    cloud = LocalCloud(
        Config(data_dir=str(tmp_path_factory.mktemp("body"))), services=[IdentityService]
    )
    server = BackgroundServer(cloud).start()
    yield server.url
    server.stop()
    cloud.close()


def _exchange(url, head, body=b""):
    """Send a raw request; the status line of the answer (20 s at most)."""
    host, port = url.rsplit("/", 1)[1].split(":")
    with socket.create_connection((host, int(port)), timeout=20) as sock:
        sock.sendall(head + body)
        answer = b""
        while b"\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n", 1)[0].decode()


def _head(length):
    return (
        b"POST /v3/auth/tokens HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % length
    )


def test_an_over_limit_content_length_is_refused_before_the_body(url):
    # no body is sent: the answer must not wait for it
    status = _exchange(url, _head(app.MAX_BODY + 1))
    assert status.split(" ")[1] == "413", status


def test_a_body_at_the_limit_reaches_the_application(url):
    body = b"{" + b" " * (app.MAX_BODY - 2) + b"}"
    status = _exchange(url, _head(len(body)), body)
    assert status.split(" ")[1] == "400", status
