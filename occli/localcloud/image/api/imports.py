"""Glance's interoperable import: ``GET /v2/info/import``,
``/v2/info/stores`` (and ``/detail``) and ``/v2/info/usage``, ``PUT
/v2/images/{id}/stage`` (streamed to a private staging file, never whole
in memory) and ``POST /v2/images/{id}/import`` (``glance-direct``: the
staged file moved among the image files, hashed, the image ``active``).
Glance 33's ``glance/api/v2/discovery.py``, ``image_data.py`` (``stage``)
and ``images.py`` (``import_image``); the rules are in
:mod:`occli.localcloud.image.imports`."""

import logging

from occli.localcloud import errors
from occli.localcloud import files
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.image import data
from occli.localcloud.image import imports
from occli.localcloud.image.api import image_data
from occli.localcloud.image.api.body import json_body

LOG = logging.getLogger(__name__)


def register(service):
    service.route("GET", "/v2/info/import", info_import)
    service.route("GET", "/v2/info/stores", info_stores)
    service.route("GET", "/v2/info/stores/detail", info_stores_detail)
    service.route("GET", "/v2/info/usage", info_usage)
    # the body streams with no transaction open (as ``…/file``)
    service.route("PUT", "/v2/images/{image_id}/stage", stage, mode=None)
    # moving and hashing the staged file: short transactions of its own
    service.route("POST", "/v2/images/{image_id}/import", import_image, mode=None)


def info_import(req):
    return Response(200, imports.info_import())


def info_stores(req):
    return Response(200, imports.info_stores())


def info_stores_detail(req):
    root = req.cloud.image.files.root
    return Response(200, imports.info_stores_detail(req.context, root))


def info_usage(req):
    return Response(200, imports.info_usage())


def stage(req):
    """``PUT …/stage`` (``application/octet-stream``): 204 once the data is
    staged (the image ``uploading``); a failed stage puts it back to
    ``queued``."""
    content_type = req.header("Content-Type")
    if content_type != "application/octet-stream":
        raise HTTPError(415, "Invalid content type %s" % content_type)
    image_id = req.params["image_id"]
    service, store = req.cloud.image, req.cloud.store
    length = image_data.body_length(req, service.image_size_cap)
    with store.transaction() as db:
        updated_at = imports.begin_stage(db, req.context, image_id)
        left = data.check_quota(db, req.context, service.user_storage_quota, image_id, length)
    chunks = image_data.body(req, length, service.image_size_cap, left)
    try:
        # the spool becomes the staged file; hashed by the import, not here
        stored = service.staging.store(chunks, req.environ["wsgi.input"], ())
    except BaseException:
        with store.transaction() as db:
            imports.unstage(db, image_id, updated_at)
        raise
    try:
        with store.transaction() as db:
            imports.finish_stage(db, image_id, stored)
            data.check_quota(db, req.context, service.user_storage_quota, image_id, stored.size)
    except BaseException:
        service.staging.remove(stored.name)
        with store.transaction() as db:
            imports.unstage(db, image_id, updated_at)
        raise
    return Response(204)


def import_image(req):
    """``POST …/import``: 202 once the image is ``active``, its data
    moved from staging and hashed as an upload's (or, that failing, back
    to ``queued``)."""
    body = json_body(req)
    image_id = req.params["image_id"]
    service, store = req.cloud.image, req.cloud.store
    with store.transaction() as db:
        begun = imports.begin_import(db, req.context, image_id, body, req.request_id)
    if begun is None:
        return Response(202)
    name, task_id = begun
    try:
        service.staging.move(name, service.files)
        stored, hash_value = _hashed(service.files, name)
        with store.transaction() as db:
            imports.finish_import(db, image_id, task_id, stored, hash_value)
    except errors.NotFound as exc:
        # deleted meanwhile: its files go with it, its task failed
        service.files.remove(name)
        with store.transaction() as db:
            imports.fail_import(db, image_id, task_id, exc.message)
        raise
    except OSError as exc:
        # Glance's flow runs after its 202: a failure shows in the image
        # (back to ``queued``) and its task, not in the answer
        LOG.warning("import of image %s failed: %s", image_id, exc)
        service.files.remove(name)
        service.staging.remove(name)
        with store.transaction() as db:
            imports.fail_import(db, image_id, task_id, "Error: %s" % type(exc).__name__)
    return Response(202)


def _hashed(image_files, name):
    """The :class:`~occli.localcloud.files.Stored` of image file ``name``
    and its ``os_hash_value``, read in bounded chunks and hashed beside
    each other (:class:`~occli.localcloud.files.Digests`)."""
    digests = files.Digests(data.DIGESTS)
    try:
        for chunk in image_files.reader(name):
            digests.update(chunk)
    finally:
        digests.close()
    stored = digests.stored(name)
    return stored, stored.hashes[data.HASH_ALGO]
