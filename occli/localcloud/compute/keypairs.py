"""Keypairs: import, generation, fingerprints and the per-user table.

Key generation (no ``public_key`` in the request, allowed before 2.92) uses
the ``cryptography`` package when it is importable and otherwise the
``ssh-keygen`` program; when neither is available the create is refused
(400) asking for a ``public_key``. Imported keys are checked by decoding the
SSH wire blob (or the PEM certificate for ``x509``) and fingerprinted like
nova: MD5 of the key blob for SSH keys, SHA-1 of the DER certificate for
x509.
"""

import base64
import binascii
import hashlib
import os
import re
import shutil
import struct
import subprocess
import tempfile

from occli.localcloud import common, errors

MAX_KEYPAIRS = 100

_PEM_CERT = re.compile(r"-----BEGIN CERTIFICATE-----(.+?)-----END CERTIFICATE-----",
                       re.S)


def get_keypair(db, user_id, name):
    """The keypair row of ``user_id`` called ``name``, or None."""
    return db.execute("SELECT * FROM compute_keypairs WHERE user_id = ?"
                      " AND name = ?", (user_id, name)).fetchone()


def _invalid(reason):
    return errors.BadRequest("Keypair data is invalid: %s" % reason)


def ssh_fingerprint(public_key):
    """MD5 ``aa:bb:…`` of an OpenSSH public key's blob; 400 if malformed."""
    parts = public_key.strip().split()
    try:
        blob = base64.b64decode(parts[1], validate=True)
        (length,) = struct.unpack(">I", blob[:4])
        key_type = blob[4:4 + length].decode("ascii")
    except (IndexError, binascii.Error, ValueError, struct.error,
            UnicodeDecodeError):
        raise _invalid("failed to generate fingerprint") from None
    if key_type != parts[0] or length == 0:
        raise _invalid("failed to generate fingerprint")
    digest = hashlib.md5(blob).hexdigest()
    return ":".join(digest[i:i + 2] for i in range(0, len(digest), 2))


def x509_fingerprint(certificate):
    match = _PEM_CERT.search(certificate)
    try:
        der = base64.b64decode("".join(match.group(1).split()), validate=True)
    except (AttributeError, binascii.Error, ValueError):
        raise _invalid("failed to generate X509 fingerprint") from None
    digest = hashlib.sha1(der).hexdigest()
    return ":".join(digest[i:i + 2] for i in range(0, len(digest), 2))


def generate_ssh_keypair():
    """``(private_key_pem, public_key)`` of a new RSA key, or None."""
    try:
        return _generate_with_cryptography()
    except ImportError:
        return _generate_with_ssh_keygen()


def _generate_with_cryptography():
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption()).decode()
    public = key.public_key().public_bytes(
        serialization.Encoding.OpenSSH,
        serialization.PublicFormat.OpenSSH).decode()
    return private, public


def _generate_with_ssh_keygen():
    program = shutil.which("ssh-keygen")
    if program is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "key")
        result = subprocess.run(
            [program, "-q", "-t", "rsa", "-b", "2048", "-m", "PEM", "-N", "",
             "-C", "", "-f", path], capture_output=True, timeout=60)
        if result.returncode != 0:
            return None
        with open(path) as f:
            private = f.read()
        with open(path + ".pub") as f:
            public = f.read().split()[:2]
    return private, " ".join(public)


def create(db, user_id, name, key_type="ssh", public_key=None):
    """Store ``user_id``'s keypair ``name``: ``(row, private_key)``, the
    private key only when one was generated (no ``public_key``)."""
    if get_keypair(db, user_id, name) is not None:
        raise errors.Conflict("Key pair '%s' already exists." % name)
    count = db.execute("SELECT COUNT(*) FROM compute_keypairs WHERE"
                       " user_id = ?", (user_id,)).fetchone()[0]
    if count >= MAX_KEYPAIRS:
        raise errors.OverLimit("Quota exceeded, too many key pairs.")
    private_key = None
    if public_key is None:
        if key_type != "ssh":
            raise _invalid("only ssh keys can be generated")
        generated = generate_ssh_keypair()
        if generated is None:
            raise _invalid("key generation is unavailable in this cloud; "
                           "import a public_key")
        private_key, public_key = generated
        public_key = public_key.strip() + " Generated-by-Nova\n"
    if key_type == "x509":
        fingerprint = x509_fingerprint(public_key)
    else:
        fingerprint = ssh_fingerprint(public_key)
    db.execute(
        "INSERT INTO compute_keypairs (user_id, name, type, public_key,"
        " fingerprint, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        (user_id, name, key_type, public_key, fingerprint,
         common.iso_naive_micro(common.utcnow())))
    return get_keypair(db, user_id, name), private_key


def select(db, user_id):
    """``user_id``'s keypair rows, by name."""
    return db.execute("SELECT * FROM compute_keypairs WHERE user_id = ?"
                      " ORDER BY name", (user_id,)).fetchall()


def get(db, user_id, name):
    """``user_id``'s keypair ``name``, or NotFound."""
    row = get_keypair(db, user_id, name)
    if row is None:
        raise errors.NotFound("Keypair %s not found for user %s"
                              % (name, user_id))
    return row


def delete(db, row):
    db.execute("DELETE FROM compute_keypairs WHERE id = ?", (row["id"],))
