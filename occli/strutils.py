"""Values from text, used alike by the managers and the commands."""

import re

from occli import exceptions

_UUID = re.compile(r"^[0-9a-fA-F]{8}-?([0-9a-fA-F]{4}-?){3}[0-9a-fA-F]{12}$")

_TRUE = ("1", "true", "yes", "on", "y")
_FALSE = ("0", "false", "no", "off", "n", "none")


def parse_bool(value, what, params=()):
    """True or False from ``true/false``, ``yes/no``, ``on/off``, ``1/0``
    (any case); a ValidationError naming ``what`` (with ``params``, see
    :class:`occli.exceptions.CommandError`) for anything else."""
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise exceptions.ValidationError(
        "%s expects true or false, got %r." % (what, value), params=params
    )


def is_uuid(value):
    """Whether ``value`` has the shape of a UUID (the ids of servers,
    server groups, Neutron and Cinder resources), hyphens optional."""
    return bool(_UUID.match(str(value)))
