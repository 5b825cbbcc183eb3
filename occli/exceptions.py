"""Exceptions: one place builds them from HTTP responses.

``from_response`` understands the error bodies of nova
(``{"itemNotFound": {"code", "message"}}``), keystone and keystonemiddleware
(``{"error": {"code", "title", "message"}}``), heat
(``{"code", "title", "explanation", "error": {"type", "message"}}``) and
non-JSON bodies (HTML gateway pages, Swift's plain text).
"""

import re
from collections.abc import Iterable
from collections.abc import Mapping
from typing import TYPE_CHECKING
from typing import Any
from typing import Protocol

if TYPE_CHECKING:
    import requests


class ClientException(Exception):
    """Base of every error occli raises."""

    http_status: int | None = None
    message = "Unknown error"
    #: The exit status of the ``occli`` command failing with this error.
    exit_code = 1

    def __init__(
        self,
        message: str | None = None,
        code: int | None = None,
        request_id: str | None = None,
        url: str | None = None,
        method: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        self.message = message or self.message
        self.code = code if code is not None else self.http_status
        self.request_id = request_id
        self.url = url
        self.method = method
        self.details = details
        super().__init__(self.message)

    def __str__(self) -> str:
        text = self.message
        if self.code:
            text += " (HTTP %s)" % self.code
        if self.request_id:
            text += " (Request-ID: %s)" % self.request_id
        return text


class CommandError(ClientException):
    """A usage or input problem found by the client before any request.

    The message may name arguments as ``{name}`` for each name in
    ``params``: they read as the names themselves (an SDK user's keywords)
    until :meth:`rename` gives them the caller's names (the CLI's options).
    """

    def __init__(
        self, message: str | None = None, *args: Any, params: Iterable[str] = (), **kwargs: Any
    ) -> None:
        self.template = message or self.message
        self.params = tuple(params)
        super().__init__(self._render({}), *args, **kwargs)

    def _render(self, names: Mapping[str, str]) -> str:
        text = self.template
        for param in self.params:
            text = text.replace("{%s}" % param, names.get(param, param))
        return text

    def rename(self, names: Mapping[str, str]) -> "CommandError":
        """Name the parameters as ``names`` maps them; returns the error."""
        self.message = self._render(names)
        self.args = (self.message,)
        return self

    def __str__(self) -> str:
        return self.message


class ValidationError(CommandError):
    """Arguments refused before any request: a usage error (exit 2)."""

    exit_code = 2


class NoUniqueMatch(CommandError):
    """A name matches more than one resource."""


class UnsupportedVersion(CommandError):
    """The requested microversion is not supported by client or server."""


class WaitTimeout(ClientException):
    """A ``--wait`` ran out of time."""


class ResourceInErrorState(ClientException):
    """A waited-for resource went to an error state."""


class WaitFailed(ClientException):
    """Waiting failed after the request waited for was accepted."""


class ConnectionFailed(ClientException):
    """The cloud could not be reached (refused, no route, DNS, timeout)."""


class ResponseTooLarge(ClientException):
    """An answer larger than the client reads (``max_response_size``)."""


class CommandTimeout(ClientException):
    """The whole command ran out of time (``command_timeout``)."""


class RedirectRefused(ClientException):
    """A redirect not followed: a loop, or to a host the catalog did not name."""


class UnexpectedResponse(ClientException):
    """A successful answer whose body is not the shape the API documents."""


#: The longest message taken from an answer that an error shows.
MAX_MESSAGE = 512


def shortened(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` cut to ``limit`` characters ("…" ending a cut one): a
    server's message must not flood the terminal."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


#: The URL in keystoneauth1's wording of a failure (session.py:
#: "Unable to establish connection to {url}: {e}", "Request to {url} timed
#: out", "Unexpected exception for {url}: {e}"), or in a library's own.
_CONNECT_URL = re.compile(
    r"(?:Unable to establish connection to|Request to|Unexpected exception for"
    r"|connection to) (\S+?):? ",
    re.I,
)


#: How urllib3 and http.client word a connection closed in the middle of
#: an answer ("Connection aborted.", "Connection broken: IncompleteRead").
_DROPPED = re.compile(r"Connection (?:aborted|broken)|RemoteDisconnected|reset by peer")


class CloudFacts(Protocol):
    """What a connection failure's message reads of the cloud it was for:
    a :class:`occli.config.CloudConfig` (which this module, below the
    configuration, does not import)."""

    name: str
    auth: dict[str, Any]

    @property
    def is_localcloud(self) -> bool: ...


def from_connect_failure(
    exc: BaseException, cloud_config: CloudFacts | None = None
) -> ConnectionFailed | None:
    """A :class:`ConnectionFailed` naming the URL that could not be
    reached, or None when ``exc`` (a keystoneauth1 error) is not a failure
    to connect. ``cloud_config``: the resolved cloud; when it is occli's
    local cloud the advice is to check it with ``occli-localcloud
    status``."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    text = str(exc)
    dropped = _DROPPED.search(text)
    if not (
        names & {"ConnectFailure", "ConnectTimeout", "ConnectionError"}
        or ("DiscoveryFailure" in names and "Unable to establish connection" in text)
        or ("UnknownConnectionError" in names and dropped)
    ):
        return None
    match = _CONNECT_URL.search(text)
    url = match.group(1) if match else None
    if url is None and cloud_config is not None:
        url = (cloud_config.auth or {}).get("auth_url")
    lowered = text.lower()
    if "refused" in lowered:
        reason = "connection refused"
    elif "timed out" in lowered or "Timeout" in type(exc).__name__:
        reason = "timed out"
    elif dropped:
        reason = "connection dropped"
    else:
        reason = "no connection"
    name = getattr(cloud_config, "name", None)
    if name == "envvars":  # no cloud named: the OS_* variables
        name = None
    message = "Cannot reach %s%s (%s)." % (
        "cloud %r at " % name if name else "",
        url or "the cloud",
        reason,
    )
    if cloud_config is not None and cloud_config.is_localcloud:
        message += (
            " It is occli's local cloud: is it running? Check with 'occli-localcloud status'."
        )
    else:
        message += " Check the URL, your network and that the cloud is up."
    return ConnectionFailed(message, url=url)


class HTTPException(ClientException):
    """An HTTP error answered by the cloud."""


class BadRequest(HTTPException):
    http_status = 400
    message = "Bad request"


class Unauthorized(HTTPException):
    http_status = 401
    message = "Unauthorized"


class Forbidden(HTTPException):
    http_status = 403
    message = "Forbidden"


class NotFound(HTTPException):
    http_status = 404
    message = "Not found"


class MethodNotAllowed(HTTPException):
    http_status = 405
    message = "Method not allowed"


class NotAcceptable(HTTPException):
    http_status = 406
    message = "Not acceptable"


class Conflict(HTTPException):
    http_status = 409
    message = "Conflict"


class RetryAfterException(HTTPException):
    """An error that tells when to try again (``Retry-After``)."""

    def __init__(self, *args: Any, retry_after: int = 0, **kwargs: Any) -> None:
        self.retry_after = retry_after
        super().__init__(*args, **kwargs)


class OverLimit(RetryAfterException):
    http_status = 413
    message = "Over limit"


class RateLimit(RetryAfterException):
    http_status = 429
    message = "Rate limit"


class InternalServerError(HTTPException):
    http_status = 500
    message = "Internal server error"


class HTTPNotImplemented(HTTPException):
    http_status = 501
    message = "Not implemented"


class ServiceUnavailable(HTTPException):
    http_status = 503
    message = "Service unavailable"


_BY_STATUS: dict[int | None, type[HTTPException]] = {
    cls.http_status: cls
    for cls in (
        BadRequest,
        Unauthorized,
        Forbidden,
        NotFound,
        MethodNotAllowed,
        NotAcceptable,
        Conflict,
        OverLimit,
        RateLimit,
        InternalServerError,
        HTTPNotImplemented,
        ServiceUnavailable,
    )
}

_TAGS = re.compile(r"<[^>]+>")


def _message_from_body(body: object) -> tuple[object, dict[str, Any] | None]:
    """The human message of a nova, keystone or heat error body."""
    if not isinstance(body, dict) or not body:
        return None, None
    error = body.get("error")
    if isinstance(error, dict):
        # heat: the useful text is error.message; keystone: error.message
        message = error.get("message") or body.get("explanation") or error.get("title")
        return message, error
    if len(body) == 1:
        # nova: {"itemNotFound": {"code": 404, "message": "..."}}
        inner = next(iter(body.values()))
        if isinstance(inner, dict):
            return inner.get("message"), inner
    return body.get("message") or body.get("title"), body


def _text_message(text: str | None) -> str | None:
    import html  # only an HTML error page needs it

    # an HTML page's text starts within its first 64 KiB; never scan more
    text = html.unescape(_TAGS.sub(" ", (text or "")[:65536]))
    text = " ".join(text.split())
    return text or None


def from_response(
    response: "requests.Response", method: str | None = None, url: str | None = None
) -> HTTPException:
    """Build the right ClientException for an error ``requests`` response."""
    status = response.status_code
    headers = response.headers
    request_id = headers.get("x-openstack-request-id") or headers.get("x-compute-request-id")
    details = None
    message: object  # any JSON value, until checked below
    try:
        body = response.json()
    except ValueError:
        message = _text_message(response.text)
    else:
        message, details = _message_from_body(body)
    cls = _BY_STATUS.get(status)
    if cls is None:
        cls = InternalServerError if status >= 500 else HTTPException
    if not isinstance(message, str):
        message = None
    kwargs: dict[str, Any] = dict(
        message=shortened(message or response.reason or cls.message),
        code=status,
        request_id=request_id,
        url=url,
        method=method,
        details=details,
    )
    if issubclass(cls, RetryAfterException):
        kwargs["retry_after"] = _retry_after(headers, details)
    if status == 403 and _POLICY_REFUSAL.search(kwargs["message"]):
        kwargs["message"] += POLICY_HINT
    return cls(**kwargs)


#: How nova ("Policy doesn't allow os_compute_api:... to be performed."),
#: keystone ("You are not authorized to perform the requested action:
#: identity:list_users.") and heat word a refusal by policy.
_POLICY_REFUSAL = re.compile(
    r"Policy doesn't allow|is disallowed by policy"
    r"|not authorized to perform the requested action: [\w.-]+:[\w:.-]+",
    re.I,
)
POLICY_HINT = " (this operation needs the admin role, or another role the cloud's policy allows)"


def _retry_after(headers: Mapping[str, str], details: dict[str, Any] | None) -> int:
    value: Any = headers.get("retry-after")  # text or a number, as the server sent it
    if value is None and isinstance(details, dict):
        value = details.get("retryAfter")
    try:
        return int(float(value))
    except (TypeError, ValueError):
        return 0
