"""Helpers of Swift's API modules: the account, container and object path
patterns, Swift's errors, the caller's authorisation (done by the handlers:
the routes are ``auth=False``), header formats and listings."""

import contextlib
import email.utils
import itertools
import math

from occli.localcloud import common
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.app import Unauthenticated
from occli.localcloud.objectstore import acls
from occli.localcloud.objectstore import containers
from occli.localcloud.objectstore import metadata
from occli.localcloud.objectstore import tempurl

# the paths of an account, a container and an object (regular expressions)
ACCOUNT = r"/v1/(?P<account>AUTH_[^/]+)"
CONTAINER = ACCOUNT + r"/(?P<container>[^/]+)"
OBJECT = CONTAINER + r"/(?P<object>.+)"

TEMP_URL_INVALID = "401 Unauthorized: Temp URL invalid\n"
INVALID_UTF8 = "Invalid UTF8 or contains NULL"
TOO_LARGE = "Your request is too large."
# keystoneauth's operator_roles (as devstack sets them: member, admin): the
# roles that may change an account; a reader only reads
OPERATOR_ROLE = "member"
# keystoneauth's default_domain_id: ACL names (not ids) match only there
DEFAULT_DOMAIN = "default"
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
# swob's limits on the ranges of one request (RFC 7233's "egregious" ones)
MAX_RANGES = 50
MAX_RANGE_OVERLAPS = 2
MAX_NONASCENDING_RANGES = 8


class SwiftError(HTTPError):
    """An error whose plain-text body is given verbatim."""

    def __init__(self, status, text, headers=None):
        super().__init__(status, text, headers=headers, extra={"text": text})


def x_timestamp(ts):
    return "%016.05f" % ts


def last_modified(ts):
    return email.utils.formatdate(math.ceil(ts), usegmt=True)


def iso_listing(ts):
    return common.iso_naive_micro(common.from_timestamp(ts))


def meta_headers(environ, kind):
    """``(set, remove)`` dicts of ``X-<kind>-Meta-*`` request headers
    (BadRequest past Swift's limits on what a request sends)."""
    set_, remove = {}, set()
    prefix = "HTTP_X_%s_META_" % kind.upper()
    remove_prefix = "HTTP_X_REMOVE_%s_META_" % kind.upper()
    for key, value in environ.items():
        if key.startswith(prefix):
            set_[key[len(prefix) :].lower().replace("_", "-")] = value
        elif key.startswith(remove_prefix):
            remove.add(key[len(remove_prefix) :].lower().replace("_", "-"))
    metadata.check(kind.lower(), set_)
    return set_, remove


def meta_out(kind, meta):
    return {"X-%s-Meta-%s" % (kind, k.title()): v for k, v in meta.items()}


def for_caller(headers, via):
    """``headers`` without SWIFT_OWNER_HEADERS unless ``via`` (what
    :func:`authorize` returned) is the account's owner, as the proxy's
    account and container controllers strip them."""
    if via in ("owner", "reseller"):
        return headers
    return {k: v for k, v in headers.items() if k.lower() not in SWIFT_OWNER_HEADERS}


def wsgi_text(value):
    """A WSGI (latin-1 decoded) path string as the UTF-8 text it encodes.

    Like Swift's proxy, a path that is not UTF-8 or holds a NUL is a 412.
    """
    try:
        text = value.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        raise SwiftError(412, INVALID_UTF8) from None
    if "\x00" in text:
        raise SwiftError(412, INVALID_UTF8)
    return text


@contextlib.contextmanager
def reading(req):
    """``req.db`` a read transaction, for a route without one."""
    with req.cloud.store.read() as db:
        req.db = db
        try:
            yield db
        finally:
            req.db = None


