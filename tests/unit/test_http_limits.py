"""occli.transport: the bounds on what a cloud's answer may cost (sizes,
deadlines, Retry-After, redirects), over requests-mock; and the Manager's
refusal of a redirect it was handed unfollowed."""

import io
import socket
import threading
import time

import pytest
import requests

from occli import exceptions
from occli import transport

from .fakes import COMPUTE

URL = "http://cloud.test/compute/v2.1/servers"


class CountingBody(io.BytesIO):
    """A body that tells how much of it was read (``consumed``)."""

    consumed = 0

    def read(self, size=-1):
        data = super().read(size)
        self.consumed += len(data)
        return data

    def read1(self, size=-1):
        data = super().read1(size)
        self.consumed += len(data)
        return data


@pytest.mark.parametrize(
    "text, size",
    [
        ("65536", 65536),
        ("512K", 512 << 10),
        ("64M", 64 << 20),
        ("1g", 1 << 30),
        ("64MiB", 64 << 20),
    ],
)
def test_parse_size(text, size):
    assert transport.parse_size(text) == size


@pytest.mark.parametrize("text", ["", "0", "-1", "64T", "lots", "1.5M"])
def test_parse_size_refuses(text):
    with pytest.raises(ValueError):
        transport.parse_size(text)


def test_describe_size():
    assert transport.describe_size(64 << 20) == "64 MiB"
    assert transport.describe_size(512 << 10) == "512 KiB"
    assert transport.describe_size(1000) == "1000 bytes"


def test_max_response_size_argument_then_environment_then_default(monkeypatch):
    monkeypatch.delenv(transport.MAX_RESPONSE_SIZE_ENV, raising=False)
    assert transport.max_response_size() == transport.DEFAULT_MAX_RESPONSE_SIZE
    monkeypatch.setenv(transport.MAX_RESPONSE_SIZE_ENV, "1M")
    assert transport.max_response_size() == 1 << 20
    assert transport.max_response_size("2M") == 2 << 20
    assert transport.max_response_size(4096) == 4096
    with pytest.raises(exceptions.ValidationError, match="max_response_size"):
        transport.max_response_size("lots")


def test_command_timeout_argument_then_environment(monkeypatch):
    monkeypatch.delenv(transport.COMMAND_TIMEOUT_ENV, raising=False)
    assert transport.command_timeout() is None
    monkeypatch.setenv(transport.COMMAND_TIMEOUT_ENV, "30")
    assert transport.command_timeout() == 30.0
    assert transport.command_timeout(1.5) == 1.5
    for bad in ("0", "-1", "nan", "inf", "soon"):
        with pytest.raises(exceptions.ValidationError, match="command_timeout"):
            transport.command_timeout(bad)


def bounded(limit=1 << 20, command_timeout=None):
    return transport.BoundedTransport(limit, command_timeout)


def test_a_body_is_read_until_the_limit_and_no_further(requests_mock):
    body = CountingBody(b"x" * (8 << 20))
    requests_mock.get(URL, body=body)
    with pytest.raises(exceptions.ResponseTooLarge, match="larger than 1 MiB"):
        bounded().get(URL)
    assert body.consumed <= (1 << 20) + (64 << 10)


def test_a_declared_length_over_the_limit_reads_nothing(requests_mock):
    body = CountingBody(b"x" * (2 << 20))
    requests_mock.get(URL, body=body, headers={"Content-Length": str(2 << 20)})
    with pytest.raises(exceptions.ResponseTooLarge, match=URL):
        bounded().get(URL)
    assert body.consumed == 0


@pytest.mark.parametrize("method, status", [("HEAD", 200), ("GET", 304), ("GET", 204)])
def test_the_length_of_an_answer_without_a_body_is_no_reason_to_refuse(
    requests_mock, method, status
):
    """A HEAD of a 1 GiB object declares the GET's length (``object show``)."""
    requests_mock.register_uri(
        method, URL, status_code=status, headers={"Content-Length": str(1 << 30)}
    )
    response = bounded().request(method, URL)
    assert (response.status_code, response.content) == (status, b"")


