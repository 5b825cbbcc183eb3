"""A hostile endpoint can neither hang the client nor fill its memory
(issue 19, findings 7, 8, 14, 15, 16): bodies are bounded as received and
decompressed, ``--timeout`` bounds a request's whole answer,
``Retry-After`` is capped, ``--command-timeout`` bounds a command, a
redirect loop is an error and no credential follows a redirect to another
host, a failure names the URL that failed, and an answer of the wrong shape
or with a huge message is one line. The real CLI (in-process) and the SDK
against a loopback HTTP server whose compute answers each test chooses; how
much it sent shows how much the client read."""

import http.server
import itertools
import json
import socket
import threading
import time
import zlib

import pytest

from occli import exceptions
from occli import shell

TOKEN = "hostile-token-0123456789"
PASSWORD = "hostile-Pa55w0rd"
#: The most an answer sends (or the longest it lasts) before it ends by
#: itself: a client that never stops reading must not keep it running.
MAX_SENT = 1 << 30
MAX_SECONDS = 120.0
BLOCK = b" " * (1 << 16)
MiB = 1 << 20
#: What the kernel's socket buffers may hold on loopback beyond what the
#: client read.
SLACK = 32 * MiB
SERVER_ID = "4b5c7f3e-3c1d-4c5e-9a57-2d5b8b1c0f6e"


