"""Glance v2 images (found through the catalog's ``image`` service); their
writes and data are :mod:`occli.v2.image.image_data`'s."""

import builtins
import itertools
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any

from occli import base
from occli import exceptions
from occli.v2.image import image_data

# ids per ``id=in:…`` request: 100 UUIDs keep the URL under ~4 KB
ID_CHUNK = 100


class Image(base.Resource):
    pass


class ImageManager(image_data.WriteMixin):
    resource_class = Image

    def list(
        self,
        limit: int | None = None,
        marker: str | None = None,
        name: str | None = None,
        status: str | None = None,
        visibility: str | None = None,
        ids: Iterable[base.Resource | str] | None = None,
    ) -> base.ListWithMeta:
        """Every image, following Glance's ``next`` links: a
        :class:`~occli.base.ListWithMeta` (with the ``request_ids`` of its
        pages); :meth:`iter` yields them lazily.

        ``ids`` restricts the list to these image ids with Glance's
        ``id=in:<id>,<id>…`` filter: one request per ``ID_CHUNK`` distinct
        ids (each asks for a page that holds the whole chunk), none for an
        empty ``ids``. Ids Glance does not know (or hides) are simply
        missing from the result. ``marker`` cannot be combined with ``ids``.
        """
        request_ids: builtins.list[str] = []
        images = list(
            self._list_request(limit, marker, name, status, visibility, ids, request_ids)
        )
        return base.ListWithMeta(images, request_ids)

    def iter(
        self,
        limit: int | None = None,
        marker: str | None = None,
        name: str | None = None,
        status: str | None = None,
        visibility: str | None = None,
        ids: Iterable[base.Resource | str] | None = None,
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: each page is asked for when the
        previous one was used."""
        return self._list_request(limit, marker, name, status, visibility, ids)

    def _list_request(
        self,
        limit: int | None,
        marker: str | None,
        name: str | None,
        status: str | None,
        visibility: str | None,
        ids: Iterable[base.Resource | str] | None,
        request_ids: builtins.list[str] | None = None,
    ) -> Iterator[base.Resource]:
        """The images of a list, read lazily, the request id of each page
        appended to ``request_ids`` (the arguments are checked at once)."""
        params = {"name": name, "status": status, "visibility": visibility}
        if ids is None:
            params["marker"] = marker
            pages = self._pages(
                "/v2/images",
                "images",
                params=params,
                limit=limit,
                links_key="next",
                request_ids=request_ids,
            )
            return itertools.chain.from_iterable(pages)
        if marker is not None:
            raise exceptions.CommandError("An image list by ids cannot start at a marker.")
        images = self._list_ids(ids, params, request_ids)
        if limit is not None and limit >= 0:
            images = itertools.islice(images, limit)
        return images

    def _list_ids(
        self,
        ids: Iterable[base.Resource | str],
        params: Mapping[str, Any],
        request_ids: builtins.list[str] | None,
    ) -> Iterator[base.Resource]:
        values = [_in_value(i) for i in dict.fromkeys(str(base.getid(i)) for i in ids)]
        wanted = [v for v in values if v is not None]
        for start in range(0, len(wanted), ID_CHUNK):
            chunk = wanted[start : start + ID_CHUNK]
            chunk_params = dict(params, id="in:" + ",".join(chunk))
            for page in self._pages(
                "/v2/images",
                "images",
                params=chunk_params,
                limit=len(chunk),
                links_key="next",
                request_ids=request_ids,
            ):
                yield from page

    def get(self, image: base.Resource | str) -> base.Resource:
        response = self._request("GET", "/v2/images/%s" % base.getid(image))
        return self._resource(self._body(response), response)

    def _find_by_name(self, name: str) -> builtins.list[base.Resource]:
        # Glance filters by exact name server-side: one request, not a full list
        return self.list(name=name)

    def find_resource(self, name_or_id: base.Resource | str) -> base.Resource:
        if isinstance(name_or_id, base.Resource):
            return name_or_id
        try:
            return super().find_resource(name_or_id)
        except exceptions.NotFound:
            raise exceptions.NotFound(
                "No image with a name or ID of '%s' exists." % name_or_id, code=404
            ) from None


def _in_value(image_id: str) -> str | None:
    """One value of an ``in:`` list: quoted if it holds a comma.

    Glance refuses a stray double quote in a filter value (400), so an id
    holding one (never a real image id) is left out (None).
    """
    if '"' in image_id:
        return None
    if "," in image_id:
        return '"%s"' % image_id
    return image_id
