"""Options the Neutron write commands share: flag pairs, OSC's
``key=value,…`` options (``--allocation-pool start=…,end=…``) and the
removal of listed items that ``… unset`` makes."""

from occli import exceptions
from occli import utils


def switch(dest, on, off, on_help, off_help, on_value=True, off_value=False):
    """Add the flag pair ``on``/``off`` setting ``args.<dest>`` to
    ``on_value``/``off_value`` (None when neither is given; both is a
    usage error)."""

    def decorator(func):
        first = utils.arg(
            on, dest=dest, action=utils.Switch, const=on_value, other=off, default=None,
            help=on_help,
        )  # fmt: skip
        second = utils.arg(off, dest=dest, action=utils.Switch, const=off_value, other=on,
                           help=off_help)  # fmt: skip
        return first(second(func))

    return decorator


def pairs(option, required, optional=(), keys=None):
    """An argparse ``type=`` for ``option``'s ``k=v,k2=v2``: a dict of
    the given keys (renamed by ``keys``, ``{"ip-address": "ip_address"}``)
    with every ``required`` one; else a usage error naming ``option``."""
    keys = keys or {}

    def parse(text):
        values = utils.parse_options(text, set(required) | set(optional), option)
        missing = [k for k in required if not values.get(k)]
        if missing:
            raise exceptions.ValidationError(
                "%s needs %s, got %r." % (option, " and ".join("%s=" % k for k in missing), text)
            )
        return {keys.get(k, k): v for k, v in values.items()}

    return utils.arg_type(parse, option.lstrip("-"))


def without(current, removed, what, option):
    """``current`` less each of ``removed``: OSC's error ("Subnet does not
    contain dns-nameserver 8.8.8.8") for one it does not hold."""
    kept = list(current or ())
    for item in removed:
        if item not in kept:
            raise exceptions.CommandError("%s does not contain %s %s" % (what, option, item))
        kept.remove(item)
    return kept
