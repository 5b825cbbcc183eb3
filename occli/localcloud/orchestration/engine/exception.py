"""Heat's runtime resource errors (``heat/common/exception.py``).

A resource plugin raises these when its physical resource failed; the
engine reports ``"<class name>: resources.<name>: <text>"`` as Heat does
(``Resource CREATE failed: ResourceInError: resources.server: Went to
status ERROR due to "Message: ..., Code: 500"``), so each class keeps
Heat's name and message format. Validation errors are not these: they are
``errors.BadRequest(..., type="StackValidationFailed")`` (a 400), made by
:func:`validation_failed` when they have Heat's error and path parts.
"""

from occli.localcloud import errors


class Error(Exception):
    """Heat's ``exception.Error``: a plain failure text."""


class ResourceInError(Exception):
    """The physical resource went to an error status."""

    def __init__(self, resource_status: str, status_reason: str = "Unknown") -> None:
        super().__init__('Went to status %s due to "%s"' % (resource_status, status_reason))
        self.resource_status = resource_status


class ResourceUnknownStatus(Exception):
    """The physical resource reached a status Heat does not expect."""

    def __init__(
        self,
        resource_status: str,
        result: str = "Resource failed",
        status_reason: str = "Unknown",
    ) -> None:
        super().__init__(
            '%s - Unknown status %s due to "%s"' % (result, resource_status, status_reason)
        )
        self.resource_status = resource_status


class PhysicalResourceExists(Exception):
    """A delete left the physical resource in place."""

    def __init__(self, name: str) -> None:
        super().__init__("The physical resource for (%s) exists." % name)


class EndpointNotFound(Exception):
    """A service the resource needs is not in the catalog (keystoneauth's
    text, what Heat reports for a transport whose API is not deployed:
    ``POLL_SERVER_CFN`` without heat-api-cfn, ``ZAQAR_MESSAGE`` without
    Zaqar)."""

    def __init__(self) -> None:
        super().__init__("Could not find requested endpoint in Service Catalog.")


class NotSupported(Exception):
    """A change the resource cannot make (``"Shrinking volume is not
    supported."``)."""

    def __init__(self, feature: str) -> None:
        super().__init__("%s is not supported." % feature)


class ResourceActionNotSupported(Exception):
    """An action the resource refuses in its present state."""

    def __init__(self, action: str) -> None:
        super().__init__("%s is not supported for resource." % action)


def validation_failed(error: str, path: str, message: str) -> errors.BadRequest:
    """Heat's ``StackValidationFailed(error=, path=, message=)``: the text
    ``<error>: <path>: <message>`` (either of the first two left out when
    empty), the parts kept so that :func:`over_rpc` can re-make it."""
    text = "%s%s%s" % ("%s: " % error if error else "", "%s: " % path if path else "", message)
    return errors.BadRequest(text, type="StackValidationFailed", parts=(error, path, message))


def over_rpc(exc: errors.Error) -> errors.Error:
    """``exc`` as Heat's API receives it from the engine: oslo.messaging
    re-makes a ``HeatExceptionWithPath`` from its formatted ``error`` and
    ``path``, so each adds its separator twice (``Property error: :
    resources.r.properties: : Unknown Property x``); ``POST /validate``
    answers the engine's text instead (single separators)."""
    parts = exc.extra.get("parts")
    if exc.extra.get("type") != "StackValidationFailed" or not parts:
        return exc
    error, path, message = parts
    return errors.BadRequest(
        "%s%s%s" % ("%s: : " % error if error else "", "%s: : " % path if path else "", message),
        type="StackValidationFailed",
    )
