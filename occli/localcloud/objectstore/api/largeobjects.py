"""Large objects on the object routes, as Swift's ``slo`` and ``dlo``
middlewares answer them (swift/common/middleware/slo.py, dlo.py): a
static manifest's PUT (``?multipart-manifest=put``), GET/HEAD (its
segments streamed one after the other, ranges over the whole),
``?multipart-manifest=get`` (the manifest, ``format=raw`` as PUT) and
``?multipart-manifest=delete`` (its segments, then itself, with bulk's
report); a dynamic one's (``X-Object-Manifest``) GET/HEAD from its
container's listing. Each segment is read with the caller's rights (the
read ACL of its container), as Swift's subrequests carry the caller's
token. The rules are in :mod:`occli.localcloud.objectstore.slo` and
:mod:`.dlo`; the streaming is :class:`Assembled`."""

import hashlib
import json
import logging
import secrets
import urllib.parse
import xml.sax.saxutils

from occli.localcloud import common as common_
from occli.localcloud import errors
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.files import STALE_ATTEMPTS
from occli.localcloud.files import Stale
from occli.localcloud.objectstore import containers
from occli.localcloud.objectstore import dlo
from occli.localcloud.objectstore import expiry
from occli.localcloud.objectstore import objects
from occli.localcloud.objectstore import slo
from occli.localcloud.objectstore.api import common

LOG = logging.getLogger("occli.localcloud")
# bulk's ACCEPTABLE_FORMATS: the formats of slo's and bulk's reports
ACCEPTABLE_FORMATS = ("text/plain", "application/json", "application/xml", "text/xml")


class SegmentError(Exception):
    """A segment that cannot be served (missing, changed, not readable)."""


def manifest_query(req):
    """The request's ``multipart-manifest`` query value (or None)."""
    return req.arg("multipart-manifest")


def check_reserved(req):
    """slo's 400 for ``X-Static-Large-Object`` on any other write."""
    if req.header("X-Static-Large-Object") is not None:
        raise common.SwiftError(400, slo.RESERVED_HEADER)


def _out_format(req):
    """The report's format the ``Accept`` header picks of
    ACCEPTABLE_FORMATS (``text/plain`` if none)."""
    for item in (req.header("Accept") or "").split(","):
        kind = item.split(";")[0].strip().lower()
        if kind in ACCEPTABLE_FORMATS:
            return kind
    return "text/plain"


def report(fmt, data, problems, root):
    """request_helpers' ``get_heartbeat_response_body``: ``data`` and the
    ``[[name, status]]`` problems as JSON, XML or plain text."""
    if fmt == "application/json":
        return json.dumps({**data, "Errors": problems}).encode("ascii")
    if fmt.endswith("/xml"):
        esc = xml.sax.saxutils.escape
        out = ["<%s>\n" % root]
        for key in sorted(data):
            tag = key.replace(" ", "_").lower()
            out.append("<%s>%s</%s>\n" % (tag, esc(str(data[key])), tag))
        out.append("<errors>\n")
        for name, status in problems:
            out.append(
                "<object><name>%s</name><status>%s</status></object>\n" % (esc(name), esc(status))
            )
        out.append("</errors>\n</%s>\n" % root)
        return "".join(out).encode()
    lines = ["%s: %s\n" % (key, data[key]) for key in sorted(data)]
    lines.append("Errors:\n")
    lines.extend("%s, %s\n" % (name, status) for name, status in problems)
    return "".join(lines).encode()


def refusal(req, via, kind, container, method):
    """None if the caller may ``method`` (``GET``/``HEAD``/``DELETE``) on
    ``container`` by its ``kind`` ACL, else the status line Swift's
    subrequest answers (``403 Forbidden``…). A temp URL's subrequests are
    let through, as tempurl's authorize override lets them."""
    if via == "temp_url":
        return None
    saved = req.method, req.db
    with req.cloud.store.read() as db:
        req.method, req.db = method, db
        try:
            common.authorize(req, acl=common.container_acl(req, kind, container))
        except HTTPError as exc:
            return "%d %s" % (exc.status, common_.reason(exc.status))
        finally:
            req.method, req.db = saved
    return None