def authorize(req, temp_url_ok=False, acl=None):
    """Check the caller may use the account in ``req.params``.

    ``acl`` is the container ACL that may grant the request to others (the
    ``X-Container-Read`` of the container read, ``-Write`` of the one
    written: see :func:`container_acl`; None: the account's project only).
    Returns how (keystoneauth's outcomes, in its order): ``"temp_url"``;
    ``"reseller"`` (the admin role: keystoneauth's reseller admin, here on
    the token's own account only); ``"acl"`` (granted by ``acl``: another
    project's user, a referrer, anonymous callers included, or a role the
    ACL names); ``"owner"`` (an operator role: ``swift_owner``);
    ``"reader"`` (any other role of the project: GET and HEAD only).
    """
    account = req.params["account"]
    if "temp_url_sig" in req.query or "temp_url_expires" in req.query:
        if not temp_url_ok or not _valid_temp_url(req, account):
            raise SwiftError(401, TEMP_URL_INVALID)
        return "temp_url"
    on_object = "object" in req.params
    referred = acls.by_referrer(acl, req.header("Referer"), on_object)
    if not req.header("X-Auth-Token"):
        if referred:  # authorize_anonymous
            return "acl"
        raise HTTPError(401)
    try:
        ctx = req.context = req.cloud.authenticate(req)
    except Unauthenticated as exc:
        raise HTTPError(401, headers=exc.headers) from None
    own = bool(ctx.project_id) and "AUTH_" + ctx.project_id == account
    if own and ctx.is_admin:
        return "reseller"
    if ctx.project_id and acls.cross_project(
        acl,
        (ctx.project_id, ctx.project_name),
        (ctx.user_id, ctx.user_name),
        names=ctx.domain_id == DEFAULT_DOMAIN,
    ):
        return "acl"
    if referred:
        return "acl"
    if not own:
        raise HTTPError(403)
    if OPERATOR_ROLE in ctx.roles:
        return "owner"
    if req.method in ("GET", "HEAD"):
        return "reader"
    if referred is None and acls.by_role(acl, ctx.roles):
        return "acl"
    raise HTTPError(403)  # keystoneauth: not an operator role


def container_acl(req, kind, container=None):
    """The ``kind`` (``read`` or ``write``) ACL of ``container`` (default:
    the request's) in the request's account, None if it has none or does
    not exist (then only the account's project is let in, as Swift's
    container info of a missing container grants nothing)."""
    name = container if container is not None else req.params["container"]
    row = containers.find(req.db, req.params["account"], name)
    return containers.acl(row).get(kind) if row is not None else None


def _valid_temp_url(req, account):
    path = wsgi_text(req.path)  # Swift signs the decoded path
    prefix = req.cloud.objectstore.prefix
    return tempurl.grants(req.db, account, req.method, path, prefix, req.query)


def listing(req, items):
    """The page of ``items`` (dicts with a ``name``) the listing query asks
    for (``prefix``, ``delimiter``, ``marker``, ``end_marker``, ``limit``):
    at most the service's ``listing_limit``, a larger ``limit`` a 412 and
    one not of digits ignored (request_helpers' ``constrain_req_limit``)."""
    most = req.cloud.objectstore.listing_limit
    given = req.arg("limit") or ""
    limit = most
    if given.isascii() and given.isdigit():
        # a number too long to convert is past any limit
        digits = given.lstrip("0") or "0"
        limit = int(digits) if len(digits) <= len(str(most)) else most + 1
    if limit > most:
        raise SwiftError(412, "Maximum limit is %d" % most)
    return containers.page(
        items,
        req.arg("prefix"),
        req.arg("marker"),
        req.arg("end_marker"),
        limit,
        req.arg("delimiter"),
    )


def listing_response(req, listing, headers):
    """A listing as JSON or plain text (one name a line), HEAD's 204."""
    if req.method == "HEAD":
        return Response(204, headers=headers)
    fmt = req.arg("format") or ""
    if "json" in fmt or "json" in (req.header("Accept") or ""):
        return Response(
            200, listing, headers=headers, content_type="application/json; charset=utf-8"
        )
    if not listing:
        return Response(204, headers=headers)
    text = "".join(i.get("name", i.get("subdir")) + "\n" for i in listing)
    return Response(200, headers=headers, raw=text, content_type="text/plain; charset=utf-8")


def html_page(status, text):
    """swob's default HTML body of ``status`` (its RESPONSE_REASONS)."""
    return "<html><h1>%s</h1><p>%s</p></html>" % (common.reason(status), text)


def etags(value):
    """The entity tags of an ``If-Match``/``If-None-Match`` value (quotes
    dropped; ``*`` kept), as swob's ``Match`` reads it; None if absent."""
    if value is None:
        return None
    return {t.strip().strip('"') for t in value.split(",") if t.strip()}


def precondition(req, etag, ts):
    """304 or 412 if the request's ``If-None-Match``, ``If-Match``,
    ``If-Modified-Since`` or ``If-Unmodified-Since`` rules out an object of
    ``etag`` last modified at ``ts`` (swob's order), else None."""
    none_match = etags(req.header("If-None-Match"))
    if none_match and ("*" in none_match or etag in none_match):
        return 304
    match = etags(req.header("If-Match"))
    if match and "*" not in match and etag not in match:
        return 412
    modified = math.ceil(ts)
    since = _http_date(req.header("If-Modified-Since"))
    if since is not None and modified <= since:
        return 304
    since = _http_date(req.header("If-Unmodified-Since"))
    if since is not None and modified > since:
        return 412
    return None