def token_body(base, extra_endpoints=0):
    """A project-scoped token whose catalog names this cloud's identity and
    compute (and ``extra_endpoints`` compute endpoints in other regions)."""
    more = [
        {"id": "c-%d" % i, "interface": "public", "region": "r%d" % i,
         "region_id": "r%d" % i, "url": base + "/compute/v2.1"}
        for i in range(extra_endpoints)
    ]  # fmt: skip

    def service(stype, url, more=()):
        endpoint = {"id": stype, "interface": "public", "region": "RegionOne",
                    "region_id": "RegionOne", "url": url}  # fmt: skip
        return {"id": stype, "type": stype, "name": stype, "endpoints": [endpoint, *more]}

    def stamp(offset):
        return time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime(time.time() + offset))

    domain = {"id": "default", "name": "Default"}
    return {
        "token": {
            "methods": ["password"],
            "expires_at": stamp(3600),
            "issued_at": stamp(0),
            "user": {"id": "u", "name": "demo", "domain": domain},
            "project": {"id": "p", "name": "demo", "domain": domain},
            "roles": [{"id": "r", "name": "member"}],
            "catalog": [
                service("identity", base + "/identity"),
                service("compute", base + "/compute/v2.1", more),
            ],
        }
    }


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.answer()

    def do_POST(self):
        self.answer()

    def answer(self):
        cloud = self.server.cloud
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        cloud.requests.append((self.command, self.path, dict(self.headers), body))
        cloud.peers.append(self.client_address)
        if self.path.rstrip("/") == "/identity/v3":
            link = {"rel": "self", "href": cloud.url + "/identity/v3/"}
            self.send_json(200, {"version": {"id": "v3.14", "status": "stable", "links": [link]}})
        elif self.path.startswith("/identity/v3/auth/tokens"):
            cloud.token(self)
        else:
            cloud.mode(self)

    def send_json(self, status, body, headers=()):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in dict(headers).items():
            self.send_header(name, value)
        self.end_headers()
        self.write(data)

    def redirect(self, location, status=302):
        self.send_response(status)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def write(self, data):
        """Send ``data``, counted; False once the client has gone."""
        try:
            self.wfile.write(data)
            self.wfile.flush()
        except OSError:
            return False
        self.server.cloud.sent += len(data)
        return True

    def stream(self, head, blocks, tail=b"", length=None, headers=(), interval=0.0):
        """A 200 of ``head``, ``blocks`` (an iterable) until the client goes
        or :data:`MAX_SENT`/:data:`MAX_SECONDS` pass, then ``tail``;
        chunked unless ``length`` is given."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        for name, value in dict(headers).items():
            self.send_header(name, value)
        if length is None:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(length))
        self.end_headers()
        frame = (lambda d: b"%x\r\n%s\r\n" % (len(d), d)) if length is None else (lambda d: d)
        start = time.monotonic()
        if not self.write(frame(head)):
            return
        for block in blocks:
            if self.server.cloud.sent > MAX_SENT or time.monotonic() - start > MAX_SECONDS:
                break
            if not self.write(frame(block)):
                return
            if interval:
                time.sleep(interval)
        self.write(frame(tail) + (b"0\r\n\r\n" if length is None else b""))

    def drop(self):
        """Close the connection without (the rest of) an answer."""
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_RDWR)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a client gone midway is what these tests make happen


class HostileCloud:
    """A threading HTTP server on 127.0.0.1 (a free port): a Keystone whose
    token is ``token(handler)`` (by default a token naming this cloud), and
    a compute endpoint answering ``mode(handler)``. ``sent`` counts the
    bytes of its answers, ``requests`` what it received ``(method, path,
    headers, body)``, ``peers`` the client address of each (its connection)."""

    def __init__(self, mode=None, catalog_size=0):
        self.mode = mode or (lambda h: h.send_json(200, {"servers": []}))
        self.catalog_size = catalog_size
        self.token = lambda h: h.send_json(
            201, token_body(self.url, self.catalog_size), {"X-Subject-Token": TOKEN}
        )
        self.sent = 0
        self.requests = []
        self.peers = []
        self.outlasted = 0
        self.server = Server(("127.0.0.1", 0), Handler)
        self.server.cloud = self
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        self.compute = self.url + "/compute/v2.1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def paths(self, prefix="/compute"):
        return [path for _, path, _, _ in self.requests if path.startswith(prefix)]


@pytest.fixture
def cloud(monkeypatch, tmp_path):
    """A hostile cloud, and the ``OS_*`` variables pointing occli at it."""
    running = HostileCloud()
    for key in ("OS_CLOUD", "OS_CLIENT_CONFIG_FILE", "OCCLI_MAX_RESPONSE_SIZE",
                "OCCLI_COMMAND_TIMEOUT"):  # fmt: skip
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("OS_AUTH_URL", running.url + "/identity/v3")
    monkeypatch.setenv("OS_AUTH_TYPE", "password")
    monkeypatch.setenv("OS_USERNAME", "demo")
    monkeypatch.setenv("OS_PASSWORD", PASSWORD)
    monkeypatch.setenv("OS_PROJECT_NAME", "demo")
    monkeypatch.setenv("OS_USER_DOMAIN_ID", "default")
    monkeypatch.setenv("OS_PROJECT_DOMAIN_ID", "default")
    monkeypatch.setenv("OCCLI_CACHE_DIR", str(tmp_path / "cache"))
    yield running
    running.stop()


@pytest.fixture
def other():
    """A second server (another port: another origin) recording what reaches it."""
    running = HostileCloud(lambda h: h.send_json(200, {"servers": []}))
    yield running
    running.stop()


@pytest.fixture
def occli(cloud, capsys):
    """Run ``occli --no-cache --os-compute-api-version 2.1 ARGV…``
    in-process: ``(code, out, err)``."""

    def run(*argv):
        capsys.readouterr()
        code = shell.main(["--no-cache", "--os-compute-api-version", "2.1", *map(str, argv)])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def one_error(result, *expected):
    """The one line a failed command wrote on stderr, holding ``expected``."""
    code, out, err = result
    assert code == 1, (code, err[:2000])
    assert len(err.strip().splitlines()) == 1, err[:2000]
    assert "Traceback" not in err
    for text in expected:
        assert text in err, err[:2000]
    return err.strip()


# -- finding 7: bodies are bounded --------------------------------------------


def test_a_huge_body_is_refused_before_it_is_read(cloud, occli):
    size = 256 * MiB
    cloud.mode = lambda h: h.stream(
        b'{"servers": [], "pad": "', (BLOCK for _ in range(size // len(BLOCK))), b'"}',
        length=size + 26,
    )  # fmt: skip
    one_error(occli("server", "list"), cloud.compute + "/servers/detail", "larger than 64 MiB")
    assert cloud.sent < SLACK


def test_an_endless_chunked_body_stops_at_the_limit(cloud, occli):
    cloud.mode = lambda h: h.stream(b'{"servers": [', iter(lambda: b'{"id": "x"}, ' * 5000, None))
    one_error(
        occli("--max-response-size", "1M", "server", "list"),
        cloud.compute + "/servers/detail",
        "larger than 1 MiB",
        "--max-response-size",
    )
    assert cloud.sent < 1 * MiB + SLACK


def gzip_bomb(blocks):
    """A gzip body of ``{"servers": [], "pad": "…"}`` whose ``blocks`` of
    64 MiB of spaces take some 64 KiB each (the compressor is reset after
    each block, so every one is the same bytes)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    head = compressor.compress(b'{"servers": [], "pad": "') + compressor.flush(zlib.Z_FULL_FLUSH)
    block = compressor.compress(BLOCK * 1024) + compressor.flush(zlib.Z_FULL_FLUSH)
    assert compressor.compress(BLOCK * 1024) + compressor.flush(zlib.Z_FULL_FLUSH) == block
    return head, [block] * blocks, compressor.compress(b'"}') + compressor.flush()


