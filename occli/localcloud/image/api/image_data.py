"""``/v2/images/{image_id}/file``: upload (``PUT``, streamed to the
image's file, never whole in memory) and download (``GET``, streamed from
it, with ``Content-MD5``). Glance 33's ``glance/api/v2/image_data.py``;
the rules are in :mod:`occli.localcloud.image.data`."""

from occli.localcloud import errors
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.image import data
from occli.localcloud.image import images
from occli.localcloud.image import imports
from occli.localcloud.image import writes

FILE = "/v2/images/{image_id}/file"
# glance's ImageSizeLimitExceeded, as ``upload`` words it
TOO_LARGE = "The incoming image is too large: The provided image is too large."


def register(service):
    # the body streams with no transaction open; the status changes
    # (saving, then active) open their own short ones
    service.route("PUT", FILE, upload, mode=None)
    service.route("GET", FILE, download)


def upload(req):
    """``PUT …/file`` (``application/octet-stream``): 204 once the image
    is ``active``; a failed upload puts it back to ``queued``."""
    content_type = req.header("Content-Type")
    if content_type != "application/octet-stream":
        raise HTTPError(415, "Invalid content type %s" % content_type)
    image_id = req.params["image_id"]
    service, store = req.cloud.image, req.cloud.store
    quota = service.user_storage_quota
    length = body_length(req, service.image_size_cap)
    with store.transaction() as db:
        updated_at = data.begin_upload(db, req.context, image_id)
        left = data.check_quota(db, req.context, quota, image_id, length)
    chunks = body(req, length, service.image_size_cap, left)
    try:
        # a large body's spool becomes the image's file (files.Files.store),
        # its MD5 and multihash hashed beside each other
        stored = service.files.store(chunks, req.environ["wsgi.input"], data.DIGESTS)
    except BaseException:
        with store.transaction() as db:
            data.restore(db, image_id, updated_at)
        raise
    try:
        with store.transaction() as db:
            replaced = data.finish_upload(db, image_id, stored, stored.hashes[data.HASH_ALGO])
            # Glance checks again with the size known (two uploads at once)
            data.check_quota(db, req.context, quota, image_id, stored.size)
    except errors.NotFound as e:
        service.files.remove(stored.name)
        raise HTTPError(410, e.message) from None
    except errors.TooLarge:
        service.files.remove(stored.name)
        with store.transaction() as db:
            data.restore(db, image_id, updated_at)
        raise
    except BaseException:
        service.files.remove(stored.name)
        raise
    service.files.remove(replaced)
    return Response(204)


def download(req):
    """``GET …/file``: the bytes (200), none yet (204); a deactivated
    image's are for admins only (Glance's 403)."""
    image_id = req.params["image_id"]
    image = images.show(req.db, req.context, image_id)
    if image["status"] == "deactivated" and not req.context.is_admin:
        raise HTTPError(
            403,
            "The requested image has been deactivated. Image data download is forbidden.",
        )
    name = writes.data_file(req.db, image_id)
    # a staged image's file is not its data yet (imports.STAGED)
    if name is None or image["status"] in imports.STAGED:
        return Response(204)
    # opened now: a delete committed later unlinks the path, not the open
    # file (one committed since this snapshot: files.Stale, run again)
    body = () if req.method == "HEAD" else req.cloud.image.files.reader(name)
    return Response(
        200,
        headers={"Content-MD5": image["checksum"]},
        stream=body,
        length=image["size"],
        content_type="application/octet-stream",
    )


def body_length(req, cap):
    """The declared body length, or None (chunked); over ``cap`` Glance's
    413 before anything is read (far over it, the framework's:
    ``ImageService.max_body``)."""
    length = req.environ.get("CONTENT_LENGTH")
    if not length:
        return None
    try:
        length = int(length)
    except ValueError:
        raise HTTPError(400, "Invalid or missing image size in request headers.") from None
    if length > cap:
        raise HTTPError(413, TOO_LARGE)
    return length


def body(req, length, cap, left=None):
    """The body's chunks; 413 once past ``cap`` or past ``left`` (the
    bytes the storage quota leaves, None: unlimited), 499 (the client
    gone) if it ends before ``length``."""
    received = 0
    for chunk in req.body_chunks(length):
        received += len(chunk)
        if received > cap:
            raise HTTPError(413, TOO_LARGE)
        if left is not None and received > left:
            raise HTTPError(413, data.quota_text(received, left))
        yield chunk
    if length is not None and received < length:
        raise HTTPError(499)