def precondition_failed(headers):
    """swob's 412 page, with the object's ``headers``."""
    page = html_page(412, "A precondition for this request was not met.")
    return Response(412, headers=headers, raw=page, content_type="text/html; charset=UTF-8")


def conditional(req, etag, obj, headers):
    """The 304 or 412 answer to a GET/HEAD of stored object ``obj`` whose
    etag (as the conditions see it) is ``etag``, else None."""
    status = precondition(req, etag, obj["timestamp"])
    if status == 304:
        return Response(304, headers=headers, raw=b"", content_type=obj["content_type"])
    if status == 412:
        return precondition_failed(headers)
    return None


def _http_date(value):
    """An HTTP date's Unix time, or None (absent or unreadable: ignored)."""
    if not value:
        return None
    try:
        return email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None


def byte_ranges(value, size):
    """The ``[(start, end)]`` (end exclusive) a ``Range`` header asks of
    ``size`` bytes, as swob's ``ranges_for_length`` reads it: None to
    ignore the header (absent, malformed, or an empty object), ``[]`` if
    nothing of it is satisfiable or it is egregious (416: more than
    MAX_RANGES ranges, more than MAX_RANGE_OVERLAPS overlapping pairs, or
    MAX_NONASCENDING_RANGES or more not in ascending order)."""
    specs = _range_spec(value)
    if specs is None:
        return None
    spans = []
    for start, end in specs:
        if start is None:  # the last ``end`` bytes (``-0``: none)
            if end:
                spans.append((max(size - end, 0), size))
        elif start < size:
            spans.append((start, size if end is None else min(end + 1, size)))
    if len(spans) > MAX_RANGES or _overlaps(spans) > MAX_RANGE_OVERLAPS:
        return []
    if len(spans) >= MAX_NONASCENDING_RANGES and spans != sorted(spans):
        return []
    if size == 0 and spans:
        return None
    return spans


def _overlaps(spans):
    """How many pairs of ``spans`` overlap (swob's count: past
    MAX_RANGE_OVERLAPS it stops counting)."""
    found = 0
    for (start1, end1), (start2, end2) in itertools.combinations(spans, 2):
        if (
            start1 < start2 < end1
            or start1 < end2 < end1
            or start2 < start1 < end2
            or start2 < end1 < end2
        ):
            found += 1
            if found > MAX_RANGE_OVERLAPS:
                break
    return found


class ByteRanges:
    """A ``multipart/byteranges`` body: ``parts`` (``(span, chunks)``
    pairs, ``chunks`` a part's bytes, e.g. a :class:`.files.Reader`) framed
    as swob's ``document_iters_to_multipart_byteranges`` does; every part's
    file is closed when it is read to its end or by ``close()`` (the
    server's, also before it is read)."""

    def __init__(self, parts, size, content_type, boundary):
        self.parts = parts
        self.size = size
        self.content_type = content_type
        self.boundary = boundary

    def length(self):
        """The body's length, as swob declares it before sending it."""
        framing = sum(len(self._header(span)) + 2 for span, _ in self.parts)
        data = sum(end - start for (start, end), _ in self.parts)
        return framing + data + len(self.boundary) + 4

    def __iter__(self):
        try:
            for span, chunks in self.parts:
                yield self._header(span)
                yield from chunks
                yield b"\r\n"
            yield b"--%s--" % self.boundary
        finally:
            self.close()

    def close(self):
        for _, chunks in self.parts:
            chunks.close()

    def _header(self, span):
        return b"--%s\r\nContent-Type: %s\r\nContent-Range: bytes %d-%d/%d\r\n\r\n" % (
            self.boundary,
            self.content_type.encode(),
            span[0],
            span[1] - 1,
            self.size,
        )


def _range_spec(value):
    """``[(start|None, end|None)]`` of a ``bytes=`` Range value, or None if
    it is absent or malformed (swob's ``Range``)."""
    value = (value or "").replace(" ", "")
    if not value.lower().startswith("bytes="):
        return None
    spans = []
    for part in value[6:].split(","):
        start, sep, end = part.partition("-")
        if not sep or not (start or end):
            return None
        try:  # swob: a value int() refuses (not digits, too long) is malformed
            first, last = (int(start) if start else None), (int(end) if end else None)
        except ValueError:
            return None
        if (first is not None and first < 0) or (end and not end.isdigit()):
            return None
        if first is not None and last is not None and last < first:
            return None
        spans.append((first, last))
    return spans
