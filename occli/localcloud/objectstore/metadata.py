"""Swift's user metadata (``X-<Account|Container|Object>-Meta-<name>``):
its limits and how a POST or PUT merges into what is stored.

The limits and texts are Swift's defaults (``swift/common/constraints.py``
``check_metadata`` for the headers a request sends, ``swift/common/db.py``
``validate_metadata`` for what an account or container then holds); each
refusal is a 400 whose plain-text body is the error's ``text``. Names are
stored lower-case without their prefix (``temp-url-key``).
"""

from occli.localcloud import errors

MAX_META_NAME_LENGTH = 128
MAX_META_VALUE_LENGTH = 256
MAX_META_COUNT = 90
MAX_META_OVERALL_SIZE = 4096


def _refuse(text: str) -> errors.BadRequest:
    return errors.BadRequest(text, text=text)


def check(kind: str, sent: dict[str, str]) -> None:
    """BadRequest unless the ``sent`` metadata (name without its prefix:
    value, empty values included, as the request's headers hold them) of a
    ``kind`` (account, container, object) is within Swift's limits."""
    prefix = "x-%s-meta-" % kind
    size = 0
    for count, (name, value) in enumerate(sent.items(), 1):
        if not name:
            raise _refuse("Metadata name cannot be empty")
        size += len(name) + len(value)
        if len(name) > MAX_META_NAME_LENGTH:
            raise _refuse("Metadata name too long: %s%s" % (prefix, name.title()))
        if len(value) > MAX_META_VALUE_LENGTH:
            too_long = (MAX_META_VALUE_LENGTH, prefix, name.title())
            raise _refuse("Metadata value longer than %d: %s%s" % too_long)
        if count > MAX_META_COUNT:
            raise _refuse("Too many metadata items; max %d" % MAX_META_COUNT)
        if size > MAX_META_OVERALL_SIZE:
            raise _refuse("Total metadata too large; max %d" % MAX_META_OVERALL_SIZE)


def check_stored(meta: dict[str, str]) -> None:
    """BadRequest if an account's or container's merged metadata ``meta``
    holds more items or bytes than Swift's database keeps."""
    if len(meta) > MAX_META_COUNT:
        raise _refuse("Too many metadata items; max %d" % MAX_META_COUNT)
    if sum(len(k) + len(v) for k, v in meta.items()) > MAX_META_OVERALL_SIZE:
        raise _refuse("Total metadata too large; max %d" % MAX_META_OVERALL_SIZE)


def merged(meta: dict[str, str], set_: dict[str, str], remove=()) -> dict[str, str]:
    """``meta`` without the names in ``remove``, then with ``set_`` (an
    empty value removes its name, as in Swift)."""
    for key in remove:
        meta.pop(key, None)
    for key, value in set_.items():
        if value:
            meta[key] = value
        else:
            meta.pop(key, None)
    return meta
