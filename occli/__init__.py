"""occli: a fast, scriptable OpenStack client toolkit with a built-in local cloud."""

from typing import TYPE_CHECKING

from occli.version import __version__

if TYPE_CHECKING:
    from occli.client import Client

__all__ = ["Client", "__version__"]


def __getattr__(name: str) -> "type[Client]":
    # ``from occli import Client`` without importing keystoneauth1 for the CLI's
    # ``--version``/``--help`` paths.
    if name == "Client":
        from occli.client import Client

        return Client
    raise AttributeError(name)
