"""A minimal Swift v1 object store with temp URLs, on SQLite.

Mounted at ``/object-store``; the account of project ``p`` is
``/object-store/v1/AUTH_p`` (also answered unprefixed, ``/v1/AUTH_p``,
where heat's temp URLs point). Supports account HEAD/GET/POST (metadata,
including the temp-URL keys), container PUT/GET/HEAD/DELETE and object
PUT/GET/HEAD/DELETE. Object bodies are BLOBs, at most
:attr:`ObjectStoreService.max_object_size` bytes.

Authorisation is done here (routes are ``auth=False``): either a token whose
project owns the account, or a valid temp URL on an object path.

Temp-URL signature: ``HMAC(key, "<METHOD>\\n<expires>\\n<path>")`` with
SHA-1, SHA-256 or SHA-512, sent as hex (digest chosen by length) or as
``<digest>:<base64url>``; ``key`` is the account's
``X-Account-Meta-Temp-URL-Key`` or ``…-Key-2``. ``path`` may be either the
path after the mount prefix (``/v1/AUTH_p/c/o``, what Swift itself signs and
what heatclient/swiftclient compute from ``/v1/…``) or the full request path
(``/object-store/v1/AUTH_p/c/o``, what a client computes from the catalog
endpoint's URL path); both are accepted because the mount prefix is a
property of this one-port local cloud that clients cannot know about.

Bad input gets Swift's answers, never a 500: a path that is not UTF-8 or
holds a NUL is 412 (the proxy's ``check_utf8``); a token that is not scoped
to the account's project (unscoped, domain-scoped, another project) is 403
(keystoneauth's tenant mismatch). A temp URL ``GET``/``HEAD`` carries the
tempurl middleware's ``Content-Disposition`` (:func:`content_disposition`).
"""

import base64
import binascii
import calendar
import email.utils
import hashlib
import hmac
import json
import math
import mimetypes
import posixpath
import re
import time
from http import HTTPStatus
from urllib.parse import parse_qs, quote, unquote, urlsplit

from occli.localcloud import common
from occli.localcloud.app import HTTPError, Response, Route, Service, Unauthenticated

TEMP_URL_KEYS = ("temp-url-key", "temp-url-key-2")
_DIGESTS = {"sha1": hashlib.sha1, "sha256": hashlib.sha256,
            "sha512": hashlib.sha512}
_HEX_DIGESTS = {40: "sha1", 64: "sha256", 128: "sha512"}
_TEMP_URL_INVALID = "401 Unauthorized: Temp URL invalid\n"
_INVALID_UTF8 = "Invalid UTF8 or contains NULL"
_TOO_LARGE = "Your request is too large."
_HEX = re.compile(r"[0-9a-fA-F]+")
_HTML_ERRORS = {
    401: "This server could not verify that you are authorized to access "
         "the document you requested.",
    403: "Access was denied to this resource.",
    404: "The resource could not be found.",
    405: "The method is not allowed for this resource.",
    409: "There was a conflict when trying to complete your request.",
    411: "Length Required",
    422: "The Etag you supplied does not match the object's Etag.",
}


class SwiftError(HTTPError):
    """An error whose plain-text body is given verbatim."""

    def __init__(self, status, text, headers=None):
        super().__init__(status, text, headers=headers, extra={"text": text})


def _now():
    return common.utcnow().timestamp()


def _x_timestamp(ts):
    return "%016.05f" % ts


def _last_modified(ts):
    return email.utils.formatdate(math.ceil(ts), usegmt=True)


def _iso_listing(ts):
    return common.iso_naive_micro(common.from_timestamp(ts))


def _meta_headers(environ, kind):
    """``(set, remove)`` dicts of ``X-<kind>-Meta-*`` request headers."""
    set_, remove = {}, set()
    prefix = "HTTP_X_%s_META_" % kind.upper()
    remove_prefix = "HTTP_X_REMOVE_%s_META_" % kind.upper()
    for key, value in environ.items():
        if key.startswith(prefix):
            set_[key[len(prefix):].lower().replace("_", "-")] = value
        elif key.startswith(remove_prefix):
            remove.add(key[len(remove_prefix):].lower().replace("_", "-"))
    return set_, remove


def _meta_out(kind, meta):
    return {"X-%s-Meta-%s" % (kind, k.title()): v for k, v in meta.items()}


