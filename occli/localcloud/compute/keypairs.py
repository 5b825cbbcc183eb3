"""Keypairs: import, generation, fingerprints and the per-user table.

Key generation (no ``public_key`` in the request, allowed before 2.92) uses
the ``cryptography`` package when it is importable and otherwise the
``ssh-keygen`` program (``ssh``: an RSA key, the private key in PEM) or the
``openssl`` program (``x509``, as nova does: a self-signed client
certificate for the user, valid 10 years, as the public key, and a
PKCS#12 bundle of the key and the certificate, password ``""``, in base64
as the private key); when neither is available the create is refused
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

from occli.localcloud import common
from occli.localcloud import errors

MAX_KEYPAIRS = 100

_PEM_CERT = re.compile(r"-----BEGIN CERTIFICATE-----(.+?)-----END CERTIFICATE-----", re.S)


def get_keypair(db, user_id, name):
    """The keypair row of ``user_id`` called ``name``, or None."""
    return db.execute(
        "SELECT * FROM compute_keypairs WHERE user_id = ? AND name = ?", (user_id, name)
    ).fetchone()


def _invalid(reason):
    return errors.BadRequest("Keypair data is invalid: %s" % reason)


def ssh_fingerprint(public_key):
    """MD5 ``aa:bb:…`` of an OpenSSH public key's blob; 400 if malformed."""
    parts = public_key.strip().split()
    try:
        blob = base64.b64decode(parts[1], validate=True)
        (length,) = struct.unpack(">I", blob[:4])
        key_type = blob[4 : 4 + length].decode("ascii")
    except (IndexError, binascii.Error, ValueError, struct.error, UnicodeDecodeError):
        raise _invalid("failed to generate fingerprint") from None
    if key_type != parts[0] or length == 0:
        raise _invalid("failed to generate fingerprint")
    digest = hashlib.md5(blob).hexdigest()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


def x509_fingerprint(certificate):
    """SHA-1 ``aa:bb:…`` of a PEM certificate; 400 if it is not one (with
    ``cryptography``, nova's own message naming the parser's error)."""
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes
    except ImportError:
        match = _PEM_CERT.search(certificate)
        if match is None:
            raise _invalid("failed to generate X509 fingerprint") from None
        try:
            der = base64.b64decode("".join(match.group(1).split()), validate=True)
        except (binascii.Error, ValueError):
            raise _invalid("failed to generate X509 fingerprint") from None
        digest = hashlib.sha1(der).hexdigest()
    else:
        try:
            cert = x509.load_pem_x509_certificate(certificate.encode("utf-8"))
            digest = cert.fingerprint(hashes.SHA1()).hex()
        except (ValueError, TypeError, UnicodeEncodeError) as exc:
            raise _invalid(
                "failed to generate X509 fingerprint. Error message: %s" % exc
            ) from None
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


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
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption(),
    ).decode()
    public = (
        key.public_key()
        .public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
        .decode()
    )
    return private, public


def _generate_with_ssh_keygen():
    program = shutil.which("ssh-keygen")
    if program is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "key")
        result = subprocess.run(
            [
                program,
                "-q",
                "-t",
                "rsa",
                "-b",
                "2048",
                "-m",
                "PEM",
                "-N",
                "",
                "-C",
                "",
                "-f",
                path,
            ],
            capture_output=True,
            timeout=60,
        )
        if result.returncode != 0:
            return None
        with open(path) as f:
            private = f.read()
        with open(path + ".pub") as f:
            public = f.read().split()[:2]
    return private, " ".join(public)


# nova's crypto.generate_winrm_x509_cert: the user principal name (UPN) in
# the certificate's subjectAltName, for WinRM's certificate logins
_UPN_OID = "1.3.6.1.4.1.311.20.2.3"
_OPENSSL_SAFE = re.compile(r"^[A-Za-z0-9_.@-]{1,255}$")
_X509_CONFIG = (
    "distinguished_name  = req_distinguished_name\n"
    "[req_distinguished_name]\n"
    "[v3_req_client]\n"
    "extendedKeyUsage = clientAuth\n"
    "subjectAltName = otherName:" + _UPN_OID + ";UTF8:%s\n"
)


def generate_x509_keypair(user_id):
    """``(base64 PKCS#12 of key and certificate, certificate PEM)`` of a new
    self-signed client certificate for ``user_id``, or None."""
    try:
        return _x509_with_cryptography(user_id)
    except ImportError:
        return _x509_with_openssl(user_id)


