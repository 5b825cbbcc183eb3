"""Glance v2 images (found through the catalog's ``image`` service)."""

from occli import base
from occli import exceptions


class Image(base.Resource):
    pass


class ImageManager(base.Manager):
    resource_class = Image
    service_type = "image"

    def list(self, limit=None, marker=None, name=None, status=None,
             visibility=None):
        """Yield images, following Glance's ``next`` links."""
        params = {"marker": marker, "name": name, "status": status,
                  "visibility": visibility}
        return self._list("/v2/images", "images", params=params, limit=limit,
                          links_key="next")

    def get(self, image):
        response = self._request("GET", "/v2/images/%s" % base.getid(image))
        return self._resource(self._body(response), response)

    def _find_by_name(self, name):
        # Glance filters by exact name server-side: one request, not a full list
        return list(self.list(name=name))

    def find_resource(self, name_or_id):
        if isinstance(name_or_id, base.Resource):
            return name_or_id
        try:
            return super().find_resource(name_or_id)
        except exceptions.NotFound:
            raise exceptions.NotFound(
                "No image with a name or ID of '%s' exists." % name_or_id,
                code=404)
