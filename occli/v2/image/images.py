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
#: ``visibility`` filters Glance's list takes (``all``: every one the caller sees)
LIST_VISIBILITIES = image_data.VISIBILITIES + ("all",)
#: ``member_status`` values Glance's list takes (OSC's ``--member-status``)
MEMBER_STATUSES = ("accepted", "pending", "rejected", "all")


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
        member_status: str | None = None,
        owner: str | None = None,
        tags: Iterable[str] | None = None,
        hidden: bool = False,
        properties: Mapping[str, str] | None = None,
    ) -> base.ListWithMeta:
        """Every image, following Glance's ``next`` links: a
        :class:`~occli.base.ListWithMeta` (with the ``request_ids`` of its
        pages); :meth:`iter` yields them lazily.

        ``ids`` restricts the list to these image ids with Glance's
        ``id=in:<id>,<id>…`` filter: one request per ``ID_CHUNK`` distinct
        ids (each asks for a page that holds the whole chunk), none for an
        empty ``ids``. Ids Glance does not know (or hides) are simply
        missing from the result. ``marker`` cannot be combined with ``ids``.

        ``visibility`` may also be ``all``; ``member_status`` (``accepted``,
        ``pending``, ``rejected`` or ``all``) picks the shared images listed;
        ``owner`` is a project id; every one of ``tags`` must be on an
        image; ``hidden`` lists the images with ``os_hidden`` instead.
        ``properties`` keeps the images whose property has exactly that
        value, compared here as OSC's ``--property`` does (``limit`` then
        counts the images kept).
        """
        request_ids: builtins.list[str] = []
        images = list(
            self._list_request(
                limit,
                marker,
                ids,
                _filters(name, status, visibility, member_status, owner, tags, hidden),
                properties,
                request_ids,
            )
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
        member_status: str | None = None,
        owner: str | None = None,
        tags: Iterable[str] | None = None,
        hidden: bool = False,
        properties: Mapping[str, str] | None = None,
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: each page is asked for when the
        previous one was used."""
        return self._list_request(
            limit,
            marker,
            ids,
            _filters(name, status, visibility, member_status, owner, tags, hidden),
            properties,
        )

    def _list_request(
        self,
        limit: int | None,
        marker: str | None,
        ids: Iterable[base.Resource | str] | None,
        params: dict[str, Any],
        properties: Mapping[str, str] | None,
        request_ids: builtins.list[str] | None = None,
    ) -> Iterator[base.Resource]:
        """The images of a list, read lazily, the request id of each page
        appended to ``request_ids`` (the arguments are checked at once)."""
        if ids is not None and marker is not None:
            raise exceptions.CommandError("An image list by ids cannot start at a marker.")
        # kept here: Glance's pages cannot count the images left out
        wanted = dict(properties or {})
        page_limit = None if wanted else limit
        if ids is None:
            params["marker"] = marker
            pages = self._pages(
                "/v2/images",
                "images",
                params=params,
                limit=page_limit,
                links_key="next",
                request_ids=request_ids,
            )
            images: Iterator[base.Resource] = itertools.chain.from_iterable(pages)
        else:
            images = self._list_ids(ids, params, request_ids)
        if wanted:
            images = (i for i in images if _has_properties(i, wanted))
        if limit is not None and limit >= 0 and (wanted or ids is not None):
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


def _filters(
    name: str | None,
    status: str | None,
    visibility: str | None,
    member_status: str | None,
    owner: str | None,
    tags: Iterable[str] | None,
    hidden: bool,
) -> dict[str, Any]:
    """The query of a list's filters, as openstacksdk's ``images()`` sends
    them (``tag`` repeated, ``os_hidden=true``); ValidationError for a
    visibility or member status Glance refuses."""
    if visibility is not None and visibility not in LIST_VISIBILITIES:
        raise exceptions.ValidationError(
            "{visibility} must be one of %s, not %r." % (", ".join(LIST_VISIBILITIES), visibility),
            params=("visibility",),
        )
    if member_status is not None and member_status not in MEMBER_STATUSES:
        raise exceptions.ValidationError(
            "{member_status} must be one of %s, not %r."
            % (", ".join(MEMBER_STATUSES), member_status),
            params=("member_status",),
        )
    tags = builtins.list(tags or ())
    if any(not t for t in tags):
        raise exceptions.ValidationError("{tags}: a tag cannot be empty.", params=("tags",))
    return {
        "name": name,
        "status": status,
        "visibility": visibility,
        "member_status": member_status,
        "owner": owner,
        "tag": tags or None,
        "os_hidden": "true" if hidden else None,
    }


def _has_properties(image: base.Resource, wanted: Mapping[str, str]) -> bool:
    """Whether every ``wanted`` property of ``image`` has exactly that
    value (OSC's ``simple_filter``: one that is missing or empty never
    matches)."""
    fields = image.to_dict()
    return all(fields.get(k) and str(fields[k]) == v for k, v in wanted.items())


def parse_sort(text: str) -> builtins.list[tuple[str, bool]]:
    """``"name:asc,size:desc"`` → ``[("name", False), ("size", True)]``
    (key, descending), as OSC's ``sort_items`` reads ``--sort``; a
    direction other than asc or desc, or an empty key, is a
    ValidationError with OSC's text."""
    order = []
    for item in text.strip().split(","):
        key, _, direction = item.partition(":")
        if ":" in item:
            if not key:
                raise exceptions.ValidationError(
                    "{sort}: '<empty string>'' is not a valid sort key", params=("sort",)
                )
            if direction not in ("asc", "desc"):
                raise exceptions.ValidationError(
                    "{sort}: '%s' is not a valid sort direction for sort key %s,"
                    " use 'asc' or 'desc' instead" % (direction or "<empty string>", key),
                    params=("sort",),
                )
        order.append((key, direction == "desc"))
    return order


def sort_images(
    images: Iterable[base.Resource], order: Iterable[tuple[str, bool]]
) -> builtins.list[base.Resource]:
    """``images`` sorted by ``order`` (from :func:`parse_sort`), each field
    compared as text as OSC does (a missing one first)."""
    result = builtins.list(images)
    for key, descending in reversed(builtins.list(order)):
        result.sort(key=lambda i: _sort_text(i.to_dict().get(key)), reverse=descending)
    return result


def _sort_text(value: Any) -> str:
    return "" if value is None else value if isinstance(value, str) else str(value)


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
