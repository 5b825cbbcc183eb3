"""Base of the Cinder v3 managers (the catalog's ``block-storage``
service): URLs, pages and name lookups shared by volumes, snapshots and
quotas."""

from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any

from occli import base
from occli import exceptions
from occli import strutils


class CinderManager(base.Manager):
    """A Cinder v3 collection: ``collection`` of ``member`` bodies."""

    service_type = "block-storage"
    collection = ""
    member = ""
    noun = ""

    def _url(self, *parts: object) -> str:
        endpoint = self.client.service_root(self.service_type, "v3")
        if not endpoint:
            raise exceptions.ClientException(
                "No block-storage (volumev3) endpoint found in the service catalog."
            )
        return "/".join((endpoint,) + tuple(str(p) for p in parts))

    def _noun(self) -> str:
        return self.noun

    def list(
        self,
        detailed: bool = True,
        all_projects: bool = False,
        limit: int | None = None,
        marker: str | None = None,
        **filters: Any,
    ) -> base.ListWithMeta:
        """Every resource (``…/detail`` unless not ``detailed``), following
        pages: a :class:`~occli.base.ListWithMeta` with the ``request_ids``
        of its pages. ``filters`` are Cinder's (``name``, ``status``, …),
        ``all_projects`` an admin's ``all_tenants``; :meth:`iter` yields
        them lazily."""
        return self._list_all(
            *self._list_request(detailed, all_projects, marker, filters), limit=limit
        )

    def iter(
        self,
        detailed: bool = True,
        all_projects: bool = False,
        limit: int | None = None,
        marker: str | None = None,
        **filters: Any,
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: yield the resources, asking for each
        page when the previous one was used."""
        return self._list(
            *self._list_request(detailed, all_projects, marker, filters), limit=limit
        )

    def _list_request(
        self,
        detailed: bool,
        all_projects: bool,
        marker: str | None,
        filters: Mapping[str, Any],
    ) -> tuple[str, str, dict[str, Any]]:
        """``(url, response key, params)`` of a list of the collection."""
        params = {k: v for k, v in filters.items() if v is not None}
        if all_projects:
            params["all_tenants"] = 1
        params["marker"] = marker
        url = self._url(self.collection, "detail") if detailed else self._url(self.collection)
        return url, self.collection, params

    def get(self, resource: base.Resource | str) -> base.Resource:
        return self._get(self._url(self.collection, base.getid(resource)), self.member)

    def find_resource(
        self, name_or_id: base.Resource | str, all_projects: bool = False
    ) -> base.Resource:
        """By id (a UUID), else by exact name with one ``?name=`` list."""
        if isinstance(name_or_id, base.Resource):
            return name_or_id
        value = str(name_or_id)
        if strutils.is_uuid(value):
            try:
                return self.get(value)
            except exceptions.NotFound:
                pass
        matches = [
            r
            for r in self.list(name=value, all_projects=all_projects)
            if getattr(r, "name", None) == value
        ]
        return self._one_named(matches, value)

    def _force_delete(self, resource: base.Resource | str) -> base.Result:
        return self._action(
            self._url(self.collection, base.getid(resource), "action"), "os-force_delete", {}
        )
