"""Temp URLs: Swift's tempurl signature math and what a URL grants.

Signature: ``HMAC(key, "<METHOD>\\n<expires>\\n<path>")`` with SHA-1,
SHA-256 or SHA-512, sent as hex (digest chosen by length) or as
``<digest>:<base64url>``; ``key`` is the account's
``X-Account-Meta-Temp-URL-Key`` or ``…-Key-2``. ``path`` may be the path
after the mount prefix (``/v1/AUTH_p/c/o``, what Swift itself signs and what
heatclient/swiftclient compute from ``/v1/…``) or the full request path
(``/object-store/v1/AUTH_p/c/o``, what a client computes from the catalog
endpoint's URL path): the mount prefix is a property of this one-port local
cloud that clients cannot know about. A GET or PUT URL also grants HEAD.
"""

import base64
import binascii
import calendar
import hashlib
import hmac
import posixpath
import re
import time
from urllib.parse import parse_qs
from urllib.parse import quote
from urllib.parse import unquote
from urllib.parse import urlsplit

from occli.localcloud import common
from occli.localcloud.objectstore import accounts

TEMP_URL_KEYS = ("temp-url-key", "temp-url-key-2")
_DIGESTS = {"sha1": hashlib.sha1, "sha256": hashlib.sha256, "sha512": hashlib.sha512}
_HEX_DIGESTS = {40: "sha1", 64: "sha256", 128: "sha512"}
_HEX = re.compile(r"[0-9a-fA-F]+")
_OBJECT_PATH = re.compile(r"/v1/(AUTH_[^/]+)/([^/]+)/(.+)")


def _now():
    return common.utcnow().timestamp()


def first(query, name):
    """The first value of query parameter ``name`` (what Swift reads)."""
    values = query.get(name)
    return values[0] if values else None


def _parse_expires(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        pass
    try:
        return calendar.timegm(time.strptime(value, "%Y-%m-%dT%H:%M:%SZ"))
    except (TypeError, ValueError):
        return None


def _parse_sig(sig):
    """``(digest name, hex signature)`` of a temp_url_sig, or ``None``."""
    if ":" in sig:
        name, _, encoded = sig.partition(":")
        if name not in _DIGESTS:
            return None
        try:
            raw = base64.urlsafe_b64decode(
                encoded.replace(" ", "-").replace("+", "-").replace("/", "_")
                + "=" * (-len(encoded) % 4)
            )
        except (binascii.Error, ValueError):
            return None
        return name, raw.hex()
    name = _HEX_DIGESTS.get(len(sig))
    if name is None or not _HEX.fullmatch(sig):
        return None
    return name, sig.lower()


def methods_allowed_by(method):
    """Signature methods that grant ``method``: Swift lets a GET or PUT
    temp URL also answer HEAD."""
    return ("HEAD", "GET", "PUT") if method == "HEAD" else (method,)


def temp_url_signature(key, method, expires, path, digest="sha256"):
    """The hex temp-URL signature Swift expects (checked here; also for
    tests and tools)."""
    body = "%s\n%s\n%s" % (method.upper(), int(expires), path)
    return hmac.new(key.encode(), body.encode(), _DIGESTS[digest]).hexdigest()


def signature_valid(db, account, methods, paths, sig, expires):
    """Whether ``sig`` signs one of ``methods`` × ``paths`` until
    ``expires`` (not past) with one of ``account``'s temp-URL keys."""
    sig = _parse_sig(sig or "")
    expires = _parse_expires(expires)
    if sig is None or expires is None or expires < _now():
        return False
    digest, signature = sig
    keys = [v for k, v in accounts.metadata(db, account).items() if k in TEMP_URL_KEYS and v]
    for key in keys:
        for method in methods:
            for path in paths:
                expected = temp_url_signature(key, method, expires, path, digest)
                if hmac.compare_digest(expected, signature):
                    return True
    return False


def grants(db, account, method, path, prefix, query):
    """Whether the temp URL query (``temp_url_sig``, ``temp_url_expires``)
    of request ``path`` (decoded) grants ``method`` on ``account``: signed
    over ``/v1/…`` or over the full path under mount ``prefix``."""
    short = path[len(prefix) :] if path.startswith(prefix + "/") else path
    return signature_valid(
        db,
        account,
        methods_allowed_by(method),
        {path, short},
        first(query, "temp_url_sig"),
        first(query, "temp_url_expires"),
    )


def signed_object(db, url, prefix, method="HEAD"):
    """``(account, container, object)`` that temp URL ``url`` validly
    grants ``method`` on (signature over ``/v1/…`` or the full path under
    mount ``prefix``, not expired, keyed by that account's temp-URL keys),
    or None.

    For services that read an object on the authority of a URL they were
    given (heat's TEMP_URL_SIGNAL polling).
    """
    try:
        parts = urlsplit(url)
    except (TypeError, ValueError, AttributeError):
        return None
    path = unquote(parts.path)
    short = path[len(prefix) :] if path.startswith(prefix + "/") else path
    m = _OBJECT_PATH.fullmatch(short)
    if m is None or "\x00" in path:
        return None
    query = parse_qs(parts.query, keep_blank_values=True)
    if not grants(db, m.group(1), method, path, prefix, query):
        return None
    return m.groups()


def content_disposition(query, object_name):
    """Swift tempurl's ``Content-Disposition`` for a temp URL GET/HEAD.

    ``inline`` alone gives ``inline``; otherwise ``filename`` (first value)
    or the object's base name, as ``<type>; filename="<quoted>";
    filename*=UTF-8''<quoted>`` (RFC 6266/5987). Both forms are
    percent-encoded, so quotes, backslashes, CR/LF and non-ASCII never
    reach the header raw; the plain form keeps spaces and slashes readable.
    """
    filename = first(query, "filename")
    kind = "inline" if "inline" in query else "attachment"
    if kind == "inline" and not filename:
        return "inline"
    if not filename:
        filename = posixpath.basename(object_name.rstrip("/"))
    return "%s; filename=\"%s\"; filename*=UTF-8''%s" % (
        kind,
        quote(filename, safe=" /"),
        quote(filename),
    )
