"""Glance v2 metadata definitions and tasks: namespaces
(``/v2/metadefs/namespaces``), resource types
(``/v2/metadefs/resource_types``) and the deprecated tasks API
(``/v2/tasks``, admins only by Glance's default policy), as openstacksdk's
``metadef_namespaces``, ``metadef_resource_types`` and ``tasks`` read them."""

from typing import Any
from urllib.parse import quote

from occli import base
from occli.v2.image.base import GlanceManager


class MetadefNamespace(base.Resource):
    pass


class MetadefResourceType(base.Resource):
    pass


class Task(base.Resource):
    pass


def _namespace_url(namespace: base.Resource | str) -> str:
    """A namespace's URL (its name may hold ``::`` and spaces)."""
    name = namespace.namespace if isinstance(namespace, base.Resource) else namespace
    return "/v2/metadefs/namespaces/%s" % quote(str(name), safe=":")


class MetadefNamespaceManager(GlanceManager):
    """Namespaces: every caller reads the public ones and its project's;
    admins create and delete them."""

    resource_class = MetadefNamespace

    def list(
        self, resource_types: str | None = None, visibility: str | None = None
    ) -> base.ListWithMeta:
        """Every namespace the caller sees, following Glance's ``next``
        links; ``resource_types``: comma-separated names."""
        params = {"resource_types": resource_types, "visibility": visibility}
        return self._list_all(
            "/v2/metadefs/namespaces", "namespaces", params=params, links_key="next"
        )

    def get(self, namespace: base.Resource | str) -> base.Resource:
        """A namespace with its properties, objects, tags and associations."""
        response = self._request("GET", _namespace_url(namespace))
        return self._resource(self._body(response), response)

    def create(self, namespace: str, **fields: Any) -> base.Resource:
        """Create ``namespace`` with ``fields`` (``display_name``,
        ``description``, ``visibility``, ``protected``)."""
        body = dict({k: v for k, v in fields.items() if v is not None}, namespace=namespace)
        response = self._request("POST", "/v2/metadefs/namespaces", body=body)
        return self._resource(self._body(response), response)

    def delete(self, namespace: base.Resource | str) -> base.Result:
        return self._result(self._request("DELETE", _namespace_url(namespace)))

    def find_resource(self, name_or_id: Any) -> base.Resource:
        """A namespace is named, never numbered: one GET by name."""
        return self.get(name_or_id)


class MetadefResourceTypeManager(GlanceManager):
    resource_class = MetadefResourceType

    def list(self) -> base.ListWithMeta:
        """Every resource type Glance knows (one page, unpaged), in a list
        with ``request_ids``."""
        response = self._request("GET", "/v2/metadefs/resource_types")
        body = self._body(response)
        return base.ListWithMeta(
            [self._resource(t, response) for t in self._items(response, body, "resource_types")],
            base._request_ids(response),
        )


class TaskManager(GlanceManager):
    """Glance's tasks (an image import's, for instance)."""

    resource_class = Task

    def list(
        self,
        limit: int | None = None,
        marker: str | None = None,
        sort_key: str | None = None,
        sort_dir: str | None = None,
        type: str | None = None,
        status: str | None = None,
    ) -> base.ListWithMeta:
        """Tasks, newest first unless sorted otherwise, following Glance's
        ``next`` links (``limit``: at most that many, -1 or None: all)."""
        params = {
            "marker": marker,
            "sort_key": sort_key,
            "sort_dir": sort_dir,
            "type": type,
            "status": status,
        }
        return self._list_all("/v2/tasks", "tasks", params=params, limit=limit, links_key="next")

    def get(self, task: base.Resource | str) -> base.Resource:
        response = self._request("GET", "/v2/tasks/%s" % base.getid(task))
        return self._resource(self._body(response), response)
