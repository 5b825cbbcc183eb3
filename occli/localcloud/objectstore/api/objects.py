"""``/v1/AUTH_<project>/<container>/<object>``: HEAD/GET (streamed from the
object's file, the ``Range`` of it, several as ``multipart/byteranges``,
``If-*`` conditions as swob answers them; ``X-Delete-At``; a temp URL may
sign it), PUT (streamed to a file, then the metadata row; Etag
and quota checks; a large object's manifest: see :mod:`.largeobjects`),
COPY and PUT with ``X-Copy-From`` (the copy middleware's, file to file
within the account), POST (its metadata replaced, as in Swift) and
DELETE. PUT, COPY and DELETE are ``mode=None`` routes: the body streams
with no transaction open, and each opens its own short ones. The rules
are in :mod:`occli.localcloud.objectstore.objects`."""

import secrets
import urllib.parse

from occli.localcloud import errors
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.objectstore import accounts
from occli.localcloud.objectstore import containers
from occli.localcloud.objectstore import dlo
from occli.localcloud.objectstore import expiry
from occli.localcloud.objectstore import metadata
from occli.localcloud.objectstore import objects
from occli.localcloud.objectstore import slo
from occli.localcloud.objectstore import tempurl
from occli.localcloud.objectstore.api import common
from occli.localcloud.objectstore.api import largeobjects

# swift's config_true_value (X-Fresh-Metadata)
TRUE_VALUES = ("true", "1", "yes", "on", "t", "y")
# swob's body of a 202 (an object POST's answer)
ACCEPTED = "<html><h1>Accepted</h1><p>The request is accepted for processing.</p></html>"


def register(service):
    # an object PUT streams its body with no transaction open, and writes
    # only its metadata row; a DELETE removes the file after the row: both
    # open their own transactions (mode None)
    service.swift_route("GET", common.OBJECT, get_object)
    service.swift_route("PUT", common.OBJECT, put_object, mode=None)
    service.swift_route("COPY", common.OBJECT, copy_object, mode=None)
    service.swift_route("POST", common.OBJECT, post_object)
    service.swift_route("DELETE", common.OBJECT, delete_object, mode=None)


def get_object(req):
    via = common.authorize(req, temp_url_ok=True, acl=common.container_acl(req, "read"))
    try:
        obj = objects.get(
            req.db, req.params["account"], req.params["container"], req.params["object"]
        )
    except errors.NotFound:
        if "*" in (common.etags(req.header("If-Match")) or ()):
            return common.precondition_failed({})  # swob: If-Match * needs an object
        raise
    headers = {
        "Etag": obj["etag"],
        "Last-Modified": common.last_modified(obj["timestamp"]),
        "X-Timestamp": common.x_timestamp(obj["timestamp"]),
        "Accept-Ranges": "bytes",
    }
    headers.update(common.meta_out("Object", objects.metadata(obj)))
    if obj["delete_at"] is not None:
        headers["X-Delete-At"] = str(obj["delete_at"])
    if via == "temp_url":
        headers["Content-Disposition"] = tempurl.content_disposition(
            req.query, req.params["object"]
        )
    manifest = dlo.manifest_of(obj)
    if manifest is not None:
        headers["X-Object-Manifest"] = manifest
    large = None
    if slo.is_slo(obj):
        large = largeobjects.get_static(req, via, obj, headers)
    elif manifest is not None and largeobjects.manifest_query(req) != "get":
        large = largeobjects.get_dynamic(req, via, obj, headers)
    if large is not None:
        return large
    answer = common.conditional(req, obj["etag"], obj, headers)
    if answer is not None:
        return answer
    size = obj["size"]
    spans = None if req.method == "HEAD" else common.byte_ranges(req.header("Range"), size)
    if spans == []:
        headers["Content-Range"] = "bytes */%d" % size
        page = common.html_page(416, "The Range requested is not available.")
        return Response(416, headers=headers, raw=page, content_type="text/html; charset=UTF-8")
    # opened now: a replace or delete committed later unlinks the path,
    # not the open file (one committed since this snapshot: files.Stale,
    # and the request runs again)
    files = req.cloud.objectstore.files
    if spans and len(spans) > 1:
        return _byteranges(req, obj, spans, headers)
    status, (start, end) = (206, spans[0]) if spans else (200, (0, size))
    if spans:
        headers["Content-Range"] = "bytes %d-%d/%d" % (start, end - 1, size)
    body = () if req.method == "HEAD" else files.reader(obj["file"], start, end - start)
    return Response(
        status,
        headers=headers,
        stream=body,
        length=end - start,
        content_type=obj["content_type"],
    )


def _byteranges(req, obj, spans, headers):
    """swob's 206 of several ranges: a ``multipart/byteranges`` body, one
    part per range (each with the object's type and its Content-Range),
    streamed from the object's file (one handle per part, opened now)."""
    boundary = b"%.32x" % secrets.randbits(128)
    files, size, content_type = req.cloud.objectstore.files, obj["size"], obj["content_type"]
    parts = [(span, files.reader(obj["file"], span[0], span[1] - span[0])) for span in spans]
    body = common.ByteRanges(parts, size, content_type, boundary)
    return Response(
        206,
        headers=headers,
        stream=body,
        length=body.length(),
        content_type="multipart/byteranges;boundary=%s" % boundary.decode(),
    )


