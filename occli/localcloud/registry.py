"""The local cloud's services, listed once: the packages in the order the
cloud creates them. Everything else about a service is read from its
package, so adding one is a new package and a line here
(doc/localcloud-internals.md, "Writing a service").

A service package's ``__init__`` exports, and only these:

* ``SERVICE`` — its :class:`occli.localcloud.app.Service` subclass, whose
  ``name`` is the package's last part; imported on first use (a module
  ``__getattr__``), so importing the package or its rules modules never
  imports its HTTP layer;
* ``CATALOG`` — its entries in Keystone's catalog, ``(type, name, path)``:
  ``path`` is under the cloud's root URL, with ``{project_id}`` where the
  endpoint is the token's project's (then a token without a project gets
  no such entry).

Nothing here imports a service until asked: the names come from the list
itself, so ``occli-localcloud --help`` and ``--services`` imports none.
"""

import importlib
from types import ModuleType

# network before compute: compute's seed and servers use neutron's tables
PACKAGES = (
    "occli.localcloud.identity",
    "occli.localcloud.network",
    "occli.localcloud.compute",
    "occli.localcloud.image",
    "occli.localcloud.orchestration",
    "occli.localcloud.objectstore",
    "occli.localcloud.volume",
)


def names() -> tuple[str, ...]:
    """The registered services' names, in creation order."""
    return tuple(package.rpartition(".")[2] for package in PACKAGES)


def package(name: str) -> ModuleType:
    """The package of the registered service ``name`` (ValueError if none)."""
    return importlib.import_module(PACKAGES[names().index(name)])


def service_class(name: str) -> type:
    """The ``SERVICE`` class of the registered service ``name``."""
    return package(name).SERVICE


def catalog_entries() -> list[tuple[str, str, str]]:
    """Every registered service's ``CATALOG`` entries, in creation order."""
    return [entry for name in names() for entry in package(name).CATALOG]