def _wsgi_text(value):
    """A WSGI (latin-1 decoded) path string as the UTF-8 text it encodes.

    Like Swift's proxy, a path that is not UTF-8 or holds a NUL is a 412.
    """
    try:
        text = value.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        raise SwiftError(412, _INVALID_UTF8) from None
    if "\x00" in text:
        raise SwiftError(412, _INVALID_UTF8)
    return text


def _first(query, name):
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
                + "=" * (-len(encoded) % 4))
        except (binascii.Error, ValueError):
            return None
        return name, raw.hex()
    name = _HEX_DIGESTS.get(len(sig))
    if name is None or not _HEX.fullmatch(sig):
        return None
    return name, sig.lower()


def _methods_allowed_by(method):
    """Signature methods that grant ``method``: Swift lets a GET or PUT
    temp URL also answer HEAD."""
    return ("HEAD", "GET", "PUT") if method == "HEAD" else (method,)


def content_disposition(query, object_name):
    """Swift tempurl's ``Content-Disposition`` for a temp URL GET/HEAD.

    ``inline`` alone gives ``inline``; otherwise ``filename`` (first value)
    or the object's base name, as ``<type>; filename="<quoted>";
    filename*=UTF-8''<quoted>`` (RFC 6266/5987). Both forms are
    percent-encoded, so quotes, backslashes, CR/LF and non-ASCII never
    reach the header raw; the plain form keeps spaces and slashes readable.
    """
    filename = _first(query, "filename")
    kind = "inline" if "inline" in query else "attachment"
    if kind == "inline" and not filename:
        return "inline"
    if not filename:
        filename = posixpath.basename(object_name.rstrip("/"))
    return "%s; filename=\"%s\"; filename*=UTF-8''%s" % (
        kind, quote(filename, safe=" /"), quote(filename))


def temp_url_signature(key, method, expires, path, digest="sha256"):
    """The hex temp-URL signature Swift expects (for tests and tools)."""
    body = "%s\n%s\n%s" % (method.upper(), int(expires), path)
    return hmac.new(key.encode(), body.encode(), _DIGESTS[digest]).hexdigest()