# -- PUT ?multipart-manifest=put ------------------------------------------


def put_manifest(req, via, write):
    """Store the manifest the body lists (slo's ``handle_multipart_put``);
    ``write(stored, sysmeta)`` stores its bytes as the object and returns
    the 201's headers (the object PUT's own, with its quota checks)."""
    if req.header("X-Copy-From") is not None:
        raise common.SwiftError(405, "Multipart Manifest PUTs cannot be COPY requests")
    length = req.environ.get("CONTENT_LENGTH")
    if not length and "chunked" not in (req.header("Transfer-Encoding") or "").lower():
        raise HTTPError(411)
    if length and length.isdigit() and int(length) > slo.MAX_MANIFEST_SIZE:
        raise slo.too_large()
    body = b"".join(req.body_chunks(slo.MAX_MANIFEST_SIZE + 1))
    if len(body) > slo.MAX_MANIFEST_SIZE:
        raise slo.too_large()
    container, name = req.params["container"], req.params["object"]
    data, sysmeta = build_manifest(req, via, body, container, name)
    sent = (req.header("Etag") or "").strip('"')
    if sent and sent != sysmeta["slo_etag"]:
        raise HTTPError(422)
    headers = write(req.cloud.objectstore.files.store([data]), sysmeta)
    headers["Etag"] = '"%s"' % sysmeta["slo_etag"]
    return headers


def build_manifest(req, via, body, container, name):
    """``(stored manifest, system metadata)`` of manifest ``body`` PUT as
    ``name`` of ``container``: parsed, its segments checked as the caller
    reads them (slo's 400 with the report of their problems)."""
    account = req.params["account"]
    segments = slo.parse(body, account, container, name)
    if sum("path" in s for s in segments) > slo.MAX_MANIFEST_SEGMENTS:
        text = "Number of object-backed segments must be <= %d" % slo.MAX_MANIFEST_SEGMENTS
        raise common.SwiftError(413, text)
    fmt = _out_format(req)
    names = {slo.split(s["path"])[0] for s in segments if "path" in s}
    denied = {c: refusal(req, via, "read", c, "HEAD") for c in names}
    with req.cloud.store.read() as db:
        manifest, size, problems = slo.resolve(
            db, account, segments, {c: d for c, d in denied.items() if d}
        )
    if problems:
        raise HTTPError(
            400,
            headers={"Content-Type": fmt},
            extra={"text": report(fmt, {}, problems, "upload").decode()},
        )
    return json.dumps(manifest).encode(), slo.sysmeta(manifest, size)


def copy_source(req, via, src, target):
    """What the copy middleware's GET of source ``src`` (a stored object)
    answers, to store as ``target`` (``(container, object)``): ``(chunks,
    size, sysmeta, etag to verify or None)``. A large object is copied
    whole (its segments read with the caller's rights), with
    ``?multipart-manifest=get`` its manifest (a static one checked again,
    as the copy's ``multipart-manifest=put``)."""
    files = req.cloud.objectstore.files
    most = req.cloud.objectstore.max_object_size
    manifest_get = manifest_query(req) == "get"
    if slo.is_slo(src):
        segments = json.loads(files.read(src["file"]))
        if manifest_get:
            data, sysmeta = build_manifest(req, via, slo.raw(segments), *target)
            return [data], len(data), sysmeta, None
        size = slo.large_size(src)
        if size > most:
            raise common.SwiftError(413, common.TOO_LARGE)
        chunks = Assembled(req, via, segments, 0, size).prime() if size else ()
        return chunks, size, {}, None
    value = dlo.manifest_of(src)
    if value is not None and not manifest_get:
        container, prefix = urllib.parse.unquote(value).split("/", 1)
        with req.cloud.store.read() as db:
            limit = req.cloud.objectstore.listing_limit
            segments = dlo.segments(db, req.params["account"], container, prefix, limit)
        size = sum(s["bytes"] for s in segments)
        if size > most:
            raise common.SwiftError(413, common.TOO_LARGE)
        chunks = Assembled(req, via, segments, 0, size).prime() if size else ()
        return chunks, size, {}, None
    if src["size"] > most:
        raise common.SwiftError(413, common.TOO_LARGE)
    # opened now: the source as this snapshot has it (files.Stale if
    # replaced since, and the request runs again)
    return files.reader(src["file"]), src["size"], objects.sysmeta(src), src["etag"]


