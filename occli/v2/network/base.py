"""Base of the Neutron v2.0 managers (the catalog's ``network`` service).

Requests go to the catalog endpoint plus ``/v2.0`` (Neutron's catalogs
list it unversioned; an endpoint already ending in ``/v2.0`` is kept), so
no version discovery is needed. Lists follow Neutron's
``<collection>_links`` next pages; filters are query parameters (a list
value repeats the parameter, which Neutron reads as "any of"), and
``fields`` limits the attributes returned. The ``standard-attr-tag``
filters are taken by the SDK's names (``tags``, ``any_tags``,
``not_tags``, ``not_any_tags``) and sent as Neutron's comma-separated
``tags``, ``tags-any``, ``not-tags`` and ``not-tags-any``.

Names resolve with one request: an id-shaped value is read by id (a 404
falls back to the name), anything else is listed with ``?name=``.
"""

import builtins
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any

from occli import base
from occli import exceptions
from occli import strutils

#: The SDK's names of Neutron's tag filters → the query parameters.
TAG_FILTERS = {
    "tags": "tags",
    "any_tags": "tags-any",
    "not_tags": "not-tags",
    "not_any_tags": "not-tags-any",
}


def query_value(value: object) -> object:
    """A filter value as Neutron reads it: booleans as ``True``/``False``,
    lists repeated, None left out by the caller."""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, (list, tuple, set, frozenset)):
        return [query_value(v) for v in value]
    return value


