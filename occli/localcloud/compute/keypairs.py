"""Keypairs: ``/os-keypairs`` (import, generate, list, show, delete).

Key generation (no ``public_key`` in the request, allowed before 2.92) uses
the ``cryptography`` package when it is importable and otherwise the
``ssh-keygen`` program; when neither is available the request gets a 400
asking for a ``public_key``. Imported keys are checked by decoding the SSH
wire blob (or the PEM certificate for ``x509``) and fingerprinted like nova:
MD5 of the key blob for SSH keys, SHA-1 of the DER certificate for x509.
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
from occli.localcloud.app import HTTPError, Response
from occli.localcloud.compute import base, schemas

MAX_KEYPAIRS = 100

MIGRATIONS = [
    """
    CREATE TABLE compute_keypairs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        type TEXT NOT NULL DEFAULT 'ssh',
        public_key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (user_id, name)
    );
    """,
]

_PEM_CERT = re.compile(r"-----BEGIN CERTIFICATE-----(.+?)-----END CERTIFICATE-----",
                       re.S)


def register(service):
    service.api("GET", "/os-keypairs", list_keypairs)
    service.api("POST", "/os-keypairs", create_keypair)
    service.api("GET", "/os-keypairs/{name}", show_keypair)
    service.api("DELETE", "/os-keypairs/{name}", delete_keypair)


def get_keypair(db, user_id, name):
    """The keypair row of ``user_id`` called ``name``, or None."""
    return db.execute("SELECT * FROM compute_keypairs WHERE user_id = ?"
                      " AND name = ?", (user_id, name)).fetchone()


def _invalid(reason):
    return HTTPError(400, "Keypair data is invalid: %s" % reason)


def ssh_fingerprint(public_key):
    """MD5 ``aa:bb:…`` of an OpenSSH public key's blob; 400 if malformed."""
    parts = public_key.strip().split()
    try:
        blob = base64.b64decode(parts[1], validate=True)
        (length,) = struct.unpack(">I", blob[:4])
        key_type = blob[4:4 + length].decode("ascii")
    except (IndexError, binascii.Error, ValueError, struct.error,
            UnicodeDecodeError):
        raise _invalid("failed to generate fingerprint")
    if key_type != parts[0] or length == 0:
        raise _invalid("failed to generate fingerprint")
    digest = hashlib.md5(blob).hexdigest()
    return ":".join(digest[i:i + 2] for i in range(0, len(digest), 2))


def x509_fingerprint(certificate):
    match = _PEM_CERT.search(certificate)
    try:
        der = base64.b64decode("".join(match.group(1).split()), validate=True)
    except (AttributeError, binascii.Error, ValueError):
        raise _invalid("failed to generate X509 fingerprint")
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


def _owner(req, requested):
    if requested is None or requested == req.context.user_id:
        return req.context.user_id
    base.require_admin(req, "os_compute_api:os-keypairs:create")
    return requested


def _view(req, row, fields):
    body = {"name": row["name"], "public_key": row["public_key"],
            "fingerprint": row["fingerprint"]}
    if "user_id" in fields:
        body["user_id"] = row["user_id"]
    if req.microversion >= "2.2":
        body["type"] = row["type"]
    if "record" in fields:
        body.update({"id": row["id"], "created_at": row["created_at"],
                     "updated_at": None, "deleted": False,
                     "deleted_at": None})
    return body


def create_keypair(req):
    data = schemas.validate(schemas.keypair_create(req.microversion),
                            req.json())["keypair"]
    user_id = _owner(req, data.get("user_id"))
    key_type = data.get("type", "ssh")
    name = data["name"]
    db = req.db
    if get_keypair(db, user_id, name) is not None:
        raise base.conflict("Key pair '%s' already exists." % name)
    count = db.execute("SELECT COUNT(*) FROM compute_keypairs WHERE"
                       " user_id = ?", (user_id,)).fetchone()[0]
    if count >= MAX_KEYPAIRS:
        raise HTTPError(403, "Quota exceeded, too many key pairs.")
    private_key = None
    public_key = data.get("public_key")
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
    body = _view(req, get_keypair(db, user_id, name), ("user_id",))
    if private_key is not None:
        body["private_key"] = private_key
    return Response(201 if req.microversion >= "2.2" else 200,
                    {"keypair": body})


def _target_user(req):
    requested = req.arg("user_id") if req.microversion >= "2.10" else None
    if requested is None or requested == req.context.user_id:
        return req.context.user_id
    base.require_admin(req, "os_compute_api:os-keypairs:index")
    return requested


def list_keypairs(req):
    user_id = _target_user(req)
    rows = req.db.execute("SELECT * FROM compute_keypairs WHERE user_id = ?"
                          " ORDER BY name", (user_id,)).fetchall()
    next_links = None
    if req.microversion >= "2.35":
        rows, next_links = base.paginate(
            req, rows, lambda r: r["name"], "os-keypairs",
            marker_message="Marker %s could not be found.")
    body = {"keypairs": [{"keypair": _view(req, r, ())} for r in rows]}
    if next_links:
        body["keypairs_links"] = next_links
    return body


def _lookup(req):
    user_id = _target_user(req)
    row = get_keypair(req.db, user_id, req.params["name"])
    if row is None:
        raise base.not_found("Keypair %s not found for user %s"
                             % (req.params["name"], user_id))
    return row


def show_keypair(req):
    return {"keypair": _view(req, _lookup(req), ("user_id", "record"))}


def delete_keypair(req):
    row = _lookup(req)
    req.db.execute("DELETE FROM compute_keypairs WHERE id = ?", (row["id"],))
    return Response(204 if req.microversion >= "2.2" else 202)
