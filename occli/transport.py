"""The HTTP transport under keystoneauth1: what a cloud's answer may cost.

keystoneauth1 and requests do the HTTP; the Client gives keystoneauth1 a
:class:`Session` whose requests go through a :class:`BoundedTransport`
(a ``requests.Session``), so that an endpoint, however hostile, can neither
hang a command nor fill its memory:

- a body is read a piece at a time and refused past ``max_response_size``,
  as received and once decompressed (a gzip bomb stops at the limit); a
  token answer, past :data:`MAX_TOKEN_SIZE` (its catalog is parsed and
  searched on every request);
- a request's timeout bounds it end to end, from its connection to the
  last byte of its body: at the timeout a watchdog shuts its socket down
  (a status line, headers or body trickled a byte at a time end there),
  and a command's deadline (``command_timeout``) bounds all of them;
- ``Retry-After`` is honoured up to :data:`MAX_RETRY_AFTER` seconds;
- a redirect loop is an error, and credentials only go where the request
  went: a redirect to another host, scheme or port is refused (requests'
  rule for its ``Authorization`` header, applied to every request);
- the only credentials sent are keystoneauth1's: never a ``~/.netrc``
  login, which requests would add.
"""

import contextlib
import http.client
import math
import os
import re
import socket
import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from typing import TYPE_CHECKING
from typing import Any
from urllib.parse import urljoin

import requests
from keystoneauth1 import session as ks_session
from urllib3 import connection
from urllib3 import connectionpool
from urllib3 import poolmanager

from occli import exceptions

if TYPE_CHECKING:
    from urllib3 import response as u3_response

#: A requests ``timeout``: seconds, or ``(connect, read)`` (None: no bound).
_Timeout = float | tuple[float | None, float | None]

#: The largest body read by default: ten times the largest answers of real
#: clouds (a page of 1000 servers in detail is ~5 MB; Heat templates stop
#: at 512 KiB) and small enough that its JSON, parsed, stays well under a
#: gigabyte. The same bound applies to the body once decompressed.
DEFAULT_MAX_RESPONSE_SIZE = 64 << 20
#: The largest token answer: some 10,000 catalog endpoints, five times the
#: catalogs of the largest public clouds.
MAX_TOKEN_SIZE = 2 << 20
#: The longest ``Retry-After`` waited for before a retry, in seconds.
MAX_RETRY_AFTER = 10
#: The most redirects followed for one request (keystoneauth1's default).
MAX_REDIRECTS = 30
MAX_RESPONSE_SIZE_ENV = "OCCLI_MAX_RESPONSE_SIZE"
COMMAND_TIMEOUT_ENV = "OCCLI_COMMAND_TIMEOUT"
#: How much of a body is read at a time.
_PIECE = 1 << 16
_SIZE = re.compile(r"\s*(\d+)\s*(?:([KMG])(?:i?B)?)?\s*", re.I)
_REDIRECTS = (301, 302, 303, 305, 307, 308)


def parse_size(text: str) -> int:
    """Bytes from ``"65536"``, ``"64K"``, ``"64M"``, ``"1G"`` (or ``"64MiB"``):
    multiples of 1024. ValueError when it is none of these."""
    match = _SIZE.fullmatch(str(text))
    if not match or int(match.group(1)) <= 0:
        raise ValueError("expected a size such as 65536, 512K, 64M or 1G, got %r" % (text,))
    shift = {"": 0, "K": 10, "M": 20, "G": 30}[(match.group(2) or "").upper()]
    return int(match.group(1)) << shift


def describe_size(size: int) -> str:
    """``64 MiB``, ``512 KiB`` or ``1000 bytes``: a limit in an error."""
    for shift, unit in ((30, "GiB"), (20, "MiB"), (10, "KiB")):
        if size >= 1 << shift and size % (1 << shift) == 0:
            return "%d %s" % (size >> shift, unit)
    return "%d bytes" % size


def max_response_size(value: int | str | None = None) -> int:
    """The body limit: ``value``, else ``$OCCLI_MAX_RESPONSE_SIZE``, else
    :data:`DEFAULT_MAX_RESPONSE_SIZE`."""
    if value is None:
        value = os.environ.get(MAX_RESPONSE_SIZE_ENV) or DEFAULT_MAX_RESPONSE_SIZE
    try:
        return value if isinstance(value, int) and value > 0 else parse_size(str(value))
    except ValueError as exc:
        raise exceptions.ValidationError("max_response_size: %s." % exc) from None