# -- GET/HEAD ----------------------------------------------------------------


class Assembled:
    """The bytes ``start`` to ``end`` (exclusive) of a large object whose
    segments are ``segments`` (slo's stored form: ``name``, ``bytes``,
    ``hash``, ``range``, ``sub_slo``; or ``data``), each read when its turn
    comes, with the caller's rights, in chunks of at most the files'
    ``CHUNK``. A segment missing, changed (etag or size) or not readable
    ends the body there, logged (Swift's SegmentedIterable: the status is
    sent); :meth:`prime` reads the first before the answer (a 409 then)."""

    def __init__(self, req, via, segments, start, end):
        self.req, self.via = req, via
        self.segments, self.start, self.end = segments, start, end
        self.allowed = {}
        self.reader = None
        self._chunks = self._generate()
        self._first = None

    def prime(self):
        """Read the first chunk now: HTTPError 409 if its segment cannot be
        served (slo's and dlo's ``validate_first_segment``)."""
        try:
            self._first = next(self._chunks, None)
        except SegmentError as exc:
            self.close()
            LOG.warning("large object %s: %s", self.req.path, exc)
            raise HTTPError(409) from None
        return self

    def __iter__(self):
        try:
            if self._first is not None:
                yield self._first
            yield from self._chunks
        except (SegmentError, Stale) as exc:
            LOG.warning("large object %s: %s (body truncated)", self.req.path, exc)
        finally:
            self.close()

    def close(self):
        if self.reader is not None:
            self.reader.close()
            self.reader = None
        self._chunks.close()

    def _pieces(self, segments, start, end, depth):
        """``(segment, offset, length)`` of each segment overlapping
        ``start``-``end`` of the object ``segments`` make, sub-manifests
        expanded (at most MAX_RECURSION_DEPTH deep)."""
        at = 0
        for seg in segments:
            length = slo.length_of(seg)
            lo, hi = max(start, at), min(end, at + length)
            if lo < hi:
                first = int(seg["range"].split("-")[0]) if seg.get("range") else 0
                offset = first + lo - at
                if seg.get("sub_slo"):
                    if depth >= slo.MAX_RECURSION_DEPTH:
                        raise SegmentError("max recursion depth exceeded")
                    inner = self._manifest(seg)
                    yield from self._pieces(inner, offset, offset + hi - lo, depth + 1)
                else:
                    yield seg, offset, hi - lo
            at += length
            if at >= end:
                return

    def _generate(self):
        for seg, offset, length in self._pieces(self.segments, self.start, self.end, 1):
            if "data" in seg:
                raw = slo.data_of(seg)[offset : offset + length]
                yield from (raw[i : i + 65536] for i in range(0, len(raw), 65536))
                continue
            self.reader = self._open(seg, offset, length)
            yield from self.reader
            self.reader = None

    def _row(self, seg, db):
        """The stored segment ``seg``, checked as SegmentedIterable does."""
        container, name = slo.split(seg["name"])
        if container not in self.allowed:
            self.allowed[container] = refusal(self.req, self.via, "read", container, "GET")
        denied = self.allowed[container]
        if denied:
            raise SegmentError("got %s while retrieving %s" % (denied, seg["name"]))
        obj = objects.read(db, self.req.params["account"], container, name)
        if obj is None:
            raise SegmentError("got 404 Not Found while retrieving %s" % seg["name"])
        size, etag = obj["size"], obj["etag"]
        if seg.get("sub_slo"):
            size, etag = slo.large_size(obj), slo.large_etag(obj)
        if (seg.get("hash") and etag != seg["hash"].strip('"')) or (
            seg.get("bytes") is not None and size != int(seg["bytes"])
        ):
            raise SegmentError(
                "Object segment no longer valid: %s etag: %s != %s or %s != %s."
                % (seg["name"], etag, seg.get("hash"), size, seg.get("bytes"))
            )
        return obj

    def _manifest(self, seg):
        return json.loads(self._current(seg, lambda files, name: files.read(name)))

    def _open(self, seg, offset, length):
        return self._current(seg, lambda files, name: files.reader(name, offset, length))

    def _current(self, seg, use):
        """``use(files, name)`` of segment ``seg``'s file as a read finds
        it, read again while that file turns out replaced since (Stale:
        the segments after the first are read as the body streams, out of
        reach of the request's own new attempts). An open file outlives a
        replace: only the open must find it."""
        files = self.req.cloud.objectstore.files
        for attempt in range(1, STALE_ATTEMPTS + 1):
            with self.req.cloud.store.read() as db:
                obj = self._row(seg, db)
            try:
                return use(files, obj["file"])
            except Stale:
                if attempt == STALE_ATTEMPTS:
                    raise
        raise AssertionError("unreachable")


