"""Reading the local files that command options name (``--user-data``,
``--file``, ``--config-file``, ``--stdout``…): what cannot be read is a
usage error naming the option."""

import sys

from occli import exceptions


def read_bytes(path: str, option: str, limit: int | None = None) -> bytes:
    """The bytes of ``path``, which command option ``option`` names: a
    ValidationError (exit 2) if it cannot be read or is over ``limit``
    bytes."""
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1 if limit is not None else -1)
    except OSError as exc:
        raise exceptions.ValidationError(
            "%s: cannot read %s: %s" % (option, path, exc.strerror or exc)
        ) from None
    if limit is not None and len(data) > limit:
        raise exceptions.ValidationError("%s: %s is larger than %d bytes." % (option, path, limit))
    return data


def read_text(path: str, option: str) -> str:
    """The UTF-8 text of ``path`` (``-``: standard input), which command
    option ``option`` names: a ValidationError (exit 2) if it cannot be
    read or is not UTF-8."""
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise exceptions.ValidationError(
            "%s: cannot read %s: %s" % (option, path, getattr(exc, "strerror", None) or exc)
        ) from None
