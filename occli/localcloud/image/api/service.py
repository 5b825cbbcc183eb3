"""Glance v2's HTTP edge: version discovery, image list/show, query
parameters, links, webob's plain-text error pages. The rules are in
:mod:`.images`."""

from urllib.parse import urlencode

from occli.localcloud import common
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.app import Service
from occli.localcloud.image import images
from occli.localcloud.image import migrations
from occli.localcloud.image.images import MAX_LIMIT

VERSIONS = ("2.17", "2.16", "2.15", "2.9", "2.7", "2.6", "2.5", "2.4", "2.3", "2.2", "2.1", "2.0")


class ImageService(Service):
    """Glance v2 images (list, show) and version discovery."""

    name = "image"
    prefix = "/image"

    def __init__(self, cloud):
        super().__init__(cloud)
        self.route("GET", "/", self.versions, auth=False)
        self.route("GET", "/versions", self.versions_ok, auth=False)
        self.route("GET", "/v2/images", self.list_images)
        self.route("GET", "/v2/images/{image_id}", self.show_image)

    # for compute: ``cloud.image.get_image(db, id)`` …
    get_image = staticmethod(images.get_image)
    get_visible_image = staticmethod(images.get_visible_image)
    image_exists = staticmethod(images.image_exists)
    create_image = staticmethod(images.create_image)
    delete_image = staticmethod(images.delete_image)
    find_by_properties = staticmethod(images.find_by_properties)

    def migrations(self):
        return list(migrations.COMPONENTS)

    def seed(self, db):
        owner = None
        if self.cloud.identity is not None:
            owner = self.cloud.identity.project_id(db, "admin")
        images.seed(db, owner)

    def error_body(self, status, message, extra):
        """Glance errors are webob's plain-text pages."""
        reason = common.reason(status)
        text = "%d %s\n\n%s\n\n   " % (status, reason, message)
        return Response(status, raw=text, content_type="text/plain; charset=UTF-8")

    def _versions(self, req):
        base = req.base_url + self.prefix
        return {
            "versions": [
                {
                    "id": "v" + v,
                    "status": "CURRENT" if i == 0 else "SUPPORTED",
                    "links": [{"rel": "self", "href": base + "/v2/"}],
                }
                for i, v in enumerate(VERSIONS)
            ]
        }

    def versions(self, req):
        return Response(300, self._versions(req))

    def versions_ok(self, req):
        return self._versions(req)

    def list_images(self, req):
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
        return body

    def show_image(self, req):
        return images.show(req.db, req.context, req.params["image_id"])


def _query(req, drop=(), add=None):
    pairs = [(k, v) for k, values in req.query.items() if k not in drop for v in values]
    pairs += list((add or {}).items())
    return "?" + urlencode(pairs) if pairs else ""
