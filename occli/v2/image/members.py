"""Glance v2 image members: the projects a ``shared`` image is shared
with, each ``pending``, ``accepted`` or ``rejected`` as the member says
(``/v2/images/{image_id}/members``)."""

from typing import Any

from occli import base
from occli.v2.image.base import GlanceManager

STATUSES = ("pending", "accepted", "rejected")


class ImageMember(base.Resource):
    pass


class ImageMemberManager(GlanceManager):
    """The members of an image; an image is a resource or an id and a
    member a project id (Glance does not look it up)."""

    resource_class = ImageMember

    def list(self, image: base.Resource | str) -> base.ListWithMeta:
        """The image's members: all for its owner (or an admin), the
        caller's own membership for a member; a list with ``request_ids``."""
        response = self._request("GET", _url(image))
        body = self._body(response)
        return base.ListWithMeta(
            [self._resource(m, response) for m in self._items(response, body, "members")],
            base._request_ids(response),
        )

    def get(self, image: base.Resource | str, member: str) -> base.Resource:
        return self._one("GET", _url(image, member))

    def create(self, image: base.Resource | str, member: str) -> base.Resource:
        """Share the image with project ``member`` (its membership starts
        ``pending``); the image must be ``shared``."""
        return self._one("POST", _url(image), {"member": member})

    def update(self, image: base.Resource | str, member: str, status: str) -> base.Resource:
        """Set ``member``'s status (the member project's own call)."""
        return self._one("PUT", _url(image, member), {"status": status})

    def delete(self, image: base.Resource | str, member: str) -> base.Result:
        return self._result(self._request("DELETE", _url(image, member)))

    def _one(self, method: str, url: str, body: Any = None) -> base.Resource:
        """A membership Glance answers unwrapped (no ``member`` key)."""
        response = self._request(method, url, body=body)
        return self._resource(self._body(response), response)


def _url(image: base.Resource | str, member: str | None = None) -> str:
    url = "/v2/images/%s/members" % base.getid(image)
    return url if member is None else "%s/%s" % (url, member)
