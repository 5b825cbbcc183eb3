"""Request validation shared by the local cloud's services: one jsonschema
format checker, one compiled validator per schema, the 400 texts the
services word from a schema error, and the coercions several services
write alike (oslo's ``bool_from_string``, a uuid's parse).

Nova, Cinder and Keystone check bodies with jsonschema; where they differ
a parameter chooses, never a second copy:

* which error: nova's and keystone's ``validate()`` report the first one
  ``iter_errors`` yields (in the schema's keyword and property order),
  cinder's the one ``jsonschema.exceptions.best_match`` picks (``BEST``);
* the text: :func:`field_text` (nova, cinder, ``keystone.api.validation``)
  or :func:`path_text` (``keystone.common.validation``, older);
* the draft: 4 (the local cloud's nova and cinder schemas) or 2020-12
  (keystone's).

Network keeps neutron-lib's validator functions (``network/attributes.py``),
whose texts are not jsonschema's. jsonschema (a ``localcloud`` extra) is
imported on first use, so importing a service does not import it.
"""

import base64
import binascii
import functools
import ipaddress
import re
import threading
import uuid
from collections.abc import Callable
from collections.abc import Mapping
from typing import Any

from occli.localcloud import errors

FIRST = "first"
BEST = "best"
DRAFT4 = "draft4"
DRAFT2020_12 = "draft2020-12"

# oslo.utils ``strutils``: what ``bool_from_string`` reads as true, false
TRUE_STRINGS = ("1", "t", "true", "on", "y", "yes")
FALSE_STRINGS = ("0", "f", "false", "off", "n", "no")

# the format of each name the schemas use, on strings (other values pass:
# the ``type`` keyword refuses them); ipv4, ipv6 and hostname replace
# jsonschema's own checks, the other formats jsonschema knows stay
FORMATS: dict[str, Callable[[str], bool]] = {}

_NAME_BAD_EDGES = re.compile(r"^\s|\s$")
_HOSTNAME = re.compile(r"^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$")
_FQDN = re.compile(
    r"^(?=.{1,255}$)[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?"
    r"(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$"
)
# compiled validators by (id(schema), draft); each holds its schema, so an
# id is not reused while its entry lives; the oldest go past the bound
_CACHE_SIZE = 512
_validators: dict[tuple[int, str], Any] = {}
_validators_lock = threading.Lock()


def is_uuid(value: object) -> bool:
    """Whether ``str(value)`` parses as a uuid (``uuid.UUID``: dashes,
    braces and a ``urn:uuid:`` prefix optional)."""
    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return True


def bool_from_string(subject: object, strict: bool = False, default: bool = False) -> bool:
    """oslo's ``strutils.bool_from_string``: a bool as is, text (stripped,
    any case) in :data:`TRUE_STRINGS` or :data:`FALSE_STRINGS`; anything
    else ``default``, or ValueError with oslo's text when ``strict``."""
    if isinstance(subject, bool):
        return subject
    text = subject if isinstance(subject, str) else str(subject)
    lowered = text.strip().lower()
    if lowered in TRUE_STRINGS:
        return True
    if lowered in FALSE_STRINGS:
        return False
    if strict:
        acceptable = ", ".join("'%s'" % s for s in sorted(TRUE_STRINGS + FALSE_STRINGS))
        raise ValueError("Unrecognized value '%s', acceptable values are: %s" % (text, acceptable))
    return default


def _format(name: str) -> Callable[[Callable[[str], bool]], Callable[[str], bool]]:
    def register(check: Callable[[str], bool]) -> Callable[[str], bool]:
        FORMATS[name] = check
        return check

    return register


@_format("uuid")
def _uuid(value: str) -> bool:
    return is_uuid(value)


@_format("name")
def _name(value: str) -> bool:
    """nova's ``name``: printable, no space at either end."""
    return value.isprintable() and not _NAME_BAD_EDGES.search(value)


@_format("az_name")
def _az_name(value: str) -> bool:
    """nova's availability zone name: a ``name`` without ``:``."""
    return _name(value) and ":" not in value


@_format("name_or_description")
def _name_or_description(value: str) -> bool:
    """cinder's ``_validate_string_length`` (remove_whitespaces): at most
    255 characters once stripped."""
    return len(value.strip()) <= 255


@_format("base64")
def _base64(value: str) -> bool:
    try:
        base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


@_format("ipv4")
def _ipv4(value: str) -> bool:
    try:
        ipaddress.IPv4Address(value)
    except ValueError:
        return False
    return True


@_format("ipv6")
def _ipv6(value: str) -> bool:
    try:
        ipaddress.IPv6Address(value)
    except ValueError:
        return False
    return True


@_format("hostname")
def _hostname(value: str) -> bool:
    return bool(_HOSTNAME.match(value))


@_format("fqdn")
def _fqdn(value: str) -> bool:
    return bool(_FQDN.match(value))


def _on_strings(check: Callable[[str], bool]) -> Callable[[object], bool]:
    return lambda value: not isinstance(value, str) or check(value)


@functools.cache
def format_checker() -> Any:
    """The one ``jsonschema.FormatChecker``: jsonschema's formats with
    :data:`FORMATS` over them."""
    import jsonschema

    checker = jsonschema.FormatChecker()
    for name, check in FORMATS.items():
        checker.checks(name)(_on_strings(check))
    return checker


def validator(schema: Mapping[str, Any], draft: str = DRAFT4) -> Any:
    """The validator of ``schema`` in ``draft``, with :func:`format_checker`,
    built once per schema object (schemas are module constants or built
    once per microversion)."""
    key = (id(schema), draft)
    found = _validators.get(key)
    if found is not None and found.schema is schema:
        return found
    import jsonschema

    cls = {DRAFT4: jsonschema.Draft4Validator, DRAFT2020_12: jsonschema.Draft202012Validator}
    built = cls[draft](schema, format_checker=format_checker())
    with _validators_lock:
        if len(_validators) >= _CACHE_SIZE:
            del _validators[next(iter(_validators))]
        _validators[key] = built
    return built


def first_error(
    schema: Mapping[str, Any], body: object, order: str = FIRST, draft: str = DRAFT4
) -> Any:
    """The error of ``body`` against ``schema`` a service reports (``order``
    :data:`FIRST` or :data:`BEST`), or None when it is valid."""
    found = validator(schema, draft).iter_errors(body)
    if order == BEST:
        from jsonschema.exceptions import best_match

        return best_match(found)
    return next(iter(found), None)


def field_text(error: Any) -> str:
    """``Invalid input for field/attribute <key>. Value: <value>. <message>``
    (nova, cinder, ``keystone.api.validation``), the bare message for an
    error at the top level (``'server' is a required property``)."""
    if error.path:
        return "Invalid input for field/attribute %s. Value: %s. %s" % (
            error.path[-1],
            error.instance,
            error.message,
        )
    return error.message


def path_text(error: Any) -> str:
    """``keystone.common.validation``'s older text: jsonschema's whole one,
    after ``Invalid input for field '<a/b>':`` when the error has a path."""
    if error.path:
        return "Invalid input for field '%s': %s" % ("/".join(str(p) for p in error.path), error)
    return str(error)


def check(
    schema: Mapping[str, Any],
    body: Any,
    order: str = FIRST,
    draft: str = DRAFT4,
    text: Callable[[Any], str] = field_text,
) -> Any:
    """``body`` when it is valid for ``schema``, else BadRequest with the
    ``text`` of the error ``order`` picks: what a service's
    ``@validation.schema`` answers."""
    error = first_error(schema, body, order, draft)
    if error is None:
        return body
    raise errors.BadRequest(text(error))
