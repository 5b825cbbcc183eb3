"""Compute API microversions: nova's range, headers and negotiation.

The local cloud advertises microversions ``MIN_VERSION`` to ``MAX_VERSION``.
``MAX_VERSION`` is 2.96 (pinned availability zone in server views): the
newest version whose behaviour this emulator implements completely; 2.98
(embedded image properties), 2.100 (scheduler hints in views) and later are
not implemented, so they are answered with 406 like any unsupported version.
The version class and the range check are the shared
:mod:`occli.localcloud.microversions`.
"""

from collections.abc import Callable

from occli.localcloud import microversions
from occli.localcloud.microversions import APIVersion

MIN_VERSION = "2.1"
MAX_VERSION = "2.96"

NEW_HEADER = microversions.HEADER
LEGACY_HEADER = "X-OpenStack-Nova-API-Version"
SERVICE_TYPE = "compute"


def requested(header: Callable[[str], str | None]) -> str | None:
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


def negotiate(text: str | None) -> APIVersion:
    """The APIVersion for header value ``text``: 400 malformed, 406 unsupported
    (nova's 406 still echoes the version asked for in its headers)."""
    if text is None:
        return APIVersion(MIN_VERSION)
    if text.lower() == "latest":
        return APIVersion(MAX_VERSION)
    return microversions.check(text, MIN_VERSION, MAX_VERSION, response_headers)


def response_headers(version: APIVersion) -> dict[str, str]:
    """Headers every versioned compute response carries."""
    return {
        NEW_HEADER: "%s %s" % (SERVICE_TYPE, version),
        LEGACY_HEADER: str(version),
        "Vary": "%s, %s" % (NEW_HEADER, LEGACY_HEADER),
    }