def test_a_body_within_the_limit_is_the_content(requests_mock):
    requests_mock.get(URL, json={"servers": []})
    response = bounded().get(URL)
    assert response.json() == {"servers": []}


def test_a_streamed_request_leaves_the_body_to_the_caller(requests_mock):
    requests_mock.get(URL, body=CountingBody(b"x" * (2 << 20)))
    response = bounded().get(URL, stream=True)
    assert len(response.raw.read()) == 2 << 20


def test_a_token_answer_has_a_smaller_limit(requests_mock):
    requests_mock.post(URL, body=CountingBody(b"x" * (3 << 20)), headers={"X-Subject-Token": "t"})
    with pytest.raises(exceptions.ResponseTooLarge, match="2 MiB.*token answer"):
        bounded(64 << 20).post(URL)


def test_a_passed_deadline_sends_nothing(requests_mock, monkeypatch):
    requests_mock.get(URL, json={})
    session = bounded(command_timeout=5)
    session.deadline -= 10
    with pytest.raises(exceptions.CommandTimeout, match="5s.*" + URL):
        session.get(URL)
    assert not requests_mock.called


@pytest.mark.parametrize(
    "status, value, capped",
    [
        (503, "3600", "10"),
        (503, "3", "3"),
        (503, "-5", "0"),
        (502, "Wed, 21 Oct 2015 07:28:00 GMT", "Wed, 21 Oct 2015 07:28:00 GMT"),
        (429, "3600", "3600"),  # not retried: told as the server said
    ],
)
def test_retry_after_is_capped(requests_mock, status, value, capped):
    requests_mock.get(URL, status_code=status, headers={"Retry-After": value})
    assert bounded().get(URL).headers["Retry-After"] == capped


def test_retry_after_never_outlasts_the_deadline(requests_mock):
    requests_mock.get(URL, status_code=503, headers={"Retry-After": "3600"})
    assert bounded(command_timeout=2).get(URL).headers["Retry-After"] in ("1", "2")


@pytest.fixture
def session():
    return transport.Session(session=bounded())


def test_a_redirect_on_the_same_host_is_followed(requests_mock, session):
    requests_mock.get(URL, status_code=302, headers={"Location": "/moved"})
    requests_mock.get("http://cloud.test/moved", json={"servers": []})
    response = session.get(URL, authenticated=False)
    assert response.json() == {"servers": []}
    assert [r.status_code for r in response.history] == [302]


def test_an_upgrade_to_https_on_the_same_host_is_followed(requests_mock, session):
    requests_mock.get(URL, status_code=301, headers={"Location": "https://cloud.test/x"})
    requests_mock.get("https://cloud.test/x", json={})
    assert session.get(URL, authenticated=False).status_code == 200


@pytest.mark.parametrize(
    "location", ["http://elsewhere.test/x", "http://cloud.test:8080/x", "ftp://cloud.test/x"]
)
def test_a_redirect_to_another_origin_is_refused(requests_mock, session, location):
    requests_mock.get(URL, status_code=307, headers={"Location": location})
    with pytest.raises(exceptions.RedirectRefused, match="another host"):
        session.get(URL, headers={"X-Auth-Token": "secret"}, authenticated=False)
    assert [r.url for r in requests_mock.request_history] == [URL]


def test_a_redirect_loop_is_refused(requests_mock, session):
    requests_mock.get(URL, status_code=302, headers={"Location": URL})
    with pytest.raises(exceptions.RedirectRefused, match="more than 30 times"):
        session.get(URL, authenticated=False)
    assert requests_mock.call_count == 31


def test_redirect_false_returns_the_redirect(requests_mock, session):
    requests_mock.get(URL, status_code=302, headers={"Location": URL})
    assert session.get(URL, authenticated=False, redirect=False).status_code == 302