class ObjectStoreService(Service):
    """Swift v1 on ``/object-store/v1/AUTH_<project_id>``."""

    name = "objectstore"
    prefix = "/object-store"
    # Also answer ``/v1/AUTH_<project>/...`` at the root. heat (and
    # heatclient's TEMP_URL_SIGNAL) build a temp URL as
    # ``<scheme>://<netloc of the object-store endpoint>/v1/AUTH_p/c/o``,
    # dropping the endpoint's path: fine for a real Swift on its own port,
    # a 404 here without this alias.
    root_paths = ("/v1/AUTH_",)
    max_object_size = 5 * 1024 * 1024
    listing_limit = 10000

    @property
    def max_body(self):
        """Bodies up to an object's size get past the application's check."""
        return self.max_object_size

    def __init__(self, cloud):
        super().__init__(cloud)
        acct = r"/v1/(?P<account>AUTH_[^/]+)"
        cont = acct + r"/(?P<container>[^/]+)"
        obj = cont + r"/(?P<object>.+)"
        for method, regex, handler in (
                ("GET", acct, self.get_account),
                ("POST", acct, self.post_account),
                ("GET", cont, self.get_container),
                ("PUT", cont, self.put_container),
                ("DELETE", cont, self.delete_container),
                ("GET", obj, self.get_object),
                ("PUT", obj, self.put_object),
                ("DELETE", obj, self.delete_object)):
            self._route_regex(method, regex, handler)

    def _route_regex(self, method, regex, handler):
        route = Route(method, "/", handler, auth=False)
        route.regex = re.compile("^" + regex + "/?$")
        self.routes.append(route)

    def migrations(self):
        return ["""
            CREATE TABLE swift_accounts (
                account TEXT PRIMARY KEY,
                metadata TEXT NOT NULL DEFAULT '{}',
                created_at REAL NOT NULL);
            CREATE TABLE swift_containers (
                account TEXT NOT NULL,
                name TEXT NOT NULL,
                metadata TEXT NOT NULL DEFAULT '{}',
                created_at REAL NOT NULL,
                PRIMARY KEY (account, name));
            CREATE TABLE swift_objects (
                account TEXT NOT NULL,
                container TEXT NOT NULL,
                name TEXT NOT NULL,
                body BLOB NOT NULL,
                size INTEGER NOT NULL,
                etag TEXT NOT NULL,
                content_type TEXT NOT NULL,
                metadata TEXT NOT NULL DEFAULT '{}',
                timestamp REAL NOT NULL,
                PRIMARY KEY (account, container, name),
                FOREIGN KEY (account, container)
                    REFERENCES swift_containers (account, name))
        """]

    # -- framework hooks ---------------------------------------------------

    def error_body(self, status, message, extra):
        text = extra.get("text")
        if text is None and status == 413:
            text = _TOO_LARGE
        if text is None:
            text = "<html><h1>%s</h1><p>%s</p></html>" % (
                _reason(status), _HTML_ERRORS.get(status, message))
        return Response(status, raw=text, content_type=(
            "text/html; charset=UTF-8" if text.startswith("<")
            else "text/plain; charset=UTF-8"))

    def before(self, req):
        # container and object names as text, not WSGI's latin-1 of UTF-8
        req.params = {k: _wsgi_text(v) for k, v in req.params.items()}

    def after(self, req, resp):
        resp.headers.setdefault("X-Trans-Id", req.request_id)

    def not_found(self, req):
        return HTTPError(404)

    def method_not_allowed(self, req):
        return HTTPError(405)

    # -- storage access for other services --------------------------------

    def read_object(self, db, account, container, name):
        """The stored object as a dict (``body``, ``timestamp``, …) or None."""
        row = db.execute(
            "SELECT * FROM swift_objects WHERE account = ? AND container = ?"
            " AND name = ?", (account, container, name)).fetchone()
        return dict(row) if row is not None else None

    def signed_object(self, db, url, method="HEAD"):
        """``(account, container, object)`` that temp URL ``url`` validly
        grants ``method`` on (signature over ``/v1/…`` or this mount's full
        path, not expired, keyed by that account's temp-URL keys), or None.

        For services that read an object on the authority of a URL they
        were given (heat's TEMP_URL_SIGNAL polling).
        """
        try:
            parts = urlsplit(url)
        except (TypeError, ValueError, AttributeError):
            return None
        path = unquote(parts.path)
        short = path[len(self.prefix):] if path.startswith(
            self.prefix + "/") else path
        m = re.fullmatch(r"/v1/(AUTH_[^/]+)/([^/]+)/(.+)", short)
        if m is None or "\x00" in path:
            return None
        query = parse_qs(parts.query, keep_blank_values=True)
        if not self._signature_valid(
                db, m.group(1), _methods_allowed_by(method), {path, short},
                _first(query, "temp_url_sig"),
                _first(query, "temp_url_expires")):
            return None
        return m.groups()

    # -- authorisation -----------------------------------------------------

    def _authorize(self, req, temp_url_ok=False):
        """Check the caller may use the account in ``req.params``.

        Returns ``"token"`` or ``"temp_url"``.
        """
        account = req.params["account"]
        if "temp_url_sig" in req.query or "temp_url_expires" in req.query:
            if not temp_url_ok or not self._valid_temp_url(req, account):
                raise SwiftError(401, _TEMP_URL_INVALID)
            return "temp_url"
        if not req.header("X-Auth-Token"):
            raise HTTPError(401)
        try:
            ctx = req.context = self.cloud.authenticate(req)
        except Unauthenticated as exc:
            raise HTTPError(401, headers=exc.headers) from None
        if not ctx.project_id or "AUTH_" + ctx.project_id != account:
            raise HTTPError(403)
        return "token"

    def _valid_temp_url(self, req, account):
        path = _wsgi_text(req.path)   # Swift signs the decoded path
        return self._signature_valid(
            req.db, account, _methods_allowed_by(req.method),
            {path, path[len(self.prefix):]},
            _first(req.query, "temp_url_sig"),
            _first(req.query, "temp_url_expires"))

    def _signature_valid(self, db, account, methods, paths, sig, expires):
        """Whether ``sig`` signs one of ``methods`` × ``paths`` until
        ``expires`` (not past) with one of ``account``'s temp-URL keys."""
        sig = _parse_sig(sig or "")
        expires = _parse_expires(expires)
        if sig is None or expires is None or expires < _now():
            return False
        digest, signature = sig
        keys = [v for k, v in self._account_meta(db, account).items()
                if k in TEMP_URL_KEYS and v]
        for key in keys:
            for method in methods:
                for path in paths:
                    body = "%s\n%d\n%s" % (method, expires, path)
                    expected = hmac.new(key.encode(), body.encode(),
                                        _DIGESTS[digest]).hexdigest()
                    if hmac.compare_digest(expected, signature):
                        return True
        return False

    # -- accounts ------------------------------------------------------------

    def _account_meta(self, db, account):
        row = db.execute("SELECT metadata FROM swift_accounts WHERE account = ?",
                         (account,)).fetchone()
        return json.loads(row["metadata"]) if row else {}

    def _ensure_account(self, db, account):
        db.execute("INSERT OR IGNORE INTO swift_accounts"
                   " (account, metadata, created_at) VALUES (?, '{}', ?)",
                   (account, _now()))

    def get_account(self, req):
        self._authorize(req)
        account = req.params["account"]
        row = req.db.execute("SELECT * FROM swift_accounts WHERE account = ?",
                             (account,)).fetchone()
        meta = json.loads(row["metadata"]) if row else {}
        created = row["created_at"] if row else _now()
        stats = req.db.execute(
            "SELECT COUNT(*) AS n, COALESCE(SUM(size), 0) AS bytes"
            " FROM swift_objects WHERE account = ?", (account,)).fetchone()
        containers = req.db.execute(
            "SELECT c.name, c.created_at, COUNT(o.name) AS count,"
            " COALESCE(SUM(o.size), 0) AS bytes,"
            " MAX(COALESCE(o.timestamp, c.created_at), c.created_at) AS lm"
            " FROM swift_containers c LEFT JOIN swift_objects o"
            " ON o.account = c.account AND o.container = c.name"
            " WHERE c.account = ? GROUP BY c.name ORDER BY c.name",
            (account,)).fetchall()
        headers = {"X-Account-Container-Count": len(containers),
                   "X-Account-Object-Count": stats["n"],
                   "X-Account-Bytes-Used": stats["bytes"],
                   "X-Timestamp": _x_timestamp(created)}
        headers.update(_meta_out("Account", meta))
        listing = self._listing(req, [
            {"name": c["name"], "count": c["count"], "bytes": c["bytes"],
             "last_modified": _iso_listing(c["lm"])} for c in containers])
        return self._listing_response(req, listing, headers)

    def post_account(self, req):
        self._authorize(req)
        account = req.params["account"]
        self._ensure_account(req.db, account)
        meta = self._account_meta(req.db, account)
        set_, remove = _meta_headers(req.environ, "account")
        for key in remove:
            meta.pop(key, None)
        for key, value in set_.items():
            if value:
                meta[key] = value
            else:
                meta.pop(key, None)
        req.db.execute("UPDATE swift_accounts SET metadata = ?"
                       " WHERE account = ?", (json.dumps(meta), account))
        return Response(204)

    # -- containers ----------------------------------------------------------

    def _container(self, req):
        row = req.db.execute(
            "SELECT * FROM swift_containers WHERE account = ? AND name = ?",
            (req.params["account"], req.params["container"])).fetchone()
        if row is None:
            raise HTTPError(404)
        return row

    def put_container(self, req):
        self._authorize(req)
        account, name = req.params["account"], req.params["container"]
        if len(name) > 256:
            raise SwiftError(400, "Container name length of %d longer than "
                             "256" % len(name))
        self._ensure_account(req.db, account)
        created = req.db.execute(
            "INSERT OR IGNORE INTO swift_containers"
            " (account, name, metadata, created_at) VALUES (?, ?, '{}', ?)",
            (account, name, _now())).rowcount
        return Response(201 if created else 202, raw=b"",
                        content_type="text/html; charset=UTF-8")

    def get_container(self, req):
        self._authorize(req)
        row = self._container(req)
        objects = req.db.execute(
            "SELECT name, size, etag, content_type, timestamp"
            " FROM swift_objects WHERE account = ? AND container = ?"
            " ORDER BY name", (row["account"], row["name"])).fetchall()
        headers = {"X-Container-Object-Count": len(objects),
                   "X-Container-Bytes-Used": sum(o["size"] for o in objects),
                   "X-Timestamp": _x_timestamp(row["created_at"])}
        headers.update(_meta_out("Container", json.loads(row["metadata"])))
        listing = self._listing(req, [
            {"name": o["name"], "hash": o["etag"], "bytes": o["size"],
             "content_type": o["content_type"],
             "last_modified": _iso_listing(o["timestamp"])} for o in objects])
        return self._listing_response(req, listing, headers)

    def delete_container(self, req):
        self._authorize(req)
        row = self._container(req)
        busy = req.db.execute(
            "SELECT 1 FROM swift_objects WHERE account = ? AND container = ?"
            " LIMIT 1", (row["account"], row["name"])).fetchone()
        if busy:
            raise HTTPError(409)
        req.db.execute(
            "DELETE FROM swift_containers WHERE account = ? AND name = ?",
            (row["account"], row["name"]))
        return Response(204)

    def _listing(self, req, items):
        prefix, marker = req.arg("prefix"), req.arg("marker")
        end_marker = req.arg("end_marker")
        try:
            limit = min(int(req.arg("limit", self.listing_limit)),
                        self.listing_limit)
        except ValueError:
            raise SwiftError(412, "Value of limit must be a positive integer") from None
        items = [i for i in items
                 if (not prefix or i["name"].startswith(prefix))
                 and (not marker or i["name"] > marker)
                 and (not end_marker or i["name"] < end_marker)]
        return items[:max(limit, 0)]

    def _listing_response(self, req, listing, headers):
        if req.method == "HEAD":
            return Response(204, headers=headers)
        fmt = req.arg("format") or ""
        if "json" in fmt or "json" in (req.header("Accept") or ""):
            return Response(200, listing, headers=headers,
                            content_type="application/json; charset=utf-8")
        if not listing:
            return Response(204, headers=headers)
        text = "".join(i["name"] + "\n" for i in listing)
        return Response(200, headers=headers, raw=text,
                        content_type="text/plain; charset=utf-8")

    # -- objects -------------------------------------------------------------

    def _object_headers(self, row):
        headers = {"Etag": row["etag"],
                   "Last-Modified": _last_modified(row["timestamp"]),
                   "X-Timestamp": _x_timestamp(row["timestamp"]),
                   "Accept-Ranges": "bytes"}
        headers.update(_meta_out("Object", json.loads(row["metadata"])))
        return headers

    def get_object(self, req):
        via = self._authorize(req, temp_url_ok=True)
        row = self.read_object(req.db, req.params["account"],
                               req.params["container"], req.params["object"])
        if row is None:
            raise HTTPError(404)
        headers = self._object_headers(row)
        if via == "temp_url":
            headers["Content-Disposition"] = content_disposition(
                req.query, req.params["object"])
        return Response(200, headers=headers, raw=bytes(row["body"]),
                        content_type=row["content_type"])

    def put_object(self, req):
        self._authorize(req, temp_url_ok=True)
        account, container = req.params["account"], req.params["container"]
        name = req.params["object"]
        if len(name.encode()) > 1024:
            raise SwiftError(400, "Object name length of %d longer than 1024"
                             % len(name.encode()))
        body = self._read_body(req)
        self._container(req)
        etag = hashlib.md5(body).hexdigest()
        sent = (req.header("Etag") or "").strip('"').lower()
        if sent and sent != etag:
            raise HTTPError(422)
        content_type = (req.header("Content-Type")
                        or mimetypes.guess_type(name)[0]
                        or "application/octet-stream")
        meta, _ = _meta_headers(req.environ, "object")
        now = _now()
        req.db.execute(
            "INSERT OR REPLACE INTO swift_objects (account, container, name,"
            " body, size, etag, content_type, metadata, timestamp)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (account, container, name, body, len(body), etag, content_type,
             json.dumps({k: v for k, v in meta.items() if v}), now))
        return Response(201, raw=b"", content_type="text/html; charset=UTF-8",
                        headers={"Etag": etag,
                                 "Last-Modified": _last_modified(now),
                                 "X-Timestamp": _x_timestamp(now)})

    def delete_object(self, req):
        self._authorize(req, temp_url_ok=True)
        deleted = req.db.execute(
            "DELETE FROM swift_objects WHERE account = ? AND container = ?"
            " AND name = ?", (req.params["account"], req.params["container"],
                              req.params["object"])).rowcount
        if not deleted:
            raise HTTPError(404)
        return Response(204)

    def _read_body(self, req):
        length = req.environ.get("CONTENT_LENGTH")
        if not length:
            if "chunked" not in (req.header("Transfer-Encoding") or "").lower():
                raise HTTPError(411)
            body = req.environ["wsgi.input"].read(self.max_object_size + 1)
            if len(body) > self.max_object_size:
                raise SwiftError(413, _TOO_LARGE)
            return body
        try:
            length = int(length)
        except ValueError:
            raise SwiftError(400, "Invalid Content-Length") from None
        if length < 0:
            raise SwiftError(400, "Invalid Content-Length")
        if length > self.max_object_size:
            raise SwiftError(413, _TOO_LARGE)
        return req.environ["wsgi.input"].read(length) if length else b""


def _reason(status):
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"
