"""Support statuses of resource types, properties and attributes (Heat's
``heat/engine/support.py``).

``GET /resource_types/{type}`` shows a type's status and the release it
dates from; a property or attribute whose status is ``HIDDEN`` (Heat keeps
it for old templates) is left out of the type's schema and of the
template ``…/template`` generates, yet still accepted in a template.
"""

from typing import Any

SUPPORT_STATUSES = (UNKNOWN, SUPPORTED, DEPRECATED, UNSUPPORTED, HIDDEN) = (
    "UNKNOWN",
    "SUPPORTED",
    "DEPRECATED",
    "UNSUPPORTED",
    "HIDDEN",
)


class SupportStatus:
    """A status, the version it holds from, a message and the status it
    replaced."""

    def __init__(
        self,
        status: str = SUPPORTED,
        message: str | None = None,
        version: str | None = None,
        previous_status: "SupportStatus | None" = None,
    ) -> None:
        if status not in SUPPORT_STATUSES:
            status, message = UNKNOWN, "Specified status is invalid, defaulting to %s" % UNKNOWN
            version, previous_status = None, None
        self.status = status
        self.message = message
        self.version = version
        self.previous_status = previous_status

    def __str__(self) -> str:
        return self.status

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "message": self.message,
            "version": self.version,
            "previous_status": self.previous_status.to_dict()
            if self.previous_status is not None
            else None,
        }


def status_of(value: Any) -> str:
    """The status text of ``value`` (a :class:`SupportStatus` or a text)."""
    return str(getattr(value, "status", value))
