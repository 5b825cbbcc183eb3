"""Compute API microversions: parsing the request headers and comparing.

The local cloud advertises microversions ``MIN_VERSION`` to ``MAX_VERSION``.
``MAX_VERSION`` is 2.96 (pinned availability zone in server views): the
newest version whose behaviour this emulator implements completely; 2.98
(embedded image properties), 2.100 (scheduler hints in views) and later are
not implemented, so they are answered with 406 like any unsupported version.
"""

import re

from occli.localcloud.app import HTTPError

MIN_VERSION = "2.1"
MAX_VERSION = "2.96"

NEW_HEADER = "OpenStack-API-Version"
LEGACY_HEADER = "X-OpenStack-Nova-API-Version"
SERVICE_TYPE = "compute"

_FORMAT = re.compile(r"^([1-9]\d*)\.([1-9]\d*|0)$")


class APIVersion:
    """A ``major.minor`` compute microversion, comparable with strings."""

    __slots__ = ("major", "minor")

    def __init__(self, text):
        match = _FORMAT.match(text)
        if not match:
            raise ValueError(text)
        self.major, self.minor = int(match.group(1)), int(match.group(2))

    def _key(self, other):
        if isinstance(other, str):
            other = APIVersion(other)
        return (self.major, self.minor), (other.major, other.minor)

    def __eq__(self, other):
        mine, theirs = self._key(other)
        return mine == theirs

    def __hash__(self):
        return hash((self.major, self.minor))

    def __lt__(self, other):
        mine, theirs = self._key(other)
        return mine < theirs

    def __le__(self, other):
        mine, theirs = self._key(other)
        return mine <= theirs

    def __gt__(self, other):
        mine, theirs = self._key(other)
        return mine > theirs

    def __ge__(self, other):
        mine, theirs = self._key(other)
        return mine >= theirs

    def __str__(self):
        return "%d.%d" % (self.major, self.minor)

    __repr__ = __str__

    def within(self, low, high=None):
        """True when ``low <= self <= high`` (``high`` None: no upper bound)."""
        return self >= low and (high is None or self <= high)


def requested(header):
    """The raw microversion text a request asks for, or None.

    ``header(name)`` returns a request header. ``OpenStack-API-Version``
    (``compute X``, possibly among other services) wins over the legacy
    ``X-OpenStack-Nova-API-Version``.
    """
    new = header(NEW_HEADER)
    if new:
        for item in new.split(","):
            parts = item.strip().split(None, 1)
            if len(parts) == 2 and parts[0].lower() == SERVICE_TYPE:
                return parts[1].strip()
    legacy = header(LEGACY_HEADER)
    return legacy.strip() if legacy else None


def negotiate(text):
    """The APIVersion for header value ``text``: 400 malformed, 406 unsupported."""
    if text is None:
        return APIVersion(MIN_VERSION)
    if text.lower() == "latest":
        return APIVersion(MAX_VERSION)
    try:
        version = APIVersion(text)
    except ValueError:
        raise HTTPError(
            400,
            "API Version String %s is of invalid format. Must "
            "be of format MajorNum.MinorNum." % text,
        ) from None
    if not version.within(MIN_VERSION, MAX_VERSION):
        # nova's 406 still echoes the version asked for in its headers
        raise HTTPError(
            406,
            "Version %s is not supported by the API. Minimum "
            "is %s and maximum is %s." % (text, MIN_VERSION, MAX_VERSION),
            headers=response_headers(version),
        )
    return version


def response_headers(version):
    """Headers every versioned compute response carries."""
    return {
        NEW_HEADER: "%s %s" % (SERVICE_TYPE, version),
        LEGACY_HEADER: str(version),
        "Vary": "%s, %s" % (NEW_HEADER, LEGACY_HEADER),
    }
