"""Nova's legacy extension list (``/extensions``): a fixed list current
Nova still answers, for scripts that look an alias up before using it;
and Neutron's (``/v2.0/extensions``), which says what that Neutron
supports."""

from urllib.parse import quote

from occli import base
from occli.v2 import compute
from occli.v2 import neutron


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


class NetworkExtensionManager(neutron.NeutronManager):
    """Neutron's extensions: ``alias``, ``name``, ``description``,
    ``updated``, ``links``."""

    resource_class = Extension
    collection = "extensions"
    member = "extension"