def put_object(req):
    account, container, name = (req.params[k] for k in ("account", "container", "object"))
    manifest = largeobjects.manifest_query(req) == "put"
    if req.header("X-Copy-From") is not None and not manifest:
        source = _path_header(req, "X-Copy-From")
        return _copy(req, source, (container, name))
    if not manifest:
        largeobjects.check_reserved(req)
    files = req.cloud.objectstore.files
    with common.reading(req) as db:
        # the reseller admin is bound by no quota (account_quotas)
        via = common.authorize(req, temp_url_ok=True, acl=common.container_acl(req, "write"))
        bound = via != "reseller"
        objects.check_name(name)
        meta, _ = common.meta_headers(req.environ, "object")
        delete_at = _delete_at(req)
        length = None if manifest else _body_length(req)
        containers.get(db, account, container)
        _check_if_none_match(req, db, account, container, name)
        if bound:
            _check_quota(req, db, account, length or 0)
        sysmeta = _dynamic(req)

    def write(stored, sysmeta, etag=None):
        return _write(req, stored, etag, bound, meta=meta, delete_at=delete_at, sysmeta=sysmeta)

    if manifest:
        headers = largeobjects.put_manifest(req, via, write)
    else:
        stored = files.store(_body(req, length), req.environ["wsgi.input"])
        headers = write(stored, sysmeta, req.header("Etag"))
    return Response(201, raw=b"", content_type="text/html; charset=UTF-8", headers=headers)


def _dynamic(req):
    """The system metadata of a PUT's or POST's ``X-Object-Manifest`` (a
    dynamic large object's manifest; 400 if malformed: dlo checks a PUT's,
    a POST's too here, where a malformed one would fail each GET), None
    without one."""
    value = req.header("X-Object-Manifest")
    if value is None:
        return None
    dlo.check_header(urllib.parse.unquote(value))
    return dlo.sysmeta(value)


def _write(req, stored, etag, bound, **row):
    """Record the object PUT stored in file ``stored`` (its ``Etag``
    checked, the quota too if ``bound``) with ``row``'s metadata; the 201's
    headers. ``stored`` is removed if it is refused."""
    account, container, name = (req.params[k] for k in ("account", "container", "object"))
    files = req.cloud.objectstore.files
    try:
        objects.check_etag(etag, stored.md5)
        with req.cloud.store.transaction() as db:
            if bound:  # the bytes received, against what is stored now
                _check_quota(req, db, account, stored.size)
            now, replaced = objects.put(
                db,
                account,
                container,
                name,
                stored,
                content_type=req.header("Content-Type"),
                **row,
            )
            swept = expiry.sweep(db, expiry.now())
    except BaseException:
        files.remove(stored.name)
        raise
    for file in [replaced, *swept]:
        files.remove(file)
    return {
        "Etag": stored.md5,
        "Last-Modified": common.last_modified(now),
        "X-Timestamp": common.x_timestamp(now),
    }


def copy_object(req):
    """The copy middleware's COPY: a PUT of ``Destination`` (in this
    account: another ``Destination-Account`` is not the caller's, 403)
    from this object."""
    if not req.header("Destination"):
        raise common.SwiftError(412, "Destination header required")
    account = req.params["account"]
    if req.header("Destination-Account") not in (None, account):
        raise HTTPError(403)
    target = _path_header(req, "Destination")
    return _copy(req, (req.params["container"], req.params["object"]), target)


def _path_header(req, name):
    """``(container, object)`` of an ``X-Copy-From`` or ``Destination``
    header (URL-quoted, its leading ``/`` optional; 412 with the copy
    middleware's text if it is not of that form)."""
    raw = urllib.parse.unquote_to_bytes(req.header(name).encode("latin-1"))
    container, _, obj = common.wsgi_text(raw.decode("latin-1")).lstrip("/").partition("/")
    if not container or not obj:
        raise common.SwiftError(
            412, "%s header must be of the form <container name>/<object name>" % name
        )
    return container, obj


