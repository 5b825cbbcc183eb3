"""Options the Neutron commands share: flag pairs, OSC's ``key=value,…``
options (``--allocation-pool start=…,end=…``), the removal of listed items
that ``… unset`` makes, and OSC's tag options (``--tag``/``--no-tag`` on
create and set, ``--tag``/``--all-tag`` on unset, the ``--tags`` …
filters of lists), applied with one ``PUT …/tags`` after the other
changes, as OSC does."""

import argparse

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


def not_both(given, option, cleared, clear_option):
    """A usage error for an option given with the one clearing it."""
    if given and cleared:
        raise exceptions.ValidationError(
            "%s and %s cannot be given together." % (option, clear_option)
        )


class _NotWith(argparse.Action):
    """``--tag`` (appending) or a flag that is a usage error (exit 2) with
    ``other`` (stored in ``other_dest``), as in OSC's exclusive groups."""

    def __init__(self, option_strings, dest, other, other_dest, flag=False, **kwargs):
        if flag:
            kwargs.update(nargs=0, default=False)
        super().__init__(option_strings, dest, **kwargs)
        self.other, self.other_dest, self.flag = other, other_dest, flag

    def __call__(self, parser, namespace, values, option_string=None):
        if getattr(namespace, self.other_dest, None):
            parser.error("argument %s: not allowed with argument %s" % (option_string, self.other))
        added = True if self.flag else (getattr(namespace, self.dest, None) or []) + [values]
        setattr(namespace, self.dest, added)


def tags(resource, verb):
    """Add OSC's tag options of ``verb`` (create, set or unset) for a
    ``resource`` (its name in the help texts): ``--tag`` and ``--no-tag``
    (exclusive on create), ``--tag`` or ``--all-tag`` on unset."""
    clear = {
        "create": ("--no-tag", "no_tag", "No tags on the %s."),
        "set": ("--no-tag", "no_tag", "Remove the %s's tags first (with --tag: replace them)."),
        "unset": ("--all-tag", "all_tag", "Remove every tag of the %s."),
    }
    option, dest, clear_help = clear[verb]
    added = "remove from" if verb == "unset" else "add to"
    tag_help = "Tag to %s the %s (repeat for several)." % (added, resource)
    if verb == "set":
        pair = [
            utils.arg("--tag", dest="tags", action="append", metavar="<tag>", help=tag_help),
            utils.arg(option, action="store_true", help=clear_help % resource),
        ]
    else:
        pair = [
            utils.arg("--tag", dest="tags", action=_NotWith, other=option, other_dest=dest,
                      metavar="<tag>", help=tag_help),
            utils.arg(option, dest=dest, action=_NotWith, other="--tag", other_dest="tags",
                      flag=True, help=clear_help % resource),
        ]  # fmt: skip

    def decorator(func):
        for arg in reversed(pair):
            func = arg(func)
        return func

    return decorator


def _tag_list(text):
    return [t for t in text.split(",") if t]


_TAG_FILTERS = (
    ("--tags", "which have all the given tags"),
    ("--any-tags", "which have any of the given tags"),
    ("--not-tags", "except those which have all the given tags"),
    ("--not-any-tags", "except those which have any of the given tags"),
)


def tag_filters(plural):
    """Add OSC's ``--tags``, ``--any-tags``, ``--not-tags`` and
    ``--not-any-tags`` (comma-separated) to a list of ``plural``."""

    def decorator(func):
        for option, which in reversed(_TAG_FILTERS):
            func = utils.arg(
                option, metavar="<tag>[,<tag>,...]",
                type=utils.arg_type(_tag_list, option.lstrip("-")),
                help="Only the %s %s (comma-separated)." % (plural, which),
            )(func)  # fmt: skip
        return func

    return decorator


def tag_filter_values(args):
    """The manager's tag filters (``tags``, ``any_tags``, …) the options give."""
    return {key: getattr(args, key) for key in ("tags", "any_tags", "not_tags", "not_any_tags")}


def tags_given(args, verb):
    """Whether the tag options of ``verb`` change anything."""
    return bool(args.tags or (args.all_tag if verb == "unset" else args.no_tag))


def apply_tags(manager, resource, args, verb):
    """Apply ``verb``'s tag options to ``resource`` (one ``PUT …/tags``
    when they change its tags): a new resource's tags are those given,
    set adds them (after clearing the current ones with ``--no-tag``),
    unset removes them."""
    if verb == "unset":
        manager.update_tags(resource, remove=args.tags or (), clear=args.all_tag)
    elif verb == "set" or args.tags:
        clear = verb == "create" or args.no_tag
        manager.update_tags(resource, add=args.tags or (), clear=clear)