def test_the_manager_refuses_a_redirect_left_unfollowed(client, mock_cloud):
    from occli import base

    class Things(base.Manager):
        service_type = "compute"

    # a plain keystoneauth1 session (Client(session=…)) returns the last
    # redirect of a loop as if it were the answer
    mock_cloud.mock.get(
        COMPUTE + "/servers/detail",
        status_code=302,
        headers={"Location": COMPUTE + "/servers/detail"},
    )
    with pytest.raises(exceptions.RedirectRefused, match="HTTP 302"):
        list(Things(client)._list("/servers/detail", "servers"))


class Connection:
    """What the watchdog knows of a urllib3 connection: its socket."""

    def __init__(self, sock):
        self.sock = sock


def test_the_watchdog_shuts_a_blocked_read_down_at_the_end():
    ours, theirs = socket.socketpair()
    ours.settimeout(60)  # never reached: the watchdog ends the read first
    with ours, theirs:
        with transport._Watchdog(time.monotonic() + 0.2) as watchdog:
            watchdog.watch(Connection(ours))
            assert ours.recv(1) == b""
        assert watchdog.fired
    assert not [t for t in threading.enumerate() if isinstance(t, threading.Timer)]


def test_a_connection_watched_after_the_end_is_shut_at_once():
    ours, theirs = socket.socketpair()
    ours.settimeout(60)
    with ours, theirs, transport._Watchdog(time.monotonic()) as watchdog:
        while not watchdog.fired:  # the timer's thread fires it
            time.sleep(0.01)
        watchdog.watch(Connection(ours))  # connected just now
        assert ours.recv(1) == b""


def test_a_watchdog_disarmed_in_time_leaves_the_connection_alone():
    ours, theirs = socket.socketpair()
    with ours, theirs:
        with transport._Watchdog(time.monotonic() + 60) as watchdog:
            watchdog.watch(Connection(ours))
        theirs.sendall(b"x")
        assert ours.recv(1) == b"x"
        assert not watchdog.fired


def test_no_timeout_arms_no_watchdog():
    before = threading.active_count()
    with transport._Watchdog(None) as watchdog:
        assert threading.active_count() == before
    assert not watchdog.fired


def test_urllib3_errors_midway_become_requests_errors():
    from urllib3 import exceptions as u3

    class Raw:
        def read1(self, amount, decode_content):
            raise u3.ProtocolError("Connection broken: IncompleteRead")

    with pytest.raises(requests.exceptions.ChunkedEncodingError):
        transport._read_piece(Raw())


def test_when_sent_calls_back_once_the_request_is_out_before_its_answer():
    """On a loopback server that answers only once the callback ran: the
    callback comes after the server read the request and before the
    client reads the answer (else the request would never be answered)."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    called = threading.Event()
    seen = []

    def serve():
        conn, _ = listener.accept()
        with conn:
            request = b""
            while b"\r\n\r\n" not in request:
                request += conn.recv(4096)
            seen.append(request.split(b"\r\n")[0])
            seen.append(called.wait(10))
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    try:
        with transport.when_sent(called.set):
            response = bounded().get("http://127.0.0.1:%d/page?marker=m" % port, timeout=10)
        assert response.content == b"ok"
        assert seen == [b"GET /page?marker=m HTTP/1.1", True]
        # outside the block, nothing is called back
        called.clear()
        assert transport._watched.sent is None
    finally:
        server.join(10)
        listener.close()


def test_no_netrc_login_is_sent(requests_mock, tmp_path, monkeypatch):
    netrc = tmp_path / "netrc"
    netrc.write_text("machine cloud.test login someone password netrc-secret\n")
    netrc.chmod(0o600)
    monkeypatch.setenv("NETRC", str(netrc))
    requests_mock.get(URL, json={"servers": []})
    requests.Session().get(URL)
    assert "Authorization" in requests_mock.last_request.headers  # what requests does
    bounded = transport.BoundedTransport(1 << 20)
    bounded.get(URL, headers={"X-Auth-Token": "tok"})
    assert "Authorization" not in requests_mock.last_request.headers
    assert requests_mock.last_request.headers["X-Auth-Token"] == "tok"
    bounded.get(URL, auth=("u", "p"))  # a request's own auth still goes
    assert requests_mock.last_request.headers["Authorization"].startswith("Basic ")
