"""Salted scrypt hashes of passwords and application credential secrets.

A hash carries its own cost (``scrypt$n$r$p$salt$hash``) and is checked
with it, so :data:`SCRYPT`, the cost of *new* hashes, may be lowered (the
test suite's conftest does) without touching how stored hashes verify: a
hash made at a test cost verifies anywhere, production hashes keep theirs.
"""

import base64
import functools
import hashlib
import hmac
import os
import secrets

DEFAULT_SCRYPT = {"n": 2**14, "r": 8, "p": 1}  # ~45 ms a hash
# the cost of new hashes; tests/conftest.py lowers it for the test run
SCRYPT = dict(DEFAULT_SCRYPT)


def hash_password(password, salt=None):
    """Salted scrypt hash of ``password`` as ``scrypt$n$r$p$salt$hash``."""
    salt = salt if salt is not None else os.urandom(16)
    n, r, p = SCRYPT["n"], SCRYPT["r"], SCRYPT["p"]
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, dklen=32, n=n, r=r, p=p)
    return "scrypt$%d$%d$%d$%s$%s" % (n, r, p, salt.hex(), digest.hex())


def verify_password(password, encoded):
    """Constant-time check of ``password`` against :func:`hash_password`,
    at the cost stored in ``encoded``."""
    try:
        scheme, n, r, p, salt, digest = encoded.split("$")
        if scheme != "scrypt":
            return False
        computed = hashlib.scrypt(
            password.encode("utf-8"),
            salt=bytes.fromhex(salt),
            n=int(n),
            r=int(r),
            p=int(p),
            dklen=len(digest) // 2,
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(computed.hex(), digest)


def weaker_than_current(encoded):
    """Whether ``encoded`` was made at a lower cost than :data:`SCRYPT`
    (e.g. by a test run): the seed then re-hashes the password."""
    try:
        _scheme, n, r, p, _salt, _digest = encoded.split("$")
        stored = int(n), int(r), int(p)
    except ValueError:
        return True
    current = SCRYPT["n"], SCRYPT["r"], SCRYPT["p"]
    return any(s < c for s, c in zip(stored, current, strict=True))


@functools.lru_cache(maxsize=4)
def _dummy_hash(n, r, p):
    return hash_password(secrets.token_hex(16))


def dummy_hash():
    """A hash of a random secret at the current cost (checked in place of
    an unknown user's, so timing does not tell)."""
    return _dummy_hash(SCRYPT["n"], SCRYPT["r"], SCRYPT["p"])


def generate_secret():
    """64 random bytes, url-safe base64 without padding (as keystone)."""
    return base64.urlsafe_b64encode(os.urandom(64)).rstrip(b"=").decode()


class SecretCheck:
    """A secret to check against a stored hash, outside any transaction.

    ``row_id`` is the user/credential id (None if unknown: the check then
    runs against a dummy hash so timing does not tell), ``encoded`` the
    stored hash as read, ``ok`` the result of :meth:`verify`.
    """

    def __init__(self, row_id, encoded, secret):
        self.row_id = row_id
        self.encoded = encoded
        self.secret = secret if isinstance(secret, str) else ""
        self.ok = False

    def verify(self):
        ok = verify_password(self.secret, self.encoded or dummy_hash())
        self.ok = ok and self.encoded is not None
        return self.ok
