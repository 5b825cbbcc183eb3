"""Project tag options of ``project list`` and ``project set``, as
OpenStackClient's (``openstackclient/identity/v3/tag.py``): the list's
``--tags``/``--tags-any``/``--not-tags``/``--not-tags-any`` filters
(Keystone's query parameters) and the set's ``--tag``/``--clear-tags``/
``--remove-tag`` (the new list of tags, given whole to Keystone)."""

import argparse
from collections.abc import Callable
from typing import Any

from occli import utils

# option, dest, help of the list filters (Keystone's query parameter: the option's name)
_FILTERS = (
    ("--tags", "tags", "List projects which have all given tag(s)"),
    ("--tags-any", "tags_any", "List projects which have any given tag(s)"),
    ("--not-tags", "not_tags", "Exclude projects which have all given tag(s)"),
    ("--not-tags-any", "not_tags_any", "Exclude projects which have any given tag(s)"),
)


def _comma_list(value: str) -> list[str]:
    return value.split(",")


def filter_options(func: Callable) -> Callable:
    """Add the four tag filters of ``project list``."""
    for option, dest, text in reversed(_FILTERS):
        func = utils.arg(
            option,
            dest=dest,
            metavar="<tag>[,<tag>,...]",
            type=_comma_list,
            help=text + " (Comma-separated list of tags).",
        )(func)
    return func


def filters(args: argparse.Namespace) -> dict[str, str]:
    """The query parameters of the given tag filters."""
    return {
        option[2:]: ",".join(getattr(args, dest))
        for option, dest, _text in _FILTERS
        if getattr(args, dest)
    }


def set_options(func: Callable) -> Callable:
    """Add ``--tag``, ``--clear-tags`` and ``--remove-tag`` (``project set``)."""
    for decorator in (
        utils.arg(
            "--remove-tag",
            dest="remove_tags",
            metavar="<tag>",
            action="append",
            default=[],
            help="Tag to be deleted from the project (repeat option to delete multiple tags).",
        ),
        utils.arg(
            "--clear-tags",
            action="store_true",
            help="Clear tags associated with the project. Specify both --tag and"
            " --clear-tags to overwrite current tags.",
        ),
        utils.arg(
            "--tag",
            dest="tags",
            metavar="<tag>",
            action="append",
            default=[],
            help="Tag to be added to the project (repeat option to set multiple tags).",
        ),
    ):
        func = decorator(func)
    return func


def wanted(args: argparse.Namespace) -> bool:
    """Whether ``project set`` was given a tag option."""
    return bool(args.tags or args.clear_tags or args.remove_tags)


def updated(args: argparse.Namespace, current: Any) -> list[str]:
    """OSC's ``update_tags_in_args``: the project's tags after the options
    (cleared first; removing wins over adding), sorted."""
    tags = set() if args.clear_tags else set(current or ())
    if args.remove_tags:
        return sorted(tags - set(args.remove_tags))
    return sorted(tags | set(args.tags))
