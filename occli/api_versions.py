"""Compute API microversions: parsing, comparison and negotiation.

occli supports compute microversions ``MIN_VERSION`` to ``MAX_VERSION``. The
client uses the highest version both it and the server support, unless the
user pins one (``--os-compute-api-version 2.x`` or ``latest``, which means the
client's maximum capped by the server's).
"""

import functools
import re
from collections.abc import Iterable

from occli import exceptions

MIN_VERSION = "2.1"
MAX_VERSION = "2.96"

_VERSION_RE = re.compile(r"^(\d+)\.(\d+|latest)$")


@functools.total_ordering
class APIVersion:
    """A ``major.minor`` microversion; ``2.latest`` compares above all."""

    major: int
    minor: int | float  # infinity for "latest"

    def __init__(self, version: "str | APIVersion" = "2.1") -> None:
        if isinstance(version, APIVersion):
            self.major, self.minor = version.major, version.minor
            return
        text = str(version).strip()
        if text == "latest":
            text = "2.latest"
        match = _VERSION_RE.match(text)
        if not match:
            raise exceptions.UnsupportedVersion(
                "Invalid compute API version %r: expected 'X.Y' or 'latest'." % version
            )
        self.major = int(match.group(1))
        minor = match.group(2)
        self.minor = float("inf") if minor == "latest" else int(minor)

    @property
    def is_latest(self) -> bool:
        return self.minor == float("inf")

    def _key(self) -> tuple[int, int | float]:
        return (self.major, self.minor)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, APIVersion | str):
            return NotImplemented
        return self._key() == APIVersion(other)._key()

    def __lt__(self, other: "str | APIVersion") -> bool:
        return self._key() < APIVersion(other)._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        return "%d.%s" % (self.major, "latest" if self.is_latest else self.minor)

    def __repr__(self) -> str:
        return "<APIVersion %s>" % self

    def matches(
        self, start: "str | APIVersion | None" = None, end: "str | APIVersion | None" = None
    ) -> bool:
        """True when ``start <= self <= end`` (either bound optional)."""
        if start is not None and self < APIVersion(start):
            return False
        return end is None or self <= APIVersion(end)


def negotiate(
    requested: str | APIVersion | None,
    server_min: str | APIVersion | None,
    server_max: str | APIVersion | None,
) -> APIVersion:
    """The version to use given the user's request and the server's range.

    ``requested`` is None (negotiate the highest common version), ``latest``,
    or a pinned version that must lie within both ranges.
    """
    client_min, client_max = APIVersion(MIN_VERSION), APIVersion(MAX_VERSION)
    if not server_max:
        # legacy v2 endpoint without microversions
        return APIVersion("2.0") if requested is None else APIVersion(requested)
    server_min = APIVersion(server_min or MIN_VERSION)
    server_max = APIVersion(server_max)
    if requested is None or APIVersion(requested).is_latest:
        best = min(client_max, server_max)
        if best < max(client_min, server_min):
            raise exceptions.UnsupportedVersion(
                "No compute API version in common: client supports %s-%s, "
                "server %s-%s." % (client_min, client_max, server_min, server_max)
            )
        return best
    version = APIVersion(requested)
    if not version.matches(client_min, client_max):
        raise exceptions.UnsupportedVersion(
            "Compute API version %s is not supported by occli (%s-%s)."
            % (version, client_min, client_max)
        )
    if not version.matches(server_min, server_max):
        raise exceptions.UnsupportedVersion(
            "Compute API version %s is not supported by the server (%s-%s)."
            % (version, server_min, server_max)
        )
    return version


def require(
    version: str | APIVersion,
    start: str | APIVersion,
    end: str | APIVersion | None = None,
    what: str = "this feature",
    pinned: bool = False,
    params: Iterable[str] = (),
) -> None:
    """Raise UnsupportedVersion unless ``start <= version <= end``.

    The one wording of every microversion error. ``pinned`` says the user
    chose ``version``, so the advice is to change that choice rather than
    to pin one; ``params`` are the ``{name}`` fields of ``what`` (see
    :class:`occli.exceptions.CommandError`).
    """
    version = APIVersion(version)
    if version.matches(start, end):
        return
    if end is None:
        need = "%s or later" % start
    else:
        need = "between %s and %s" % (start, end)
    advice = (
        "change --os-compute-api-version"
        if pinned
        else "pin a version with --os-compute-api-version"
    )
    raise exceptions.UnsupportedVersion(
        "%s requires compute API version %s (in use: %s); %s."
        % (what[:1].upper() + what[1:], need, version, advice),
        params=params,
    )
