"""Values as heat stores them, shared by the orchestration rules.

String columns take text or a number (coerced like oslo's ``StringField``);
anything else, or text with a lone surrogate, is a 400 here where heat would
fail in its database layer. Errors carry heat's error ``type``.
"""

import json
from collections.abc import Iterable

from occli.localcloud import common
from occli.localcloud import errors

IN_PROGRESS, COMPLETE, FAILED = "IN_PROGRESS", "COMPLETE", "FAILED"

# deepest nesting of containers accepted in request bodies, signal data and
# templates (Python recursion in parsers and ``repr`` fails near 1000).
MAX_NESTING = 100


class Unmapped(errors.Error):
    """An exception heat's FaultWrapper does not map to a 4xx, so heat
    answers 500 with its name as the error ``type`` (the API lists each
    one in ``HEAT_PARITY_500S``)."""

    code = 500


def now():
    """The current time as POSIX seconds (rows store REAL timestamps)."""
    return common.utcnow().timestamp()


def loads(text):
    return None if text is None else json.loads(text)


def dumps(value):
    return None if value is None else json.dumps(value)


def string_field(value, field):
    """``value`` as heat stores a string column, or a 400.

    None stays None; numbers become text as oslo's ``StringField`` coerces
    them; objects and lists are refused, and so is text that cannot be
    stored as UTF-8 (a lone surrogate), instead of failing in the database.
    """
    if value is None:
        return None
    if isinstance(value, (int, float)):
        value = str(value)
    if not isinstance(value, str):
        raise errors.BadRequest(
            "A string is required in field %s, not a %s" % (field, type(value).__name__),
            type="ValueError",
        )
    return utf8_text(value, field)


def utf8_text(text, field):
    """``text`` if it encodes to UTF-8, else a 400 naming ``field``."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise errors.BadRequest(
            "Field %s is not valid UTF-8 text" % field, type="ValueError"
        ) from None
    return text


def reason_field(value):
    """``status_reason`` as heat stores it: ``str(value)``."""
    return utf8_text(str(value), "status_reason")


def too_deep(value, limit=MAX_NESTING):
    """Whether JSON-like ``value`` nests more than ``limit`` containers.

    Iterative, so no recursion limit can be hit while checking.
    """
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children: Iterable[object]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False
