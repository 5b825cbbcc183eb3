"""AWS request signatures as keystone checks them for ``/v3/ec2tokens``
(python-keystoneclient's ``keystoneclient/contrib/ec2/utils.py``
``Ec2Signer``): versions 0, 1, 2 (``SignatureVersion`` in the params) and
4 (``AWS4-HMAC-SHA256`` in the ``Authorization`` header or the
``X-Amz-Algorithm`` param), computed from the secret and the request's
``params``, ``verb``, ``host``, ``path``, ``headers`` and ``body_hash``.
Pure computation: nothing is fetched.
"""

import base64
import hashlib
import hmac
import re
import urllib.parse
from typing import Any


class SignatureError(ValueError):
    """The credentials cannot be signed (a field missing or malformed)."""


def _utf8(value: Any) -> bytes:
    if isinstance(value, bytes):
        return value
    return str(value).encode("utf-8")


def _canonical_qs(params: dict) -> str:
    """The params sorted by key, each ``quote(key)=quote(value)``."""
    pairs = []
    for key in sorted(params):
        value = urllib.parse.quote(_utf8(params[key]), safe="-_~")
        pairs.append(urllib.parse.quote(key, safe="") + "=" + value)
    return "&".join(pairs)


def _given(value: Any) -> str:
    """A signed value the signer needs (keystone's signer fails on None)."""
    if not isinstance(value, str):
        raise SignatureError("Unexpected signature format")
    return value


def _is_v4(credentials: dict) -> bool:
    headers = credentials.get("headers") or {}
    if "Authorization" in headers:
        return str(headers["Authorization"]).startswith("AWS4-HMAC-SHA256")
    return credentials["params"].get("X-Amz-Algorithm") == "AWS4-HMAC-SHA256"


def _v4(secret: bytes, params: dict, verb: str, path: str, headers: dict, body_hash: str) -> str:
    def sign(key: bytes, msg: Any) -> bytes:
        return hmac.new(key, _utf8(msg), hashlib.sha256).digest()

    def auth_param(name: str) -> str:
        if "Authorization" in headers:
            return headers["Authorization"].partition("%s=" % name)[2].split(",")[0]
        return _given(params.get("X-Amz-%s" % name))

    lower = {k.lower().strip(): v.strip() for k, v in headers.items()}
    strip_port = re.match(r"Boto/2\.[0-9]\.[0-2]", lower.get("user-agent", ""))
    signed = auth_param("SignedHeaders")
    lines = []
    for name in signed.split(";"):
        if name not in lower:
            continue
        value = lower[name].split(":")[0] if name == "host" and strip_port else lower[name]
        lines.append("%s:%s" % (name, value))
    query = "" if verb.upper() == "POST" else _canonical_qs(params)
    canonical = "\n".join((verb.upper(), path, query, "\n".join(lines) + "\n", signed, body_hash))
    scope = auth_param("Credential").split("/")
    date = _given(headers.get("X-Amz-Date") or params.get("X-Amz-Date"))
    if not date.startswith(scope[1]):
        raise SignatureError("Request date mismatch error")
    to_sign = "\n".join(
        (
            "AWS4-HMAC-SHA256",
            date,
            "/".join(scope[1:]),
            hashlib.sha256(canonical.encode("utf-8")).hexdigest(),
        )
    )
    key = sign(b"AWS4" + secret, scope[1])
    for part in (scope[2], scope[3], "aws4_request"):
        key = sign(key, part)
    return hmac.new(key, _utf8(to_sign), hashlib.sha256).hexdigest()


def _generate(secret: bytes, credentials: dict) -> str:
    params = credentials["params"]
    version = params.get("SignatureVersion")
    if version == "0":
        digest = hmac.new(secret, _utf8(params["Action"] + params["Timestamp"]), hashlib.sha1)
        return base64.b64encode(digest.digest()).decode()
    if version == "1":
        digest = hmac.new(secret, digestmod=hashlib.sha1)
        for key in sorted(params, key=str.lower):
            digest.update(_utf8(key))
            digest.update(_utf8(params[key]))
        return base64.b64encode(digest.digest()).decode()
    if version == "2":
        params["SignatureMethod"] = "HmacSHA256"
        text = "%s\n%s\n%s\n" % (credentials["verb"], credentials["host"], credentials["path"])
        text += _canonical_qs(params)
        digest = hmac.new(secret, text.encode("utf-8"), hashlib.sha256)
        return base64.b64encode(digest.digest()).decode()
    if _is_v4(credentials):
        return _v4(
            secret,
            params,
            credentials["verb"],
            credentials["path"],
            credentials["headers"],
            credentials["body_hash"],
        )
    if version is not None:
        raise SignatureError("Unknown signature version: %s" % version)
    raise SignatureError("Unexpected signature format")


def generate(secret: str, credentials: dict) -> str:
    """The signature of ``credentials`` with ``secret``; SignatureError
    when they lack what their version signs (keystone answers a 500
    there)."""
    try:
        return _generate(secret.encode(), credentials)
    except (KeyError, TypeError, AttributeError, IndexError, ValueError) as exc:
        raise SignatureError(str(exc)) from None


def matches(secret: str, credentials: dict) -> bool:
    """keystone's ``EC2TokensResource._check_signature``: the given
    ``signature`` equals the computed one, or the one computed with the
    host's port left out (some clients sign without it)."""
    given = credentials.get("signature")
    if not given or not isinstance(given, str):
        return False
    if hmac.compare_digest(_utf8(given), _utf8(generate(secret, credentials))):
        return True
    host = credentials.get("host")
    if isinstance(host, str) and ":" in host:
        try:
            credentials["host"] = urllib.parse.urlsplit("//" + host).hostname
        except ValueError:
            return False
        return hmac.compare_digest(_utf8(given), _utf8(generate(secret, credentials)))
    return False
