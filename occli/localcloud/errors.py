"""Domain errors: what a service's rules raise, with no HTTP in sight.

A rule says *what* went wrong (``NotFound("Instance x could not be
found.")``, ``Conflict(...)``); each class carries the status the real
service answers for it, as Nova's own exceptions carry a ``code``. The
WSGI application turns an uncaught ``Error`` into an HTTP error rendered in
the owning service's shape; an API layer that needs a different status or
extra headers catches the error and raises its own ``HTTPError``.
"""

from typing import Any


class Error(Exception):
    """A refused operation; ``code`` is the HTTP status it maps to."""

    code = 400

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra


class BadRequest(Error):
    code = 400


class Unauthorized(Error):
    code = 401


class Forbidden(Error):
    code = 403


class NotFound(Error):
    code = 404


class Conflict(Error):
    code = 409


class TooLarge(Error):
    code = 413


class OverLimit(Error):
    """Over a quota or a rate (Nova answers 403 for quotas, see its API)."""

    code = 403
