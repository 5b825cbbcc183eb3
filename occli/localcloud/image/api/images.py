"""``/v2/images``: list (limit, marker, filters, glance's ``first`` and
``next`` links) and show. The rules are in :mod:`occli.localcloud.image.images`."""

from urllib.parse import urlencode

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.image import images
from occli.localcloud.image.images import MAX_LIMIT


def register(service):
    service.route("GET", "/v2/images", list_images)
    service.route("GET", "/v2/images/{image_id}", show_image)


def list_images(req):
    """``GET /v2/images`` with limit/marker/name/status/visibility/id.

    ``id`` is an exact id or ``in:<id>,<id>…`` (glance's operator; a
    value may be double-quoted to hold a comma); any other operator or
    a malformed quote is a 400, as in glance.
    """
    filters = {
        key: req.arg(key)
        for key in ("name", "status", "visibility", "owner")
        if req.arg(key) is not None
    }
    id_filter = req.arg("id")
    ids = images.id_filter_values(id_filter) if id_filter is not None else None
    limit = req.arg("limit")
    if limit is not None:
        try:
            limit = int(limit)
        except ValueError:
            raise HTTPError(400, "limit param must be an integer") from None
        if limit < 0:
            raise HTTPError(400, "limit param must be positive")
    size = min(MAX_LIMIT if limit is None else limit, MAX_LIMIT)
    found = images.page(req.db, req.context, filters, ids, size, req.arg("marker"))
    shown = found[:size]
    body = {
        "images": shown,
        "schema": "/v2/schemas/images",
        "first": "/v2/images" + _query(req, drop=("marker",)),
    }
    if len(found) > size and shown:
        body["next"] = "/v2/images" + _query(
            req, drop=("marker",), add={"marker": shown[-1]["id"]}
        )
    return Response(200, body)


def show_image(req):
    return Response(200, images.show(req.db, req.context, req.params["image_id"]))


def _query(req, drop=(), add=None):
    pairs = [(k, v) for k, values in req.query.items() if k not in drop for v in values]
    pairs += list((add or {}).items())
    return "?" + urlencode(pairs) if pairs else ""
