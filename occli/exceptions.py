"""Exceptions: one place builds them from HTTP responses.

``from_response`` understands the error bodies of nova
(``{"itemNotFound": {"code", "message"}}``), keystone and keystonemiddleware
(``{"error": {"code", "title", "message"}}``), heat
(``{"code", "title", "explanation", "error": {"type", "message"}}``) and
non-JSON bodies (HTML gateway pages, Swift's plain text).
"""

import re


class ClientException(Exception):
    """Base of every error occli raises."""

    http_status = None
    message = "Unknown error"
    #: The exit status of the ``occli`` command failing with this error.
    exit_code = 1

    def __init__(self, message=None, code=None, request_id=None, url=None,
                 method=None, details=None):
        self.message = message or self.message
        self.code = code if code is not None else self.http_status
        self.request_id = request_id
        self.url = url
        self.method = method
        self.details = details
        super().__init__(self.message)

    def __str__(self):
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

    def __init__(self, message=None, *args, params=(), **kwargs):
        self.template = message or self.message
        self.params = tuple(params)
        super().__init__(self._render({}), *args, **kwargs)

    def _render(self, names):
        text = self.template
        for param in self.params:
            text = text.replace("{%s}" % param, names.get(param, param))
        return text

    def rename(self, names):
        """Name the parameters as ``names`` maps them; returns the error."""
        self.message = self._render(names)
        self.args = (self.message,)
        return self

    def __str__(self):
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

    def __init__(self, *args, retry_after=0, **kwargs):
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


_BY_STATUS = {cls.http_status: cls for cls in (
    BadRequest, Unauthorized, Forbidden, NotFound, MethodNotAllowed,
    NotAcceptable, Conflict, OverLimit, RateLimit, InternalServerError,
    HTTPNotImplemented, ServiceUnavailable)}

_TAGS = re.compile(r"<[^>]+>")


def _message_from_body(body):
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


def _text_message(text):
    import html  # only an HTML error page needs it

    text = html.unescape(_TAGS.sub(" ", text or ""))
    text = " ".join(text.split())
    return text[:500] or None


def from_response(response, method=None, url=None):
    """Build the right ClientException for an error ``requests`` response."""
    status = response.status_code
    headers = response.headers
    request_id = (headers.get("x-openstack-request-id")
                  or headers.get("x-compute-request-id"))
    details = None
    try:
        body = response.json()
    except ValueError:
        message = _text_message(response.text)
    else:
        message, details = _message_from_body(body)
    cls = _BY_STATUS.get(status)
    if cls is None:
        cls = InternalServerError if status >= 500 else HTTPException
    kwargs = dict(message=message or response.reason or cls.message,
                  code=status, request_id=request_id, url=url, method=method,
                  details=details)
    if issubclass(cls, RetryAfterException):
        kwargs["retry_after"] = _retry_after(headers, details)
    return cls(**kwargs)


def _retry_after(headers, details):
    value = headers.get("retry-after")
    if value is None and isinstance(details, dict):
        value = details.get("retryAfter")
    try:
        return int(float(value))
    except (TypeError, ValueError):
        return 0
