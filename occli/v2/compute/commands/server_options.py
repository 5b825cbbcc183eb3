"""How server command options become manager arguments: argparse types
(malformed syntax is a usage error, exit 2), project and user names made
ids, ``server set --password``'s terminal prompt and ``server rebuild``'s
keywords. Used by :mod:`occli.v2.compute.commands.servers`.
"""

import re
import sys

from occli import exceptions
from occli.v2.commands import files
from occli.v2.compute import servers as servers_api
from occli.v2.compute.commands import server_views

_KEYSTONE_ID = re.compile(r"^[0-9a-f]{32}$")
# ``server set --password`` without a value: ask on the terminal
PROMPT = object()


# -- argparse types: malformed syntax is a usage error (exit 2) ------------


def parse_power_state(text):
    """A power state name (OSC's) or number → Nova's number."""
    names = {"pending": 0, "nostate": 0, "running": 1, "paused": 3, "shutdown": 4}
    names.update(crashed=6, suspended=7)
    value = text.strip().lower()
    if value in names:
        return names[value]
    if value.isdigit() and int(value) in server_views.POWER_STATES:
        return int(value)
    raise exceptions.ValidationError(
        "--power-state expects one of %s, got %r." % (", ".join(names), text)
    )


def parse_sort(text):
    key, _, direction = text.partition(":")
    direction = direction or "desc"
    if not key or direction not in ("asc", "desc"):
        raise exceptions.ValidationError("--sort expects KEY[:asc|desc], got %r." % text)
    return key, direction


def identity_id(client, managers, ref):
    """The ID of a project or user named ``ref`` (a Keystone ID as it is):
    Nova filters by ID. A lookup the caller may not make leaves ``ref``."""
    if _KEYSTONE_ID.match(ref):
        return ref
    found = server_views.best_effort(
        managers, lambda: getattr(client, managers).find_resource(ref)
    )
    return found.id if found is not None else ref


def new_password(args):
    """``--password``'s value, or one read twice without echo from the
    terminal; a usage error without a terminal or when they differ."""
    if args.password is not PROMPT:
        return args.password
    if not sys.stdin.isatty():
        raise exceptions.ValidationError(
            "--password needs a value when there is no terminal to ask for it."
        )
    import getpass  # only to ask: not on every server command's start-up

    first = getpass.getpass("New password: ")
    if first != getpass.getpass("Retype new password: "):
        raise exceptions.ValidationError("Passwords do not match.")
    return first


def rebuild_options(args):
    """The rebuild keywords of the options given (usage errors: exit 2)."""
    if args.user_data and args.no_user_data:
        raise exceptions.ValidationError("--user-data and --no-user-data exclude each other.")
    if args.trusted_certs and args.no_trusted_image_certs:
        raise exceptions.ValidationError(
            "--trusted-image-cert and --no-trusted-image-certs exclude each other."
        )
    user_data: object = None  # bytes, or CLEAR: remove it
    if args.no_user_data:
        user_data = servers_api.CLEAR
    elif args.user_data:
        user_data = files.read_bytes(args.user_data, "--user-data", servers_api.MAX_USER_DATA)
    certs = args.trusted_certs
    if args.no_trusted_image_certs:
        certs = servers_api.CLEAR
    return {
        "description": args.description,
        "metadata": dict(args.properties) if args.properties else None,
        "key_name": args.key_name,
        "user_data": user_data,
        "hostname": args.hostname,
        "trusted_image_certificates": certs,
        "preserve_ephemeral": args.preserve_ephemeral,
    }