def serve(req, via, obj, headers, size, segments):
    """The answer to a GET or HEAD of a large object of ``size`` bytes made
    of ``segments``: ``headers`` (its etag among them), the ``Range`` of it
    (several as ``multipart/byteranges``), the first segment checked."""
    spans = None if req.method == "HEAD" else common.byte_ranges(req.header("Range"), size)
    if spans == []:
        headers["Content-Range"] = "bytes */%d" % size
        page = common.html_page(416, "The Range requested is not available.")
        return Response(416, headers=headers, raw=page, content_type="text/html; charset=UTF-8")
    if req.method == "HEAD":
        content_type = obj["content_type"]
        return Response(200, headers=headers, stream=(), length=size, content_type=content_type)
    if spans and len(spans) > 1:
        boundary = b"%.32x" % secrets.randbits(128)
        parts = [(s, Assembled(req, via, segments, *s)) for s in spans]
        parts[0][1].prime()
        multipart = common.ByteRanges(parts, size, obj["content_type"], boundary)
        return Response(
            206,
            headers=headers,
            stream=multipart,
            length=multipart.length(),
            content_type="multipart/byteranges;boundary=%s" % boundary.decode(),
        )
    status, (start, end) = (206, spans[0]) if spans else (200, (0, size))
    if spans:
        headers["Content-Range"] = "bytes %d-%d/%d" % (start, end - 1, size)
    body = Assembled(req, via, segments, start, end).prime() if end > start else ()
    return Response(
        status, headers=headers, stream=body, length=end - start, content_type=obj["content_type"]
    )


def get_static(req, via, obj, headers):
    """GET/HEAD of a static manifest: the large object, or with
    ``?multipart-manifest=get`` the manifest itself (``format=raw``: as it
    was PUT) as the object GET answers its bytes (None: let it)."""
    files = req.cloud.objectstore.files
    headers["X-Static-Large-Object"] = "True"
    if manifest_query(req) == "get":
        if req.arg("format") != "raw":
            obj["content_type"] = "application/json; charset=utf-8"
            return None
        data = slo.raw(json.loads(files.read(obj["file"])))
        headers["Etag"] = hashlib.md5(data).hexdigest()
        return Response(200, headers=headers, raw=data, content_type=obj["content_type"])
    meta = objects.sysmeta(obj)
    headers["Etag"] = '"%s"' % meta["slo_etag"]
    headers["X-Manifest-Etag"] = obj["etag"]
    answer = common.conditional(req, meta["slo_etag"], obj, headers)
    if answer is not None:
        return answer
    segments = json.loads(files.read(obj["file"]))
    return serve(req, via, obj, headers, meta["slo_size"], segments)


def get_dynamic(req, via, obj, headers):
    """GET/HEAD of a dynamic manifest (dlo's ``get_or_head_response``): its
    container's listing under the prefix, read with the caller's rights
    (that listing's error if refused), its etag the MD5 of theirs."""
    container, prefix = urllib.parse.unquote(dlo.manifest_of(obj)).split("/", 1)
    denied = refusal(req, via, "read", container, req.method)
    if denied:
        raise HTTPError(int(denied.split()[0]))
    with req.cloud.store.read() as db:
        account = req.params["account"]
        containers.get(db, account, container)  # the listing's 404
        limit = req.cloud.objectstore.listing_limit
        segments = dlo.segments(db, account, container, prefix, limit)
    complete = len(segments) < req.cloud.objectstore.listing_limit
    size = sum(s["bytes"] for s in segments)
    if complete:
        etag = dlo.etag_of(segments)
        headers["Etag"] = '"%s"' % etag
        answer = common.conditional(req, etag, obj, headers)
        if answer is not None:
            return answer
    spans = common.byte_ranges(req.header("Range"), size)
    if (spans and len(spans) > 1) or not complete:
        # dlo serves a single range only (of a complete listing)
        req.environ.pop("HTTP_RANGE", None)
    return serve(req, via, obj, headers, size, segments)