class NeutronManager(base.Manager):
    """A Neutron collection: ``collection`` (``networks``) of ``member``
    (``network``) bodies at ``path`` (the collection's name unless set:
    ``security-groups``), named ``noun`` in errors."""

    service_type = "network"
    collection: str = ""
    member: str = ""
    path: str = ""
    noun: str = ""

    def available(self) -> bool:
        """Whether the catalog has a network service (quota and extension
        commands skip Neutron when it has none)."""
        return bool(self.client.service_root(self.service_type, "v2.0"))

    def _url(self, *parts: object) -> str:
        endpoint = self.client.service_root(self.service_type, "v2.0")
        if not endpoint:
            raise exceptions.ClientException("No network endpoint found in the service catalog.")
        return "/".join((endpoint,) + tuple(str(p) for p in parts))

    def _collection_url(self) -> str:
        return self._url(self.path or self.collection)

    def _member_url(self, resource: base.Resource | str) -> str:
        return self._url(self.path or self.collection, base.getid(resource))

    def _noun(self) -> str:
        return self.noun or self.member.replace("_", " ")

    def _params(
        self,
        filters: Mapping[str, object],
        fields: Iterable[str] | None = None,
        marker: str | None = None,
    ) -> dict[str, Any]:
        params = {
            TAG_FILTERS.get(k, k): _tag_filter(v) if k in TAG_FILTERS else query_value(v)
            for k, v in filters.items()
            if v is not None
        }
        if fields:
            params["fields"] = list(fields)
        if marker is not None:
            params["marker"] = marker
        return params

    def list(
        self,
        limit: int | None = None,
        marker: str | None = None,
        fields: Iterable[str] | None = None,
        **filters: Any,
    ) -> base.ListWithMeta:
        """Every resource matching ``filters`` (Neutron query filters:
        ``name``, ``project_id``, …), following pages: a
        :class:`~occli.base.ListWithMeta` with the ``request_ids`` of its
        pages. ``limit`` caps the total, ``fields`` picks the attributes;
        :meth:`iter` yields them lazily."""
        return self._list_all(*self._list_request(marker, fields, filters), limit=limit)

    def iter(
        self,
        limit: int | None = None,
        marker: str | None = None,
        fields: Iterable[str] | None = None,
        **filters: Any,
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: yield the resources, asking for each
        page when the previous one was used."""
        return self._list(*self._list_request(marker, fields, filters), limit=limit)

    def _list_request(
        self, marker: str | None, fields: Iterable[str] | None, filters: Mapping[str, object]
    ) -> tuple[str, str, dict[str, Any]]:
        """``(url, response key, params)`` of a list of the collection."""
        return self._collection_url(), self.collection, self._params(filters, fields, marker)

    def get(
        self, resource: base.Resource | str, fields: Iterable[str] | None = None
    ) -> base.Resource:
        return self._get(self._member_url(resource), self.member, params=self._params({}, fields))

    def _create_body(self, body: dict[str, Any]) -> base.Resource:
        return self._create(self._collection_url(), {self.member: body}, self.member)

    def _update_body(self, resource: base.Resource | str, body: dict[str, Any]) -> base.Resource:
        return self._update(self._member_url(resource), {self.member: body}, self.member)

    def delete(self, resource: base.Resource | str) -> base.Result:
        """Delete; a :class:`~occli.base.Result`."""
        return self._delete(self._member_url(resource))

    def set_tags(self, resource: base.Resource | str, tags: Iterable[str]) -> builtins.list[str]:
        """Replace the resource's tags (Neutron's ``standard-attr-tag``
        ``PUT …/tags``); the tags Neutron now holds."""
        body = self._update(self._member_url(resource) + "/tags", {"tags": builtins.list(tags)})
        return builtins.list(body.get("tags", ()))

    def update_tags(
        self,
        resource: base.Resource | str,
        add: Iterable[str] = (),
        remove: Iterable[str] = (),
        clear: bool = False,
    ) -> builtins.list[str]:
        """Change the resource's tags as OSC's ``set`` and ``unset`` do:
        its current tags (none with ``clear``) plus ``add`` less
        ``remove``, in one ``PUT …/tags`` only when that changes them (an
        id is read first). The tags it now has, also in a Resource given."""
        if not isinstance(resource, base.Resource):
            resource = self.get(resource)
        current = builtins.list(getattr(resource, "tags", None) or ())
        removed = set(remove)
        kept = ([] if clear else current) + builtins.list(add)
        tags = [t for t in dict.fromkeys(kept) if t not in removed]
        if set(tags) == set(current):
            return current
        tags = self.set_tags(resource, tags)
        resource._info["tags"] = tags
        return tags

    def find_resource(self, name_or_id: base.Resource | str, **filters: Any) -> base.Resource:
        """A resource by id or exact name, in one request: an id-shaped
        value is read by id (by name if Neutron has no such id), anything
        else is listed with ``?name=`` (and ``filters``). NotFound, or
        NoUniqueMatch when several share the name."""
        if isinstance(name_or_id, base.Resource):
            return name_or_id
        value = str(name_or_id)
        if strutils.is_uuid(value) and not filters:
            try:
                return self.get(value)
            except exceptions.NotFound:
                pass
        return self._one_named(self.list(name=value, **filters), value)

    def find_many(self, names_or_ids: Iterable[str]) -> dict[str, base.Resource]:
        """``{given value: resource}`` for several names or ids in one list
        request (``?id=…&name=…``); NotFound naming the first value that
        matches nothing, NoUniqueMatch for a name several share."""
        wanted = list(dict.fromkeys(str(v) for v in names_or_ids))
        if not wanted:
            return {}
        ids = [v for v in wanted if strutils.is_uuid(v)]
        names = [v for v in wanted if not strutils.is_uuid(v)]
        found: list[base.Resource] = []
        if ids:
            found += self.list(id=ids)
        if names or len(found) < len(ids):
            found += self.list(name=names + [i for i in ids if i not in _ids(found)])
        result: dict[str, base.Resource] = {}
        for value in wanted:
            by_id = [r for r in found if getattr(r, "id", None) == value]
            matches = by_id or _unique(r for r in found if getattr(r, "name", None) == value)
            result[value] = self._one_named(matches, value)
        return result


def _tag_filter(value: object) -> object:
    """A tag filter's value: several tags joined by commas, as Neutron reads them."""
    if isinstance(value, (list, tuple, set, frozenset)):
        return ",".join(str(v) for v in value)
    return value


def _ids(resources: Iterable[base.Resource]) -> set[object]:
    return {getattr(r, "id", None) for r in resources}


def _unique(resources: Iterable[base.Resource]) -> list[base.Resource]:
    seen: dict[object, base.Resource] = {}
    for resource in resources:
        seen.setdefault(getattr(resource, "id", None), resource)
    return list(seen.values())
