"""Keypair commands."""

import os

from occli import columns
from occli import exceptions
from occli import utils

_COLUMNS = ("name", "fingerprint", "type")
_HEADERS = ("Name", "Fingerprint", "Type")


@utils.output("list")
def do_keypair_list(client, args):
    """List key pairs."""
    return columns.table(client.keypairs.list(), _COLUMNS, headers=_HEADERS)


@utils.arg("keypair", metavar="<name>", help="Key pair name.")
@utils.output("show")
def do_keypair_show(client, args):
    """Show a key pair."""
    return columns.show(client.keypairs.get(args.keypair))


@utils.arg("name", metavar="<name>", help="Name of the new key pair.")
@utils.arg("--public-key", metavar="<file>",
           help="Import this public key file (default: the cloud generates "
                "a key pair).")
@utils.arg("--private-key", metavar="<file>",
           help="Write the generated private key to this new file (mode 0600) "
                "instead of printing it.")
@utils.arg("--type", dest="key_type", choices=("ssh", "x509"),
           help="Key type (compute API 2.2 or later).")
@utils.output("show")
def do_keypair_create(client, args):
    """Create or import a key pair."""
    public_key = None
    if args.public_key:
        if args.private_key:
            raise exceptions.CommandError(
                "--private-key only applies to a generated key pair.")
        try:
            with open(os.path.expanduser(args.public_key)) as f:
                public_key = f.read().strip()
        except OSError as exc:
            raise exceptions.CommandError(
                "Cannot read public key %s: %s" % (args.public_key, exc.strerror))
    key_path = os.path.expanduser(args.private_key) if args.private_key else None
    key_file = _reserve(key_path) if key_path else None
    try:
        keypair = client.keypairs.create(args.name, public_key=public_key,
                                         key_type=args.key_type)
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
        info["private_key"] = private
    return columns.show(info, columns=[c for c in ("name", "fingerprint", "type",
                                                   "user_id", "private_key")
                                       if c in info])


def _reserve(path):
    """Create ``path`` (new, mode 0600) for the private key, or CommandError."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise exceptions.CommandError(
            "%s already exists: not overwriting a private key." % path)
    except OSError as exc:
        raise exceptions.CommandError(
            "Cannot create private key file %s: %s" % (path, exc.strerror))
    return os.fdopen(fd, "w")


@utils.arg("keypairs", metavar="<name>", nargs="+", help="Key pair(s) to delete.")
@utils.concurrency_option
def do_keypair_delete(client, args):
    """Delete key pairs."""
    return utils.for_each(args.keypairs, client.keypairs.delete,
                          "delete key pair", concurrency=args.concurrency)