def test_a_gzip_bomb_stops_at_the_decompressed_limit(cloud, occli):
    head, blocks, tail = gzip_bomb(3)  # 192 MiB inflated from ~200 KiB
    cloud.mode = lambda h: h.stream(head, blocks, tail, headers={"Content-Encoding": "gzip"})
    one_error(occli("server", "list"), cloud.compute, "larger than 64 MiB once decompressed")


def test_the_limit_is_read_from_the_environment(cloud, occli, monkeypatch):
    monkeypatch.setenv("OCCLI_MAX_RESPONSE_SIZE", "512K")
    cloud.mode = lambda h: h.stream(b'{"servers": [', iter(lambda: BLOCK, None))
    one_error(occli("server", "list"), "larger than 512 KiB")


def test_a_bad_limit_is_a_usage_error(occli):
    code, out, err = occli("--max-response-size", "lots", "server", "list")
    assert code == 2
    assert "max_response_size" in err and "Traceback" not in err


def test_the_sdk_takes_the_limit(cloud):
    from occli import Client

    cloud.mode = lambda h: h.stream(b'{"servers": [', iter(lambda: BLOCK, None))
    client = Client(
        auth_url=cloud.url + "/identity/v3", username="demo", password=PASSWORD,
        project_name="demo", user_domain_id="default", project_domain_id="default",
        compute_api_version="2.1", max_response_size=256 << 10,
    )  # fmt: skip
    with pytest.raises(exceptions.ResponseTooLarge, match="larger than 256 KiB"):
        client.servers.list()
    assert cloud.sent < 256 * 1024 + SLACK


def test_a_huge_catalog_is_refused(cloud, occli):
    cloud.catalog_size = 200_000
    one_error(occli("server", "list"), "/identity/v3/auth/tokens", "token answer")
    assert cloud.paths() == []


# -- finding 8: --timeout, Retry-After, --command-timeout ---------------------


@pytest.mark.timeout(120)
def test_a_trickled_body_ends_at_the_timeout(cloud, occli):
    cloud.mode = lambda h: h.stream(
        b'{"servers": [', iter(lambda: b" ", None), length=100_000, interval=0.1
    )
    one_error(
        occli("--timeout", "1", "--retries", "0", "server", "list"),
        "Cannot reach %s/servers/detail (timed out)" % cloud.compute,
    )


#: The longest a trickled answer lasts before it ends by itself.
TRICKLE_SECONDS = 30.0


def trickle(sent_at_once):
    """A mode that sends ``sent_at_once``, then the rest of an answer's
    status line and headers one byte every 0.5 s (a header that never
    ends), until the client goes or :data:`TRICKLE_SECONDS` pass (counted
    in the cloud's ``outlasted``: the client waited it out)."""
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Pad: "

    def mode(h):
        h.close_connection = True
        if sent_at_once and not h.write(head[:sent_at_once]):
            return
        rest = itertools.chain(head[sent_at_once:], itertools.repeat(ord("a")))
        start = time.monotonic()
        for byte in rest:
            if time.monotonic() - start > TRICKLE_SECONDS:
                h.server.cloud.outlasted += 1
                return
            if not h.write(bytes([byte])):
                return
            time.sleep(0.5)

    return mode