def _copy(req, source, target):
    """Copy object ``source`` to ``target`` (``(container, object)`` pairs
    of the request's account), streamed file to file, as the copy
    middleware's PUT: the source's metadata updated by the request's
    (``X-Fresh-Metadata: true``: only the request's), its content type
    unless the request names one, its Etag verified (422)."""
    account = req.params["account"]
    files = req.cloud.objectstore.files
    if req.content_length:
        raise common.SwiftError(400, "Copy requests require a zero byte body")
    largeobjects.check_reserved(req)
    with common.reading(req) as db:
        # a copy needs a token: the source is read with the caller's rights
        # (its container's read ACL), the target written with them
        reading = common.authorize(req, acl=common.container_acl(req, "read", source[0]))
        via = common.authorize(req, acl=common.container_acl(req, "write", target[0]))
        bound = via != "reseller"
        objects.check_name(target[1])
        meta, _ = common.meta_headers(req.environ, "object")
        delete_at = _delete_at(req)
        src = objects.get(db, account, *source)
        containers.get(db, account, target[0])
        _check_if_none_match(req, db, account, *target)
        # a large object whole, or its manifest (multipart-manifest=get)
        reader, size, sysmeta, etag = largeobjects.copy_source(req, reading, src, target)
        if bound:
            _check_quota(req, db, account, size)
    stored = files.store(reader)
    if (req.header("X-Fresh-Metadata") or "").lower() not in TRUE_VALUES:
        # the source's metadata and X-Delete-At, unless the request's
        meta = metadata.merged(objects.metadata(src), meta)
        delete_at = delete_at or src["delete_at"]
    try:
        if stored.size != size:  # a segment missing: the proxy's short PUT
            raise HTTPError(499)
        objects.check_etag(etag, stored.md5)
        with req.cloud.store.transaction() as db:
            if bound:
                _check_quota(req, db, account, stored.size)
            now, replaced = objects.put(
                db,
                account,
                target[0],
                target[1],
                stored,
                content_type=req.header("Content-Type") or src["content_type"],
                meta=meta,
                delete_at=delete_at,
                sysmeta=sysmeta,
            )
    except BaseException:
        files.remove(stored.name)
        raise
    files.remove(replaced)
    headers = {
        "Etag": '"%s"' % sysmeta["slo_etag"] if "slo_etag" in sysmeta else stored.md5,
        "Last-Modified": common.last_modified(now),
        "X-Timestamp": common.x_timestamp(now),
        "X-Copied-From-Account": urllib.parse.quote(account),
        "X-Copied-From": urllib.parse.quote("%s/%s" % source),
        "X-Copied-From-Last-Modified": common.last_modified(src["timestamp"]),
    }
    headers.update(common.meta_out("Object", {k: v for k, v in meta.items() if v}))
    return Response(201, raw=b"", content_type="text/html; charset=UTF-8", headers=headers)


def post_object(req):
    common.authorize(req, acl=common.container_acl(req, "write"))
    largeobjects.check_reserved(req)
    meta, _ = common.meta_headers(req.environ, "object")
    objects.post(
        req.db,
        req.params["account"],
        req.params["container"],
        req.params["object"],
        meta,
        req.header("Content-Type"),
        _delete_at(req),
        manifest=(_dynamic(req) or {}).get("manifest"),
    )
    return Response(202, raw=ACCEPTED, content_type="text/html; charset=UTF-8")


def delete_object(req):
    account, container, name = (req.params[k] for k in ("account", "container", "object"))
    if largeobjects.manifest_query(req) == "delete":
        return largeobjects.delete_manifest(req)
    with common.reading(req):
        common.authorize(req, temp_url_ok=True, acl=common.container_acl(req, "write"))
    largeobjects.check_reserved(req)
    with req.cloud.store.transaction() as db:
        removed, live = objects.delete(db, account, container, name)
        swept = expiry.sweep(db, expiry.now())
    for file in [removed, *swept]:
        req.cloud.objectstore.files.remove(file)
    if not live:
        raise HTTPError(404)  # the object server's answer for an expired one
    return Response(204)


def _delete_at(req):
    """The ``X-Delete-At`` the request sets (see :func:`.expiry.delete_at`)."""
    return expiry.delete_at(req.header("X-Delete-At"), req.header("X-Delete-After"), expiry.now())


def _check_if_none_match(req, db, account, container, name):
    """The proxy's ``If-None-Match`` on a PUT: only ``*`` (400), and a 412
    if the object exists."""
    sent = common.etags(req.header("If-None-Match"))
    if sent is None:
        return
    if "*" not in sent:
        raise common.SwiftError(400, "If-None-Match only supports *")
    if objects.read(db, account, container, name) is not None:
        raise HTTPError(412)


def _check_quota(req, db, account, adding):
    config = req.cloud.config
    accounts.check_quota(db, account, adding, config.object_quota_bytes, config.object_quota_count)


def _body_length(req):
    """The declared body length, or None for a chunked body (411 without
    either, 400 if invalid, 413 over the service's ``max_object_size``)."""
    length = req.environ.get("CONTENT_LENGTH")
    if not length:
        if "chunked" not in (req.header("Transfer-Encoding") or "").lower():
            raise HTTPError(411)
        return None
    try:
        length = int(length)
    except ValueError:
        raise common.SwiftError(400, "Invalid Content-Length") from None
    if length < 0:
        raise common.SwiftError(400, "Invalid Content-Length")
    if length > req.cloud.objectstore.max_object_size:
        raise common.SwiftError(413, common.TOO_LARGE)
    return length


def _body(req, length):
    """The body's chunks: ``length`` bytes (499 if it ends sooner, as
    Swift's proxy answers a client gone) or, chunked (``length`` None),
    until it ends (413 once past the service's ``max_object_size``)."""
    most = req.cloud.objectstore.max_object_size
    received = 0
    for chunk in req.body_chunks(length):
        received += len(chunk)
        if received > most:
            raise common.SwiftError(413, common.TOO_LARGE)
        yield chunk
    if length is not None and received < length:
        raise HTTPError(499)
