"""Base of the Keystone v3 managers (the catalog's ``identity`` service).

Requests go to the catalog's ``identity`` endpoint; one that names no
version gets ``/v3`` appended, so no version discovery is needed.
"""

from collections.abc import Mapping
from typing import TYPE_CHECKING
from typing import Any

from occli import base
from occli import exceptions

if TYPE_CHECKING:
    import requests


class IdentityManager(base.Manager):
    """A manager of Keystone v3 (URLs relative to its ``/v3``)."""

    service_type = "identity"
    #: the collection's URL segment and body keys (``projects``/``project``)
    collection: str = ""
    member: str = ""

    def _url(self, *parts: object) -> str:
        endpoint = self.client.service_root(self.service_type, "v3")
        return "/".join((endpoint,) + tuple(str(p) for p in parts))

    def _member_url(self, resource: base.Resource | str, *parts: object) -> str:
        return self._url(self.collection, base.getid(resource), *parts)

    def get(self, resource: base.Resource | str) -> base.Resource:
        return self._get(self._member_url(resource), self.member)

    def _next_page(
        self, response: "requests.Response", body: Mapping[str, Any], links_key: str
    ) -> str | None:
        """The marker of the next page: Keystone names it as the href
        ``links.next`` of a collection (keystone's ``wrap_collection``,
        null on the last page), not in ``<collection>_links``."""
        links = body.get("links")
        if isinstance(links, Mapping):
            return super()._next_page(response, {"next": links.get("next")}, "next")
        return super()._next_page(response, body, links_key)

    def delete(self, resource: base.Resource | str) -> base.Result:
        """Delete; a :class:`~occli.base.Result`."""
        return self._delete(self._member_url(resource))

    def _create_body(self, body: dict[str, Any]) -> base.Resource:
        return self._create(self._url(self.collection), {self.member: body}, self.member)

    def _patch(self, resource: base.Resource | str, body: dict[str, Any]) -> base.Resource:
        if not body:
            raise exceptions.ValidationError("Nothing to update: give at least one attribute.")
        return self._update(
            self._member_url(resource), {self.member: body}, self.member, method="PATCH"
        )

    def find_resource(
        self, name_or_id: base.Resource | str, domain: base.Resource | str | None = None
    ) -> base.Resource:
        """A resource by id, else by exact name (in ``domain``: a domain
        resource, id or name, for users and projects)."""
        if isinstance(name_or_id, base.Resource):
            return name_or_id
        text = str(name_or_id)
        try:
            return self.get(text)
        except exceptions.NotFound:
            pass
        except exceptions.Forbidden:
            return self._unresolved(text, domain)
        try:
            matches = self._find_by_name(text, domain)
        except exceptions.Forbidden:
            return self._unresolved(text, domain)
        return self._one_named(matches, text)

    def _find_by_name(
        self, name: str, domain: base.Resource | str | None = None
    ) -> list[base.Resource]:
        # filtered by the cloud, and again here (a cloud ignoring a filter
        # must not make every resource a match)
        return [r for r in self.list(name=name) if getattr(r, "name", None) == name]

    def _unresolved(self, text: str, domain: base.Resource | str | None) -> base.Resource:
        # OSC's _find_identity_resource: what the caller may not look up
        return self.resource_class(self, {"id": text, "name": text})
