"""The local cloud's services, found once: every subpackage of
``occli.localcloud`` with a ``migrations.py`` is a service package, so
adding a service is adding its package and nothing else
(doc/localcloud-internals.md, "Writing a service"). Identity comes first
(every service authenticates through it, and seeds read its projects),
the others by name; the cloud creates a service after those its
``SERVICE.requires`` names (compute after network, whose tables it uses).

A service package's ``__init__`` exports, and only these:

* ``SERVICE`` — its :class:`occli.localcloud.app.Service` subclass, whose
  ``name`` is the package's last part; imported on first use (a module
  ``__getattr__``), so importing the package or its rules modules never
  imports its HTTP layer;
* ``CATALOG`` — its entries in Keystone's catalog, ``(type, name, path)``:
  ``path`` is under the cloud's root URL, with ``{project_id}`` where the
  endpoint is the token's project's (then a token without a project gets
  no such entry).

Nothing here imports a service until asked: the names come from the
package directories, so ``occli-localcloud --help`` and ``--services``
import none.
"""

import importlib
import pathlib
from collections.abc import Iterable
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from occli.localcloud.app import Service

#: the service every other one authenticates through: created first
FIRST = "identity"


def discover(root: pathlib.Path = pathlib.Path(__file__).parent) -> tuple[str, ...]:
    """The service packages under ``root`` (``occli/localcloud``): its
    subpackages holding a ``migrations.py``, :data:`FIRST` first, then by
    name. Read from the directories: nothing is imported."""
    found = sorted(
        path.parent.name
        for path in root.glob("*/migrations.py")
        if (path.parent / "__init__.py").is_file()
    )
    ordered = [name for name in found if name == FIRST] + [n for n in found if n != FIRST]
    return tuple("occli.localcloud." + name for name in ordered)


PACKAGES = discover()


def names() -> tuple[str, ...]:
    """The registered services' names (:data:`FIRST` first, then by name)."""
    return tuple(package.rpartition(".")[2] for package in PACKAGES)


def package(name: str) -> ModuleType:
    """The package of the registered service ``name`` (ValueError if none)."""
    return importlib.import_module(PACKAGES[names().index(name)])


def service_class(name: str) -> type:
    """The ``SERVICE`` class of the registered service ``name``."""
    return package(name).SERVICE


def catalog_entries(served: Iterable[str] | None = None) -> list[tuple[str, str, str]]:
    """The ``CATALOG`` entries of the registered services (of those named
    in ``served`` only, when given), in :func:`names`' order."""
    wanted = names() if served is None else set(served)
    return [entry for name in names() if name in wanted for entry in package(name).CATALOG]


def creation_order(classes: "Iterable[type[Service]]") -> "list[type[Service]]":
    """``classes`` (services' ``SERVICE`` classes) in the order a cloud
    creates them: as given, except that a class comes after the classes
    among them its ``requires`` names (their tables exist and are seeded
    first)."""
    pending = list(classes)
    present = {cls.name for cls in pending}
    placed: set[str | None] = set()
    ordered: list[type[Service]] = []
    while pending:
        ready = next(
            (
                cls
                for cls in pending
                if all(n in placed or n not in present for n in getattr(cls, "requires", ()))
            ),
            pending[0],  # a circle of requirements: keep the given order
        )
        pending.remove(ready)
        placed.add(ready.name)
        ordered.append(ready)
    return ordered
