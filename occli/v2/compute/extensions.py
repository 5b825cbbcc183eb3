"""Nova's legacy extension list (``/extensions``): a fixed list current
Nova still answers, for scripts that look an alias up before using it
(Neutron's is :mod:`occli.v2.network.extensions`)."""

from collections.abc import Iterator
from urllib.parse import quote

from occli import base
from occli.v2.compute import base as compute


class Extension(base.Resource):
    """An extension: ``alias``, ``name``, ``description``, ``namespace``,
    ``updated``, ``links``."""


class ExtensionManager(compute.ComputeManager):
    resource_class = Extension

    def list(self) -> base.ListWithMeta:
        """Every extension Nova lists (one request, no paging): a list
        with ``request_ids`` (:class:`occli.base.ListWithMeta`), as
        novaclient's. :meth:`iter` yields them lazily."""
        return self._list_all(*self._list_request())

    def iter(self) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily."""
        return self._list(*self._list_request())

    list_iter = iter

    @staticmethod
    def _list_request() -> tuple[str, str]:
        """``(url, response key)`` of the extension list."""
        return "/extensions", "extensions"

    def get(self, alias: base.Resource | str) -> base.Resource:
        """The extension ``alias`` (NotFound if Nova has none)."""
        return self._get("/extensions/%s" % quote(str(base.getid(alias)), safe=""), "extension")
