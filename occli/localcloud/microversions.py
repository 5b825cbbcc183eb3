"""API microversions shared by the local cloud's services: the version
class, the ``OpenStack-API-Version`` header and the range check.

Each service keeps its own range, how it reads its header (nova and cinder
parse it differently) and what ``latest`` or no header mean; the texts here
are the ones nova's and cinder's ``api_version_request`` share.
"""

import functools
import re
from collections.abc import Callable

from occli.localcloud.app import HTTPError

# the header every service reads, ``<service type> <version>`` items
HEADER = "OpenStack-API-Version"

_FORMAT = re.compile(r"^([1-9]\d*)\.([1-9]\d*|0)$")


@functools.lru_cache(maxsize=512)
def _parsed(text: str) -> tuple[int, int]:
    """``(major, minor)`` of a version string compared with an APIVersion
    (the code's gates, a few dozen: a server view compares with ~20 per
    request), parsed once; ValueError if malformed."""
    version = APIVersion(text)
    return version.major, version.minor


class APIVersion:
    """A ``major.minor`` microversion, comparable with strings."""

    __slots__ = ("major", "minor")

    def __init__(self, text: str) -> None:
        match = _FORMAT.match(text)
        if not match:
            raise ValueError(text)
        self.major, self.minor = int(match.group(1)), int(match.group(2))

    def _key(self, other: "APIVersion | str") -> tuple[tuple[int, int], tuple[int, int]]:
        if isinstance(other, str):
            return (self.major, self.minor), _parsed(other)
        return (self.major, self.minor), (other.major, other.minor)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, APIVersion | str):
            return NotImplemented
        mine, theirs = self._key(other)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.major, self.minor))

    def __lt__(self, other: "APIVersion | str") -> bool:
        mine, theirs = self._key(other)
        return mine < theirs

    def __le__(self, other: "APIVersion | str") -> bool:
        mine, theirs = self._key(other)
        return mine <= theirs

    def __gt__(self, other: "APIVersion | str") -> bool:
        mine, theirs = self._key(other)
        return mine > theirs

    def __ge__(self, other: "APIVersion | str") -> bool:
        mine, theirs = self._key(other)
        return mine >= theirs

    def __str__(self) -> str:
        return "%d.%d" % (self.major, self.minor)

    __repr__ = __str__

    def within(self, low: "APIVersion | str", high: "APIVersion | str | None" = None) -> bool:
        """True when ``low <= self <= high`` (``high`` None: no upper bound)."""
        return self >= low and (high is None or self <= high)


def check(
    text: str,
    low: str,
    high: str,
    headers: Callable[[APIVersion], dict[str, str]] | None = None,
) -> APIVersion:
    """The APIVersion ``text`` names, between ``low`` and ``high``: 400 when
    malformed, 406 outside the range (its response carrying
    ``headers(version)`` when given)."""
    try:
        version = APIVersion(text)
    except ValueError:
        # nova/cinder api_version_request: InvalidAPIVersionString
        raise HTTPError(
            400,
            "API Version String %s is of invalid format. Must be of format MajorNum.MinorNum."
            % text,
        ) from None
    if not version.within(low, high):
        # nova/cinder exception.InvalidGlobalAPIVersion
        raise HTTPError(
            406,
            "Version %s is not supported by the API. Minimum is %s and maximum is %s."
            % (version, low, high),
            headers=headers(version) if headers is not None else None,
        )
    return version
