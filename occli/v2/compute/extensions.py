"""Nova's legacy extension list (``/extensions``): a fixed list current
Nova still answers, for scripts that look an alias up before using it
(Neutron's is :mod:`occli.v2.network.extensions`)."""

from urllib.parse import quote

from occli import base
from occli.v2.compute import base as compute


class Extension(base.Resource):
    """An extension: ``alias``, ``name``, ``description``, ``namespace``,
    ``updated``, ``links``."""


class ExtensionManager(compute.ComputeManager):
    resource_class = Extension

    def list(self) -> list[base.Resource]:
        """Every extension Nova lists (one request, no paging)."""
        return list(self._list("/extensions", "extensions"))

    def get(self, alias: base.Resource | str) -> base.Resource:
        """The extension ``alias`` (NotFound if Nova has none)."""
        return self._get("/extensions/%s" % quote(str(base.getid(alias)), safe=""), "extension")
