"""Swift v1's HTTP edge: routes, authorisation, headers, listings, errors.

Authorisation is done here (routes are ``auth=False``): either a token
whose project owns the account (unscoped, domain-scoped or another
project's token → 403, keystoneauth's tenant mismatch), or a valid temp URL
on an object path (checked with :mod:`.tempurl`). A path that is not UTF-8
or holds a NUL is a 412 (the proxy's ``check_utf8``). Errors are Swift's
bodies: the domain error's ``text`` verbatim, else Swift's HTML page.
"""

import contextlib
import email.utils
import math
import re

from occli.localcloud import common
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.app import Route
from occli.localcloud.app import Service
from occli.localcloud.app import Unauthenticated
from occli.localcloud.objectstore import accounts
from occli.localcloud.objectstore import containers
from occli.localcloud.objectstore import files
from occli.localcloud.objectstore import migrations
from occli.localcloud.objectstore import objects
from occli.localcloud.objectstore import tempurl

_TEMP_URL_INVALID = "401 Unauthorized: Temp URL invalid\n"
_INVALID_UTF8 = "Invalid UTF8 or contains NULL"
_TOO_LARGE = "Your request is too large."
_HTML_ERRORS = {
    401: "This server could not verify that you are authorized to access "
    "the document you requested.",
    403: "Access was denied to this resource.",
    404: "The resource could not be found.",
    405: "The method is not allowed for this resource.",
    409: "There was a conflict when trying to complete your request.",
    411: "Length Required",
    422: "The Etag you supplied does not match the object's Etag.",
    499: "The client was disconnected during request.",
}


# keystoneauth's operator_roles (as devstack sets them: member, admin): the
# roles that may change an account; a reader only reads
OPERATOR_ROLE = "member"
# the proxy's default swift_owner_headers (swift/proxy/server.py): account
# and container answers carry them only for the account's owner
# (keystoneauth's swift_owner: an operator role or the reseller admin), so a
# reader never sees a temp-URL key it could sign writes with
SWIFT_OWNER_HEADERS = frozenset(
    (
        "x-container-read",
        "x-container-write",
        "x-container-sync-key",
        "x-container-sync-to",
        "x-account-meta-temp-url-key",
        "x-account-meta-temp-url-key-2",
        "x-container-meta-temp-url-key",
        "x-container-meta-temp-url-key-2",
        "x-account-access-control",
    )
)


class SwiftError(HTTPError):
    """An error whose plain-text body is given verbatim."""

    def __init__(self, status, text, headers=None):
        super().__init__(status, text, headers=headers, extra={"text": text})


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
            set_[key[len(prefix) :].lower().replace("_", "-")] = value
        elif key.startswith(remove_prefix):
            remove.add(key[len(remove_prefix) :].lower().replace("_", "-"))
    return set_, remove


def _quota_headers(environ):
    """``{"quota-bytes"|"quota-count": value}`` of the quota headers a POST
    sends (``""``: remove), as account_quotas reads them: ``X-Account-Quota-
    <Bytes|Count>``, ``X-Remove-…`` winning, the legacy
    ``X-Account-Meta-Quota-Bytes`` standing in for the first."""
    values = {}
    for kind, name in (("BYTES", "quota-bytes"), ("COUNT", "quota-count")):
        value = environ.get("HTTP_X_ACCOUNT_QUOTA_" + kind)
        remove = environ.get("HTTP_X_REMOVE_ACCOUNT_QUOTA_" + kind)
        if kind == "BYTES":
            value = value or environ.get("HTTP_X_ACCOUNT_META_QUOTA_BYTES")
            remove = remove or environ.get("HTTP_X_REMOVE_ACCOUNT_META_QUOTA_BYTES")
        if remove:
            value = ""
        if value is not None:
            values[name] = value
    return values


def _meta_out(kind, meta):
    return {"X-%s-Meta-%s" % (kind, k.title()): v for k, v in meta.items()}