def command_timeout(value: float | str | None = None) -> float | None:
    """The command deadline in seconds: ``value``, else
    ``$OCCLI_COMMAND_TIMEOUT``, else None (none)."""
    if value is None:
        value = os.environ.get(COMMAND_TIMEOUT_ENV) or None
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if not seconds > 0 or math.isinf(seconds):
        raise exceptions.ValidationError(
            "command_timeout: expected a positive number of seconds, got %r." % (value,)
        )
    return seconds


class BoundedTransport(requests.Session):
    """A requests Session that reads each body itself, within the limits.

    ``max_response_size`` bounds every body (as received and decompressed);
    a request's ``timeout`` bounds it end to end (a :class:`_Watchdog`
    shuts its connection down at the timeout); ``command_timeout`` seconds
    after it is made, every request ends with
    :class:`~occli.exceptions.CommandTimeout`. A request sent with
    ``stream=True`` leaves its body to the caller. Its connections are
    keystoneauth1's (TCP keep-alive), as in the Session it makes itself.
    """

    def __init__(self, max_response_size: int, command_timeout: float | None = None) -> None:
        super().__init__()
        self.auth = _HeadersOnly()
        adapter = _Adapter()
        for scheme in list(self.adapters):
            self.mount(scheme, adapter)
        self.max_response_size = max_response_size
        self.command_timeout = command_timeout
        self.deadline = None if command_timeout is None else time.monotonic() + command_timeout

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        if kwargs.get("stream"):
            return super().send(request, **kwargs)
        timeout = kwargs.get("timeout")
        ends = None if timeout is None else time.monotonic() + _total(timeout)
        if self.deadline is not None:
            left = self.check_deadline(request.url)
            timeout = left if timeout is None else _shortened(timeout, left)
            ends = self.deadline if ends is None else min(ends, self.deadline)
        with _Watchdog(ends) as watchdog:
            try:
                response = super().send(request, **dict(kwargs, stream=True, timeout=timeout))
                try:
                    content = self._read(response)
                except BaseException:
                    response.close()
                    raise
            except requests.exceptions.RequestException as exc:
                if not watchdog.fired:
                    if isinstance(exc, requests.exceptions.Timeout):
                        self.check_deadline(request.url)
                    raise
        if watchdog.fired:
            # what came before the socket was shut down is not all of the
            # answer, even when http.client took its end for the end of the
            # headers or of the body (the pool drops a connection shut down)
            self.check_deadline(request.url)
            raise requests.exceptions.ReadTimeout(
                "Read timed out: the answer did not end within the timeout", request=request
            )
        response._content = content
        response._content_consumed = True
        _cap_retry_after(response, self.deadline)
        return response

    def check_deadline(self, url: str | None) -> float:
        """The seconds left before the command's deadline; CommandTimeout
        (naming ``url``, the request it stops) once it has passed."""
        left = math.inf if self.deadline is None else self.deadline - time.monotonic()
        if left <= 0:
            raise exceptions.CommandTimeout(
                "Out of time: the command's %gs (command_timeout, --command-timeout "
                "or %s) passed at %s." % (self.command_timeout or 0, COMMAND_TIMEOUT_ENV, url)
            )
        return left

    def _read(self, response: requests.Response) -> bytes:
        """The body of ``response``, read a piece at a time: refused past
        the size limit. The ``Content-Length`` of an answer without a body
        (to a HEAD, a 204 or a 304) is the size of what a GET would answer
        (RFC 9110, 8.6), not of anything read: a HEAD of a 1 GiB Swift
        object is fine."""
        limit = self.max_response_size
        if "X-Subject-Token" in response.headers:
            limit = min(limit, MAX_TOKEN_SIZE)
        length = response.headers.get("Content-Length", "")
        bodiless = response.request.method == "HEAD" or response.status_code in (204, 304)
        if length.isdigit() and int(length) > limit and not bodiless:
            raise self._too_large(response, limit, "")
        raw = response.raw
        pieces: list[bytes] = []
        size = 0
        while True:
            piece = _read_piece(raw)
            if not piece:
                return b"".join(pieces)
            size += len(piece)
            if size > limit:
                raise self._too_large(response, limit, " once decompressed")
            if raw.tell() > limit:
                raise self._too_large(response, limit, "")
            pieces.append(piece)

    def _too_large(
        self, response: requests.Response, limit: int, how: str
    ) -> exceptions.ResponseTooLarge:
        token = limit < self.max_response_size
        return exceptions.ResponseTooLarge(
            "The answer from %s is larger than %s%s, the most occli reads%s."
            % (
                response.url,
                describe_size(limit),
                how,
                " of a token answer"
                if token
                else " (max_response_size, --max-response-size or %s)" % MAX_RESPONSE_SIZE_ENV,
            )
        )