def timer_threads():
    return [t for t in threading.enumerate() if isinstance(t, threading.Timer)]


TRICKLES = [pytest.param(0, id="status-line"), pytest.param(17, id="headers")]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("sent_at_once", TRICKLES)
def test_a_trickled_status_line_or_headers_end_at_the_timeout(cloud, occli, sent_at_once):
    cloud.mode = trickle(sent_at_once)
    one_error(
        occli("--timeout", "1", "server", "list"),
        "Cannot reach %s/servers/detail (timed out)" % cloud.compute,
    )
    assert len(cloud.paths()) == 3  # tried again as any timeout is (--retries 2)
    assert cloud.outlasted == 0
    assert timer_threads() == []


@pytest.mark.timeout(120)
@pytest.mark.parametrize("sent_at_once", TRICKLES)
def test_the_sdk_ends_trickled_headers_at_the_timeout(cloud, sent_at_once):
    from keystoneauth1 import exceptions as ks_exceptions

    from occli import Client

    cloud.mode = trickle(sent_at_once)
    client = Client(
        auth_url=cloud.url + "/identity/v3", username="demo", password=PASSWORD,
        project_name="demo", user_domain_id="default", project_domain_id="default",
        compute_api_version="2.1", api_timeout=1, retries=0,
    )  # fmt: skip
    with pytest.raises(ks_exceptions.ConnectTimeout, match="/servers/detail timed out"):
        client.servers.list()
    assert cloud.outlasted == 0
    assert timer_threads() == []


def test_connections_are_kept_alive_under_a_timeout(cloud):
    from occli import Client

    client = Client(
        auth_url=cloud.url + "/identity/v3", username="demo", password=PASSWORD,
        project_name="demo", user_domain_id="default", project_domain_id="default",
        compute_api_version="2.1", api_timeout=5,
    )  # fmt: skip
    for _ in range(3):
        assert client.servers.list() == []
    assert len(set(cloud.peers)) == 1, cloud.peers
    assert timer_threads() == []


@pytest.mark.timeout(120)
def test_retry_after_is_capped(cloud, occli, monkeypatch):
    import keystoneauth1.session

    slept = []
    monkeypatch.setattr(keystoneauth1.session.time, "sleep", slept.append)
    cloud.mode = lambda h: h.send_json(503, {}, {"Retry-After": "3600"})
    one_error(occli("--retries", "2", "server", "list"), "HTTP 503")
    assert slept == [10, 10]
    assert len(cloud.paths()) == 3


@pytest.mark.timeout(120)
def test_the_command_timeout_stops_retries(cloud, occli):
    cloud.mode = lambda h: h.send_json(503, {}, {"Retry-After": "3600"})
    one_error(
        occli("--command-timeout", "1.5", "--retries", "9", "server", "list"),
        "Out of time: the command's 1.5s",
        cloud.compute,
    )


@pytest.mark.timeout(120)
def test_the_command_timeout_stops_a_wait(cloud, occli, monkeypatch):
    server = {"id": SERVER_ID, "name": "vm", "status": "REBOOT", "addresses": {}}

    def compute(h):
        if h.command == "POST":
            h.send_response(202)
            h.send_header("Content-Length", "0")
            h.end_headers()
        else:
            h.send_json(200, {"server": server})

    cloud.mode = compute
    monkeypatch.setenv("OCCLI_COMMAND_TIMEOUT", "1.5")
    one_error(
        occli("server", "reboot", SERVER_ID, "--wait", "--wait-interval", "0.1"),
        "Out of time: the command's 1.5s",
    )


def test_a_bad_command_timeout_is_a_usage_error(occli):
    code, out, err = occli("--command-timeout", "-1", "server", "list")
    assert code == 2
    assert "command_timeout" in err and "Traceback" not in err


# -- finding 14: redirects -----------------------------------------------------


def test_a_redirect_loop_is_an_error(cloud, occli):
    cloud.mode = lambda h: h.redirect(cloud.url + h.path)
    one_error(occli("server", "list"), "redirected more than 30 times", cloud.compute)
    assert len(cloud.paths()) == 31


