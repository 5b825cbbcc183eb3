"""``/v2/images``: list (limit, marker, filters, glance's ``first`` and
``next`` links), show, create, update (JSON patch), delete, deactivate
and reactivate. The rules are in :mod:`occli.localcloud.image.images`,
:mod:`~occli.localcloud.image.writes` and :mod:`~occli.localcloud.image.patch`."""

from urllib.parse import urlencode

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.image import images
from occli.localcloud.image import imports
from occli.localcloud.image import listing
from occli.localcloud.image import patch
from occli.localcloud.image import writes
from occli.localcloud.image.api.body import json_body
from occli.localcloud.image.images import MAX_LIMIT


def register(service):
    service.route("GET", "/v2/images", list_images)
    service.route("POST", "/v2/images", create_image)
    # only ``DELETE /v2/images/`` (an empty id, 404) reaches it; routing
    # answers before any policy
    service.route("DELETE", "/v2/images", delete_no_image, role=None)
    service.route("GET", "/v2/images/{image_id}", show_image)
    service.route("PATCH", "/v2/images/{image_id}", update_image)
    # deleting its data file after the commit: its own transaction
    service.route("DELETE", "/v2/images/{image_id}", delete_image, mode=None)
    for action in ("deactivate", "reactivate"):
        service.route("POST", "/v2/images/{image_id}/actions/" + action, change_status)


def list_images(req):
    """``GET /v2/images``: filters, sorting and ``member_status`` (the
    shared images of others listed: ``accepted`` unless ``pending``,
    ``rejected`` or ``all``) as :mod:`occli.localcloud.image.listing` reads
    them, ``limit`` and ``marker``, glance's ``first`` and ``next`` links."""
    _no_empty_id(req)
    params = {k: v for k, v in req.query.items() if k not in ("limit", "marker", "member_status")}
    limit = req.arg("limit")
    if limit is not None:
        try:
            limit = int(limit)
        except ValueError:
            raise HTTPError(400, "limit param must be an integer") from None
        if limit < 0:
            raise HTTPError(400, "limit param must be positive")
    size = min(MAX_LIMIT if limit is None else limit, MAX_LIMIT)
    member_status = req.arg("member_status", "accepted")
    if member_status not in ("pending", "accepted", "rejected", "all"):
        raise HTTPError(400, "Invalid status: %s" % member_status)
    where = listing.conditions(params, req.context)
    order = listing.sorting(params)
    marker = req.arg("marker")
    found = listing.list_page(req.db, req.context, where, order, size, marker, member_status)
    shown = found[:size]
    body = {
        "images": shown,
        "schema": "/v2/schemas/images",
        "first": "/v2/images" + _query(req, drop=("marker",)),
    }
    # a full page has a next link, whether more follow or not (Glance's
    # ``index``: ``next_marker`` when as many images as the limit)
    if shown and len(shown) == size:
        body["next"] = "/v2/images" + _query(
            req, drop=("marker",), add={"marker": shown[-1]["id"]}
        )
    return Response(200, body)


def show_image(req):
    return Response(200, images.show(req.db, req.context, req.params["image_id"]))


def create_image(req):
    """``POST /v2/images``: 201, the queued image, its ``Location``."""
    body = json_body(req)
    image = writes.create(req.db, req.context, body)
    headers = {"Location": req.base_url + req.path + "/" + image["id"]}
    headers.update(imports.create_headers())
    return Response(201, image, headers=headers)


def update_image(req):
    """``PATCH /v2/images/{id}`` in one of Glance's JSON-patch media types
    (else its 415 with ``Accept-Patch``): 200, the image after."""
    media_type = (req.header("Content-Type") or "").split(";")[0].strip()
    draft = patch.MEDIA_TYPES.get(media_type)
    if draft is None:
        allowed = ", ".join(sorted(patch.MEDIA_TYPES))
        raise HTTPError(
            415,
            "Image PATCH expects Content-Type one of: %s" % allowed,
            headers={"Accept-Patch": allowed},
        )
    body = json_body(req)
    changes = patch.parse(body, draft)
    return Response(200, patch.update(req.db, req.context, req.params["image_id"], changes))


def delete_no_image(req):
    _no_empty_id(req)
    raise req.cloud.image.method_not_allowed(req)


def delete_image(req):
    """``DELETE /v2/images/{id}``: 204; the data file goes after the row."""
    with req.cloud.store.transaction() as db:
        file = writes.delete(db, req.context, req.params["image_id"])
    req.cloud.image.files.remove(file)
    # a staged image's file is among the staged ones (names never repeat)
    req.cloud.image.staging.remove(file)
    return Response(204)


def change_status(req):
    """``…/actions/deactivate`` and ``…/actions/reactivate``: 204."""
    deactivate = req.path.endswith("/deactivate")
    writes.set_active(req.db, req.context, req.params["image_id"], deactivate)
    return Response(204)


def _no_empty_id(req):
    """``/v2/images/`` (an empty image id) is Glance's 404, not the list."""
    if req.path.endswith("/"):
        raise req.cloud.image.not_found(req)


def _query(req, drop=(), add=None):
    pairs = [(k, v) for k, values in req.query.items() if k not in drop for v in values]
    pairs += list((add or {}).items())
    return "?" + urlencode(pairs) if pairs else ""