def _der_utf8(text):
    data = text.encode("utf-8")
    if len(data) < 0x80:
        length = bytes([len(data)])
    else:
        size = len(data).to_bytes((len(data).bit_length() + 7) // 8, "big")
        length = bytes([0x80 | len(size)]) + size
    return b"\x0c" + length + data


def _x509_with_cryptography(user_id):
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.hazmat.primitives.serialization import Encoding
    from cryptography.hazmat.primitives.serialization import NoEncryption
    from cryptography.hazmat.primitives.serialization import pkcs12
    from cryptography.x509.oid import ExtendedKeyUsageOID
    from cryptography.x509.oid import NameOID

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, user_id)])
    now = common.utcnow()
    upn = x509.OtherName(x509.ObjectIdentifier(_UPN_OID), _der_utf8("%s@localhost" % user_id))
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=3650))
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName([upn]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    bundle = pkcs12.serialize_key_and_certificates(None, key, cert, None, NoEncryption())
    return (
        base64.b64encode(bundle).decode("ascii"),
        cert.public_bytes(Encoding.PEM).decode("ascii"),
    )


def _x509_with_openssl(user_id):
    """nova's own way: ``openssl req -x509`` then ``openssl pkcs12``."""
    program = shutil.which("openssl")
    if program is None or not _OPENSSL_SAFE.match(user_id):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        keyfile = os.path.join(tmp, "temp.key")
        conffile = os.path.join(tmp, "temp.conf")
        with open(conffile, "w") as f:
            f.write(_X509_CONFIG % ("%s@localhost" % user_id))
        cert = subprocess.run(
            [
                program,
                "req",
                "-x509",
                "-nodes",
                "-days",
                "3650",
                "-config",
                conffile,
                "-newkey",
                "rsa:2048",
                "-outform",
                "PEM",
                "-keyout",
                keyfile,
                "-subj",
                "/CN=%s" % user_id,
                "-extensions",
                "v3_req_client",
            ],
            capture_output=True,
            timeout=60,
        )
        if cert.returncode != 0:
            return None
        bundle = subprocess.run(
            [program, "pkcs12", "-export", "-inkey", keyfile, "-password", "pass:"],
            input=cert.stdout,
            capture_output=True,
            timeout=60,
        )
        if bundle.returncode != 0:
            return None
    return (base64.b64encode(bundle.stdout).decode("ascii"), cert.stdout.decode("ascii"))


def create(db, user_id, name, key_type="ssh", public_key=None, limit=MAX_KEYPAIRS):
    """Store ``user_id``'s keypair ``name``: ``(row, private_key)``, the
    private key only when one was generated (no ``public_key``); the user
    may have at most ``limit`` keypairs (-1: any number; nova's key_pairs
    quota of the caller's project)."""
    if get_keypair(db, user_id, name) is not None:
        raise errors.Conflict("Key pair '%s' already exists." % name)
    count = db.execute(
        "SELECT COUNT(*) FROM compute_keypairs WHERE user_id = ?", (user_id,)
    ).fetchone()[0]
    if 0 <= limit <= count:
        raise errors.OverLimit("Quota exceeded, too many key pairs.")
    private_key = None
    if public_key is None:
        generated = (
            generate_x509_keypair(user_id) if key_type == "x509" else generate_ssh_keypair()
        )
        if generated is None:
            raise _invalid("key generation is unavailable in this cloud; import a public_key")
        private_key, public_key = generated
        if key_type != "x509":
            # as nova's crypto.generate_key_pair (no newline)
            public_key = public_key.strip() + " Generated-by-Nova"
    if key_type == "x509":
        fingerprint = x509_fingerprint(public_key)
    else:
        fingerprint = ssh_fingerprint(public_key)
    db.execute(
        "INSERT INTO compute_keypairs (user_id, name, type, public_key,"
        " fingerprint, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        (
            user_id,
            name,
            key_type,
            public_key,
            fingerprint,
            common.iso_naive_micro(common.utcnow()),
        ),
    )
    return get_keypair(db, user_id, name), private_key


def select(db, user_id):
    """``user_id``'s keypair rows, by name."""
    return db.execute(
        "SELECT * FROM compute_keypairs WHERE user_id = ? ORDER BY name", (user_id,)
    ).fetchall()


def get(db, user_id, name):
    """``user_id``'s keypair ``name``, or NotFound."""
    row = get_keypair(db, user_id, name)
    if row is None:
        raise errors.NotFound("Keypair %s not found for user %s" % (name, user_id))
    return row


def delete(db, row):
    db.execute("DELETE FROM compute_keypairs WHERE id = ?", (row["id"],))
