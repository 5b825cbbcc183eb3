"""Neutron's extension list (``/v2.0/extensions``), which says what that
Neutron supports (Nova's is :mod:`occli.v2.compute.extensions`)."""

from occli import base
from occli import exceptions
from occli.v2.network import base as neutron


class NetworkExtension(base.Resource):
    """An extension: ``alias``, ``name``, ``description``, ``updated``,
    ``links``."""


class NetworkExtensionManager(neutron.NeutronManager):
    """Neutron's extensions: ``alias``, ``name``, ``description``,
    ``updated``, ``links``."""

    resource_class = NetworkExtension
    collection = "extensions"
    member = "extension"

    def supports(self, alias: str) -> bool:
        """Whether Neutron serves the extension ``alias``: one ``GET
        /extensions/{alias}``, a 404 saying it does not."""
        try:
            self.get(alias)
        except exceptions.NotFound:
            return False
        return True
