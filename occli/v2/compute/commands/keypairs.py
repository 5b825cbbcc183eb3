"""Keypair commands (OpenStackClient's names and options).

``--user`` (an admin acting on another user's key pairs, compute API
2.10 or later) takes a user name or ID, looked up in keystone.
"""

import os

from occli import columns
from occli import exceptions
from occli import utils

_COLUMNS = ("name", "fingerprint", "type")
_HEADERS = ("Name", "Fingerprint", "Type")
_USER_ARG = dict(
    metavar="<user>",
    help="Another user's key pairs (admin; name or ID; compute API 2.10 or later).",
)
_USER_DOMAIN_ARG = dict(
    metavar="<user-domain>", help="Domain of --user (name or ID), for a user given by name."
)


def _user_id(client, args):
    """The id of ``--user`` (None without it); the version is checked
    first, so a refused option costs no lookup."""
    if not args.user:
        return None
    client.keypairs.check_list(user_id=args.user)
    return client.users.find_resource(args.user, domain=args.user_domain).id


@utils.arg("--user", **_USER_ARG)
@utils.arg("--user-domain", **_USER_DOMAIN_ARG)
@utils.arg(
    "--limit",
    type=utils.list_limit,
    default=None,
    metavar="<n>",
    help="At most this many key pairs (-1: all).",
)
@utils.arg(
    "--marker", metavar="<name>", help="Start after this key pair (compute API 2.35 or later)."
)
@utils.option_names(user_id="--user", marker="--marker")
@utils.output("list")
def do_keypair_list(client, args):
    """List key pairs (yours, or with --user another user's).

    Example: occli keypair list
    """
    client.keypairs.check_list(user_id=args.user, marker=args.marker)
    user_id = _user_id(client, args)
    keypairs = client.keypairs.iter(user_id=user_id, limit=args.limit, marker=args.marker)
    return columns.table(keypairs, _COLUMNS, headers=_HEADERS)


@utils.arg("keypair", metavar="<name>", help="Key pair name.")
@utils.arg(
    "--public-key",
    action="store_true",
    help="Print only the public key (as a .pub file holds it).",
)
@utils.arg("--user", **_USER_ARG)
@utils.arg("--user-domain", **_USER_DOMAIN_ARG)
@utils.option_names(user_id="--user")
@utils.output("show")
def do_keypair_show(client, args):
    """Show a key pair.

    Example: occli keypair show mykey
    """
    keypair = client.keypairs.get(args.keypair, user_id=_user_id(client, args))
    if args.public_key:
        if _raw(args):
            return _write(args, keypair.public_key)
        return columns.show({"public_key": keypair.public_key})
    return columns.with_raw_keys(args, _osc_keypair(keypair.to_dict()), {"deleted": "is_deleted"})


def _osc_keypair(info):
    """A key pair's fields as OSC shows them (openstacksdk's ``Keypair``:
    the name as id, ``is_deleted``, no public key, times of change or
    deletion left out)."""
    shown = {k: info.get(k) for k in ("created_at", "fingerprint", "name", "type", "user_id")}
    shown.update(id=info.get("name"), is_deleted=info.get("deleted", False), private_key=None)
    return columns.show(shown)


def _raw(args):
    """Whether the output is the default table (no -f, no -c): then a key
    is printed as it is, as OpenStackClient does."""
    return getattr(args, "formatter", "table") == "table" and not getattr(args, "columns", None)


def _write(args, text):
    """Print ``text`` alone (one final newline); the ShowOne's output
    that follows is an empty table: that newline."""
    utils.stdout(args).write(text.rstrip("\n"))
    return (), ()


@utils.arg("name", metavar="<name>", help="Name of the new key pair.")
@utils.arg(
    "--public-key",
    metavar="<file>",
    help="Import this public key file (default: the cloud generates a key pair).",
)
@utils.arg(
    "--private-key",
    metavar="<file>",
    help="Write the generated private key to this new file (mode "
    "0600) instead of standard output.",
)
@utils.arg(
    "--type", dest="key_type", choices=("ssh", "x509"), help="Key type (compute API 2.2 or later)."
)
@utils.arg("--user", **_USER_ARG)
@utils.arg("--user-domain", **_USER_DOMAIN_ARG)
@utils.option_names(user_id="--user")
@utils.output("show")
def do_keypair_create(client, args):
    """Create or import a key pair.

    With --public-key FILE it imports your public key. Without it the
    cloud generates the key pair, and its private key, kept nowhere else,
    is printed to standard output: --private-key FILE writes it instead
    to a new file only you can read (mode 0600, as ssh wants). An x509
    private key is a PKCS#12 bundle of the key and the certificate in
    base64 (empty password). With -f json, yaml, shell or value the key
    pair is shown as fields, the private key among them.

    Example: occli keypair create --private-key mykey.pem mykey
    """
    public_key = None
    if args.public_key:
        if args.private_key:
            raise exceptions.ValidationError("--private-key only applies to a generated key pair.")
        try:
            with open(os.path.expanduser(args.public_key)) as f:
                public_key = f.read().strip()
        except OSError as exc:
            raise exceptions.ValidationError(
                "Cannot read public key %s: %s" % (args.public_key, exc.strerror)
            ) from None
    client.keypairs.check_create(public_key=public_key, key_type=args.key_type, user_id=args.user)
    user_id = _user_id(client, args)
    key_path = os.path.expanduser(args.private_key) if args.private_key else ""
    key_file = _reserve(key_path) if key_path else None
    try:
        keypair = client.keypairs.create(
            args.name, public_key=public_key, key_type=args.key_type, user_id=user_id
        )
    except BaseException:
        if key_file is not None:
            key_file.close()
            os.unlink(key_path)
        raise
    info = keypair.to_dict()
    private = info.pop("private_key", None)
    if key_file is not None:
        # created before the request, so the one copy of the key is not lost
        with key_file:
            key_file.write(private or "")
        if not private:
            os.unlink(key_path)
    elif private:
        if _raw(args):
            # as OpenStackClient: the key itself, nothing else
            return _write(args, private)
        info["private_key"] = private
    return columns.show(
        info,
        columns=[
            c for c in ("name", "fingerprint", "type", "user_id", "private_key") if c in info
        ],
    )


def _reserve(path):
    """Create ``path`` (new, mode 0600) for the private key, or CommandError."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise exceptions.CommandError(
            "%s already exists: not overwriting a private key." % path
        ) from None
    except OSError as exc:
        raise exceptions.CommandError(
            "Cannot create private key file %s: %s" % (path, exc.strerror)
        ) from None
    return os.fdopen(fd, "w")


@utils.arg("keypairs", metavar="<name>", nargs="+", help="Key pair(s) to delete.")
@utils.arg("--user", **_USER_ARG)
@utils.arg("--user-domain", **_USER_DOMAIN_ARG)
@utils.option_names(user_id="--user")
@utils.concurrency_option
def do_keypair_delete(client, args):
    """Delete key pairs.

    Example: occli keypair delete mykey
    """
    user_id = _user_id(client, args)
    return utils.for_each(
        args.keypairs,
        lambda name: client.keypairs.delete(name, user_id=user_id),
        "delete key pair",
        concurrency=args.concurrency,
    )