def test_a_redirect_on_the_same_host_is_followed(cloud, occli):
    def compute(h):
        if h.path.startswith("/compute/v2.1/servers/detail"):
            h.redirect("/moved/servers/detail")  # relative, as RFC 9110 allows
        else:
            h.send_json(200, {"servers": [{"id": "s1", "name": "vm", "status": "ACTIVE"}]})

    cloud.mode = compute
    code, out, err = occli("server", "list", "-f", "value", "-c", "Name")
    assert (code, out) == (0, "vm\n"), err
    assert cloud.requests[-1][1] == "/moved/servers/detail"
    assert cloud.requests[-1][2]["X-Auth-Token"] == TOKEN


def test_a_redirect_to_another_host_carries_no_token(cloud, other, occli):
    cloud.mode = lambda h: h.redirect(other.url + h.path)
    one_error(occli("server", "list"), "another host", other.url)
    assert other.requests == []


def test_a_token_request_is_never_redirected_to_another_host(cloud, other, occli):
    cloud.token = lambda h: h.redirect(other.url + h.path, status=307)
    one_error(occli("server", "list"), "another host", other.url)
    assert other.requests == []


# -- finding 15: the URL that failed ------------------------------------------


@pytest.mark.timeout(120)
def test_a_timeout_names_the_url_that_failed(cloud, occli):
    cloud.mode = lambda h: time.sleep(5)
    one_error(
        occli("--timeout", "0.5", "--retries", "0", "server", "list"),
        "Cannot reach %s/servers/detail (timed out)" % cloud.compute,
    )


def drop_midway(h):
    h.send_response(200)
    h.send_header("Content-Length", "1000")
    h.end_headers()
    h.write(b'{"servers": [')
    h.drop()


@pytest.mark.parametrize("mode", [Handler.drop, drop_midway], ids=["before-answer", "midway"])
def test_a_dropped_connection_names_the_url_that_failed(cloud, occli, mode):
    cloud.mode = mode
    one_error(
        occli("--retries", "0", "server", "list"),
        "Cannot reach %s/servers/detail (connection dropped)" % cloud.compute,
    )


# -- finding 16: shapes and messages ------------------------------------------

LIST_SHAPES = [
    ({"servers": 5}, "'servers' is not a list"),
    ([1, 2], "its body is not a JSON object"),
    (None, "its body is not a JSON object"),
    ({"servers": [None]}, "an entry of 'servers' is not an object"),
    ({"servers": [5]}, "an entry of 'servers' is not an object"),
    ({"servers": [{"id": "s1"}], "servers_links": 5}, "'servers_links' is not a list of links"),
    ({"servers": [{"id": "s1"}], "servers_links": [5]}, "'servers_links' is not a list of links"),
]


@pytest.mark.parametrize("body, what", LIST_SHAPES)
def test_a_list_of_the_wrong_shape_is_one_line(cloud, occli, body, what):
    cloud.mode = lambda h: h.send_json(200, body)
    one_error(
        occli("server", "list"),
        "The answer from %s/servers/detail" % cloud.compute,
        "is not what the API documents: " + what,
    )


@pytest.mark.parametrize(
    "body, what",
    [
        ({"server": None}, "'server' is missing"),
        ({}, "'server' is missing"),
        ({"server": 5}, "'server' is not an object"),
        ({"server": ["id"]}, "'server' is not an object"),
        ("server", "its body is not a JSON object"),
    ],
)
def test_a_resource_of_the_wrong_shape_is_one_line(cloud, occli, body, what):
    cloud.mode = lambda h: h.send_json(200, body)
    one_error(
        occli("server", "show", SERVER_ID),
        "The answer from %s/servers/%s" % (cloud.compute, SERVER_ID),
        "is not what the API documents: " + what,
    )


def test_a_huge_error_message_is_cut(cloud, occli):
    cloud.mode = lambda h: h.send_json(
        400, {"badRequest": {"code": 400, "message": "x" * (50 * MiB)}}
    )
    line = one_error(occli("server", "list"), "x" * 500 + "\u2026 (HTTP 400)")
    assert len(line) < 600