def _for_caller(headers, via):
    """``headers`` without SWIFT_OWNER_HEADERS unless ``via`` (what
    ``_authorize`` returned) is the account's owner, as the proxy's account
    and container controllers strip them."""
    if via in ("owner", "reseller"):
        return headers
    return {k: v for k, v in headers.items() if k.lower() not in SWIFT_OWNER_HEADERS}


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
    listing_limit = 10000

    @property
    def max_object_size(self):
        """Swift's ``max_file_size``: ``Config.max_object_size``."""
        return self.cloud.config.max_object_size

    @property
    def max_body(self):
        """Bodies up to an object's size get past the application's check."""
        return self.max_object_size

    def __init__(self, cloud):
        super().__init__(cloud)
        self.files = files.Files(cloud.config.data_dir)
        acct = r"/v1/(?P<account>AUTH_[^/]+)"
        cont = acct + r"/(?P<container>[^/]+)"
        obj = cont + r"/(?P<object>.+)"
        # an object PUT streams its body with no transaction open, and
        # writes only its metadata row; a DELETE removes the file after the
        # row: both open their own transactions (mode None)
        for method, regex, handler, mode in (
            ("GET", acct, self.get_account, "auto"),
            ("POST", acct, self.post_account, "auto"),
            ("GET", cont, self.get_container, "auto"),
            ("PUT", cont, self.put_container, "auto"),
            ("DELETE", cont, self.delete_container, "auto"),
            ("GET", obj, self.get_object, "auto"),
            ("PUT", obj, self.put_object, None),
            ("DELETE", obj, self.delete_object, None),
        ):
            route = Route(method, "/", handler, auth=False, mode=mode)
            route.regex = re.compile("^" + regex + "/?$")
            self.routes.append(route)

    def migrations(self):
        return list(migrations.components(self.files))

    # -- framework hooks ---------------------------------------------------

    def error_body(self, status, message, extra):
        text = extra.get("text")
        if text is None and status == 413:
            text = _TOO_LARGE
        if text is None:
            text = "<html><h1>%s</h1><p>%s</p></html>" % (
                common.reason(status),
                _HTML_ERRORS.get(status, message),
            )
        return Response(
            status,
            raw=text,
            content_type=(
                "text/html; charset=UTF-8" if text.startswith("<") else "text/plain; charset=UTF-8"
            ),
        )

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
        """The stored object as a dict (``body``, ``timestamp``, …) or None;
        ``body`` is the whole content (heat's signals are small)."""
        obj = objects.read(db, account, container, name)
        if obj is not None:
            obj["body"] = self.files.read(obj["file"])
        return obj

    def signed_object(self, db, url, method="HEAD"):
        """``(account, container, object)`` temp URL ``url`` validly grants
        ``method`` on, or None (see :func:`.tempurl.signed_object`)."""
        return tempurl.signed_object(db, url, self.prefix, method)

    # -- authorisation -----------------------------------------------------

    @contextlib.contextmanager
    def _reading(self, req):
        """``req.db`` a read transaction, for a route without one."""
        with self.cloud.store.read() as db:
            req.db = db
            try:
                yield db
            finally:
                req.db = None

    def _authorize(self, req, temp_url_ok=False):
        """Check the caller may use the account in ``req.params``.

        Returns how (keystoneauth's outcomes): ``"temp_url"``; ``"reseller"``
        (the admin role: keystoneauth's reseller admin, here on the token's
        own account only); ``"owner"`` (an operator role: ``swift_owner``);
        ``"reader"`` (any other role of the project: GET and HEAD only).
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
        if ctx.is_admin:
            return "reseller"
        if OPERATOR_ROLE in ctx.roles:
            return "owner"
        if req.method not in ("GET", "HEAD"):
            raise HTTPError(403)  # keystoneauth: not an operator role
        return "reader"

    def _valid_temp_url(self, req, account):
        path = _wsgi_text(req.path)  # Swift signs the decoded path
        return tempurl.grants(req.db, account, req.method, path, self.prefix, req.query)

    # -- listings ----------------------------------------------------------

    def _listing(self, req, items):
        try:
            limit = min(int(req.arg("limit", self.listing_limit)), self.listing_limit)
        except ValueError:
            raise SwiftError(412, "Value of limit must be a positive integer") from None
        return containers.page(
            items, req.arg("prefix"), req.arg("marker"), req.arg("end_marker"), limit
        )

    def _listing_response(self, req, listing, headers):
        if req.method == "HEAD":
            return Response(204, headers=headers)
        fmt = req.arg("format") or ""
        if "json" in fmt or "json" in (req.header("Accept") or ""):
            return Response(
                200, listing, headers=headers, content_type="application/json; charset=utf-8"
            )
        if not listing:
            return Response(204, headers=headers)
        text = "".join(i["name"] + "\n" for i in listing)
        return Response(200, headers=headers, raw=text, content_type="text/plain; charset=utf-8")

    # -- accounts ----------------------------------------------------------

    def get_account(self, req):
        via = self._authorize(req)
        info = accounts.summary(req.db, req.params["account"])
        headers = {
            "X-Account-Container-Count": len(info["containers"]),
            "X-Account-Object-Count": info["object_count"],
            "X-Account-Bytes-Used": info["bytes_used"],
            "X-Timestamp": _x_timestamp(info["created_at"]),
        }
        headers.update(_meta_out("Account", info["metadata"]))
        # account_quotas: anyone who reads the account sees its quotas
        for name in accounts.QUOTAS:
            if info["sysmeta"].get(name):
                headers["X-Account-%s" % name.title()] = info["sysmeta"][name]
        headers = _for_caller(headers, via)
        listing = self._listing(
            req,
            [
                {
                    "name": c["name"],
                    "count": c["count"],
                    "bytes": c["bytes"],
                    "last_modified": _iso_listing(c["last_modified"]),
                }
                for c in info["containers"]
            ],
        )
        return self._listing_response(req, listing, headers)

    def post_account(self, req):
        via = self._authorize(req)
        quotas = _quota_headers(req.environ)
        if quotas and via != "reseller":
            raise HTTPError(403)  # account_quotas: only the reseller sets them
        if any(v and not v.isdigit() for v in quotas.values()):
            raise HTTPError(400)
        set_, remove = _meta_headers(req.environ, "account")
        accounts.update_metadata(req.db, req.params["account"], set_, remove)
        accounts.update_sysmeta(req.db, req.params["account"], quotas)
        return Response(204)

    # -- containers --------------------------------------------------------

    def put_container(self, req):
        self._authorize(req)
        created = containers.create(req.db, req.params["account"], req.params["container"])
        return Response(201 if created else 202, raw=b"", content_type="text/html; charset=UTF-8")

    def get_container(self, req):
        via = self._authorize(req)
        row = containers.get(req.db, req.params["account"], req.params["container"])
        rows = containers.object_rows(req.db, row)
        headers = {
            "X-Container-Object-Count": len(rows),
            "X-Container-Bytes-Used": sum(o["size"] for o in rows),
            "X-Timestamp": _x_timestamp(row["created_at"]),
        }
        headers.update(_meta_out("Container", containers.metadata(row)))
        headers = _for_caller(headers, via)
        listing = self._listing(
            req,
            [
                {
                    "name": o["name"],
                    "hash": o["etag"],
                    "bytes": o["size"],
                    "content_type": o["content_type"],
                    "last_modified": _iso_listing(o["timestamp"]),
                }
                for o in rows
            ],
        )
        return self._listing_response(req, listing, headers)

    def delete_container(self, req):
        self._authorize(req)
        containers.delete(req.db, req.params["account"], req.params["container"])
        return Response(204)

    # -- objects -----------------------------------------------------------

    def get_object(self, req):
        via = self._authorize(req, temp_url_ok=True)
        obj = objects.get(
            req.db, req.params["account"], req.params["container"], req.params["object"]
        )
        headers = {
            "Etag": obj["etag"],
            "Last-Modified": _last_modified(obj["timestamp"]),
            "X-Timestamp": _x_timestamp(obj["timestamp"]),
            "Accept-Ranges": "bytes",
        }
        headers.update(_meta_out("Object", objects.metadata(obj)))
        if via == "temp_url":
            headers["Content-Disposition"] = tempurl.content_disposition(
                req.query, req.params["object"]
            )
        # opened in this read transaction: a replace or delete committed
        # meanwhile unlinks the path, not the open file
        body = () if req.method == "HEAD" else self.files.reader(obj["file"])
        return Response(
            200,
            headers=headers,
            stream=body,
            length=obj["size"],
            content_type=obj["content_type"],
        )

    def put_object(self, req):
        account, container, name = (req.params[k] for k in ("account", "container", "object"))
        with self._reading(req) as db:
            # the reseller admin is bound by no quota (account_quotas)
            bound = self._authorize(req, temp_url_ok=True) != "reseller"
            objects.check_name(name)
            length = self._body_length(req)
            containers.get(db, account, container)
            if bound:
                self._check_quota(db, account, length or 0)
        stored = self.files.store(self._body(req, length))
        try:
            objects.check_etag(req.header("Etag"), stored.md5)
            meta, _ = _meta_headers(req.environ, "object")
            with self.cloud.store.transaction() as db:
                if bound:  # the bytes received, against what is stored now
                    self._check_quota(db, account, stored.size)
                now, replaced = objects.put(
                    db,
                    account,
                    container,
                    name,
                    stored,
                    content_type=req.header("Content-Type"),
                    meta=meta,
                )
        except BaseException:
            self.files.remove(stored.name)
            raise
        self.files.remove(replaced)
        return Response(
            201,
            raw=b"",
            content_type="text/html; charset=UTF-8",
            headers={
                "Etag": stored.md5,
                "Last-Modified": _last_modified(now),
                "X-Timestamp": _x_timestamp(now),
            },
        )

    def delete_object(self, req):
        account, container, name = (req.params[k] for k in ("account", "container", "object"))
        with self._reading(req):
            self._authorize(req, temp_url_ok=True)
        with self.cloud.store.transaction() as db:
            removed = objects.delete(db, account, container, name)
        self.files.remove(removed)
        return Response(204)

    def _check_quota(self, db, account, adding):
        config = self.cloud.config
        accounts.check_quota(
            db, account, adding, config.object_quota_bytes, config.object_quota_count
        )

    def _body_length(self, req):
        """The declared body length, or None for a chunked body (411
        without either, 400 if invalid, 413 over ``max_object_size``)."""
        length = req.environ.get("CONTENT_LENGTH")
        if not length:
            if "chunked" not in (req.header("Transfer-Encoding") or "").lower():
                raise HTTPError(411)
            return None
        try:
            length = int(length)
        except ValueError:
            raise SwiftError(400, "Invalid Content-Length") from None
        if length < 0:
            raise SwiftError(400, "Invalid Content-Length")
        if length > self.max_object_size:
            raise SwiftError(413, _TOO_LARGE)
        return length

    def _body(self, req, length):
        """The body's chunks: ``length`` bytes (499 if it ends sooner, as
        Swift's proxy answers a client gone) or, chunked (``length`` None),
        until it ends (413 once past ``max_object_size``)."""
        received = 0
        for chunk in req.body_chunks(length):
            received += len(chunk)
            if received > self.max_object_size:
                raise SwiftError(413, _TOO_LARGE)
            yield chunk
        if length is not None and received < length:
            raise HTTPError(499)
