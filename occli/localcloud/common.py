"""Small helpers shared by the local cloud's services: time, ids, hashing,
who asks."""

import datetime
import hashlib
import uuid
from collections.abc import Callable
from http import HTTPStatus
from typing import Protocol


class Asker(Protocol):
    """Who asks, as a service's rules see them: a token's
    :class:`~occli.localcloud.app.Context`, compute's
    :class:`~occli.localcloud.compute.caller.Caller` or nova's elevated
    context; what one service hands another's rules as the caller."""

    @property
    def project_id(self) -> str | None: ...

    @property
    def user_id(self) -> str | None: ...

    @property
    def is_admin(self) -> bool: ...


_clock: Callable[[], datetime.datetime] | None = None


def utcnow() -> datetime.datetime:
    """The current time as an aware UTC datetime (see :func:`set_clock`)."""
    if _clock is not None:
        return _clock()
    return datetime.datetime.now(datetime.timezone.utc)


def set_clock(clock: Callable[[], datetime.datetime] | None) -> None:
    """Make :func:`utcnow` return ``clock()``; ``None`` restores the real clock.

    Meant for tests that need tokens to expire or builds to finish.
    """
    global _clock
    _clock = clock


def _utc(dt: datetime.datetime) -> datetime.datetime:
    if dt.tzinfo is None:
        return dt
    return dt.astimezone(datetime.timezone.utc).replace(tzinfo=None)


def iso_z(dt: datetime.datetime) -> str:
    """``2013-02-07T18:40:59Z`` (nova, glance and heat timestamps)."""
    return _utc(dt).strftime("%Y-%m-%dT%H:%M:%SZ")


def iso_naive_micro(dt: datetime.datetime) -> str:
    """``2016-12-27T23:47:30.563527`` (nova's OS-SRV-USG timestamps)."""
    return _utc(dt).strftime("%Y-%m-%dT%H:%M:%S.%f")


def iso_micro_z(dt: datetime.datetime) -> str:
    """``2015-11-07T02:58:43.578887Z`` (keystone token timestamps)."""
    return _utc(dt).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def from_timestamp(seconds: float) -> datetime.datetime:
    """An aware UTC datetime from POSIX seconds."""
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)


def new_uuid() -> str:
    """A random UUID in its dashed string form."""
    return str(uuid.uuid4())


def hash_token(token: str) -> str:
    """The sha256 hex digest under which a token is stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def reason(status: int) -> str:
    """The HTTP reason phrase of ``status`` (``"Error"`` if unknown)."""
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


# the range of SQLite's INTEGER: a larger Python int cannot be bound
# (OverflowError "Python int too large to convert to SQLite INTEGER")
SQLITE_INTEGER_MAX = 2**63 - 1


def fits_integer(number: int) -> bool:
    """Whether ``number`` can be stored in (or compared with) an INTEGER
    column: an id outside that range names no row."""
    return -SQLITE_INTEGER_MAX - 1 <= number <= SQLITE_INTEGER_MAX