class _HeadersOnly(requests.auth.AuthBase):
    """The session's auth: nothing but the headers keystoneauth1 sets.

    requests gives a request without an auth of its own the ``~/.netrc``
    (or ``$NETRC``) login for its host, as HTTP Basic: a password kept
    there for another use would go to the cloud, in every request. It also
    reads and parses that file on every request. A session with an auth
    of its own is given none."""

    def __call__(self, request: requests.PreparedRequest) -> requests.PreparedRequest:
        return request


class Session(ks_session.Session):
    """keystoneauth1's Session, following redirects itself.

    keystoneauth1 sends every header of a request (the token among them)
    again to whatever a ``Location`` names and, past its redirect limit,
    returns the last redirect as if it were the answer. Here a redirect to
    another host, scheme or port (by requests' ``should_strip_auth``; an
    ``http`` to ``https`` upgrade on the same host is followed) is refused
    with :class:`~occli.exceptions.RedirectRefused`, and so is the
    :data:`MAX_REDIRECTS` + 1st redirect. ``redirect=False`` (or 0) returns
    a redirect unfollowed, as keystoneauth1 does.
    """

    def request(
        self,
        url: str,
        method: str,
        json: object | None = None,
        original_ip: str | None = None,
        user_agent: str | None = None,
        redirect: int | bool | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> requests.Response:
        # keystoneauth1's parameters up to redirect, in its order
        given = (json, original_ip, user_agent)
        limit = self.redirect if redirect is None else redirect
        limit = MAX_REDIRECTS if limit is True else int(limit)
        response = super().request(url, method, *given, False, *args, **kwargs)
        history: list[requests.Response] = []
        while limit and response.status_code in _REDIRECTS and "Location" in response.headers:
            location = urljoin(response.url, response.headers["Location"])
            if len(history) >= limit:
                raise exceptions.RedirectRefused(
                    "%s %s was redirected more than %d times (a redirect loop?)."
                    % (method, history[0].url, limit)
                )
            if self.session.should_strip_auth(response.url, location):
                raise exceptions.RedirectRefused(
                    "%s %s was redirected to %s, another host: not followed, so that "
                    "no credentials go to a host the catalog did not name."
                    % (method, response.url, location)
                )
            history.append(response)
            kwargs.pop("params", None)  # the Location carries its own query
            response = super().request(location, method, *given, False, *args, **kwargs)
        if history:
            response.history = history
        return response


#: The watchdog of the request this thread is sending, if it has one, and
#: the callback :func:`when_sent` set.
_watched = threading.local()


class _Watchdog:
    """The end of one request at ``ends`` (a ``time.monotonic()``; None:
    no end): then the socket of the connection it went out on is shut
    down, so that whatever read blocks (connect, status line, headers or
    body, however slowly they come) returns at once; ``fired`` tells the
    request why it failed. While it is armed (``with``), the connection
    this thread sends on is watched (:meth:`watch`, by :class:`_Watched`);
    leaving ends its timer thread.
    """

    def __init__(self, ends: float | None) -> None:
        self.fired = False
        self.connection: connection.HTTPConnection | None = None
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        if ends is not None:
            self._timer = threading.Timer(max(ends - time.monotonic(), 0), self._fire)
            self._timer.daemon = True

    def __enter__(self) -> "_Watchdog":
        if self._timer is not None:
            _watched.watchdog = self
            self._timer.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._timer is not None:
            _watched.watchdog = None
            self._timer.cancel()
            self._timer.join()

    def watch(self, conn: connection.HTTPConnection) -> None:
        """Watch ``conn``, the connection the request goes out on (shut at
        once if the end has passed: it came while connecting)."""
        with self._lock:
            self.connection = conn
            if self.fired:
                _shut(conn)

    def _fire(self) -> None:
        with self._lock:
            self.fired = True
            if self.connection is not None:
                _shut(self.connection)


@contextlib.contextmanager
def when_sent(callback: Callable[[], None]) -> Iterator[None]:
    """Call ``callback`` each time a request this thread sends through a
    :class:`BoundedTransport` is on its way (its head and body written to
    the connection), before its answer is waited for: a thread sending a
    request for another (:class:`occli.paging.Ahead`) tells it when it may
    take the interpreter back."""
    _watched.sent = callback
    try:
        yield
    finally:
        _watched.sent = None


def _shut(conn: connection.HTTPConnection) -> None:
    sock = conn.sock
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # already closed


def _watch(conn: connection.HTTPConnection) -> None:
    watchdog = getattr(_watched, "watchdog", None)
    if watchdog is not None:
        watchdog.watch(conn)


def _fired() -> bool:
    watchdog = getattr(_watched, "watchdog", None)
    return watchdog is not None and watchdog.fired


class _Response(http.client.HTTPResponse):
    """http.client's response, whose status line and headers cut short by
    the watchdog time out: http.client would take the end of what came for
    the end of the headers (and urllib3 log their defects, a traceback)."""

    def begin(self) -> None:
        try:
            super().begin()
        except Exception:
            if _fired():
                raise TimeoutError("timed out") from None
            raise
        if _fired():
            raise TimeoutError("timed out")


class _Watched(connection.HTTPConnection):
    """A urllib3 connection that this thread's :class:`_Watchdog` watches
    from the time a request goes out on it (a new connection or one kept
    alive): put in front of urllib3's HTTP or HTTPS connection."""

    response_class: type[http.client.HTTPResponse] = _Response

    def request(self, *args: Any, **kwargs: Any) -> None:
        _watch(self)
        super().request(*args, **kwargs)
        sent = getattr(_watched, "sent", None)
        if sent is not None:
            sent()

    def connect(self) -> None:
        super().connect()
        _watch(self)


class _HTTPConnection(_Watched, connection.HTTPConnection):
    pass


class _HTTPSConnection(_Watched, connection.HTTPSConnection):
    pass


class _HTTPConnectionPool(connectionpool.HTTPConnectionPool):
    ConnectionCls = _HTTPConnection


class _HTTPSConnectionPool(connectionpool.HTTPSConnectionPool):
    ConnectionCls = _HTTPSConnection


_POOLS = {"http": _HTTPConnectionPool, "https": _HTTPSConnectionPool}


class _Adapter(ks_session.TCPKeepAliveAdapter):
    """keystoneauth1's adapter (TCP keep-alive) whose connections are
    :class:`_Watched` (through a proxy too)."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = _POOLS

    def proxy_manager_for(self, proxy: str, **proxy_kwargs: Any) -> poolmanager.PoolManager:
        manager = super().proxy_manager_for(proxy, **proxy_kwargs)
        if manager.pool_classes_by_scheme is poolmanager.pool_classes_by_scheme:
            manager.pool_classes_by_scheme = _POOLS  # not SOCKS's own
        return manager


def _total(timeout: _Timeout) -> float:
    """The seconds a requests ``timeout`` (a number or ``(connect, read)``)
    allows a whole request: its connect and read parts together."""
    if isinstance(timeout, tuple):
        return sum(t for t in timeout if t is not None) or math.inf
    return float(timeout)


def _shortened(timeout: _Timeout, left: float) -> float | tuple[float, ...]:
    if isinstance(timeout, tuple):
        return tuple(left if t is None else min(t, left) for t in timeout)
    return min(float(timeout), left)


def _read_piece(raw: "u3_response.HTTPResponse") -> bytes:
    """The next piece of a body, decompressed: whatever one read of the
    socket brings (a trickled one ends at the watchdog). urllib3's
    errors become requests' (as ``Response.iter_content`` makes them)."""
    from urllib3 import exceptions as u3

    try:
        return raw.read1(_PIECE, decode_content=True)
    except u3.ProtocolError as exc:
        raise requests.exceptions.ChunkedEncodingError(exc) from None
    except u3.DecodeError as exc:
        raise requests.exceptions.ContentDecodingError(exc) from None
    except u3.ReadTimeoutError as exc:
        raise requests.exceptions.ConnectionError(exc) from None
    except u3.SSLError as exc:
        raise requests.exceptions.SSLError(exc) from None


def _cap_retry_after(response: requests.Response, deadline: float | None) -> None:
    """``Retry-After`` of a 5xx (what keystoneauth1 sleeps before a retry)
    at most :data:`MAX_RETRY_AFTER` seconds, and never past ``deadline``;
    never negative."""
    value = response.headers.get("Retry-After")
    if response.status_code < 500 or value is None or not value.strip().lstrip("-").isdigit():
        return
    cap = MAX_RETRY_AFTER
    if deadline is not None:
        cap = min(cap, max(0, math.ceil(deadline - time.monotonic())))
    response.headers["Retry-After"] = str(min(max(int(value), 0), cap))