# -- DELETE ?multipart-manifest=delete --------------------------------------


def delete_manifest(req):
    """slo's ``handle_multipart_delete``: each segment (sub-manifests'
    too, then them) deleted as the caller, then the manifest; bulk's
    report (always a 200, its ``Response Status`` saying how it went)."""
    account = req.params["account"]
    fmt = _out_format(req)
    deleted = {"Number Deleted": 0, "Number Not Found": 0}
    outcome = {"Response Status": "200 OK", "Response Body": ""}
    problems = []
    via = None
    if "temp_url_sig" in req.query or "temp_url_expires" in req.query:
        with common.reading(req):
            via = common.authorize(req, temp_url_ok=True)
    path = "/%s/%s" % (req.params["container"], req.params["object"])
    for name, error in _to_delete(req, via, path):
        if error == 404:
            deleted["Number Not Found"] += 1
            continue
        if error:
            problems.append([urllib.parse.quote(name), error])
            continue
        container, obj = slo.split(name)
        status = refusal(req, via, "write", container, "DELETE")
        if status:
            problems.append([urllib.parse.quote(name), status])
            continue
        with req.cloud.store.transaction() as db:
            try:
                removed, live = objects.delete(db, account, container, obj)
            except errors.NotFound:
                removed, live = None, False
            swept = expiry.sweep(db, expiry.now())
        for file in [removed, *swept] if removed else swept:
            req.cloud.objectstore.files.remove(file)
        deleted["Number Deleted" if live else "Number Not Found"] += 1
    if problems:  # bulk's "Invalid bulk delete." cannot happen: the manifest is one
        outcome["Response Status"] = "400 Bad Request"
    body = report(fmt, {**deleted, **outcome}, problems, "delete")
    return Response(200, raw=body, content_type=fmt)


def _to_delete(req, via, path):
    """``(name, error)`` of what a manifest delete of ``path`` deletes, in
    slo's order (a manifest after its segments); ``error`` None, 404, or
    the message of a manifest that cannot be read (slo's texts)."""
    pending = [{"name": path, "sub_slo": True}]
    while pending:
        if len(pending) > slo.MAX_MANIFEST_SEGMENTS * 10:
            raise common.SwiftError(400, "Too many buffered slo segments to delete.")
        seg = pending.pop(0)
        if "data" in seg:
            continue
        if not seg.get("sub_slo"):
            yield seg["name"], None
            continue
        try:
            pending.extend(_segments_of(req, via, seg["name"]))
        except HTTPError as exc:
            yield seg["name"], 404 if exc.status == 404 else exc.extra["text"]
            continue
        pending.append({"name": seg["name"]})


def _segments_of(req, via, name):
    """The segments of manifest ``name``, read as the caller (slo's
    ``get_slo_segments`` and its texts: 400 ``Not an SLO manifest``, 404
    ``SLO manifest not found``, 401, else a 500)."""
    container, obj_name = slo.split(name)
    denied = refusal(req, via, "read", container, "GET")
    if denied and denied.startswith("401"):
        raise common.SwiftError(401, "401 Unauthorized")
    if denied:
        raise common.SwiftError(500, "Unable to load SLO manifest or segment.")
    with req.cloud.store.read() as db:
        obj = objects.read(db, req.params["account"], container, obj_name)
    if obj is None:
        raise common.SwiftError(404, "SLO manifest not found")
    if not slo.is_slo(obj):
        raise common.SwiftError(400, "Not an SLO manifest")
    return json.loads(req.cloud.objectstore.files.read(obj["file"]))
