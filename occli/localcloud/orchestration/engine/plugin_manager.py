"""Heat's plugin manager: the modules resource types come from.

Heat's ``heat/engine/plugin_manager.py`` with ``heat/common/plugin_loader.py``:
every module of the given packages (subpackages walked) and of the
configured plugin directories, the latter imported by path under a package
of their own (Heat's ``heat.engine.plugins``), and a :class:`PluginMapping`
reading each module's ``<name>_mapping()`` functions in the order given
(``available_resource_mapping`` before ``resource_mapping``).

A plugin directory's module that fails to import, or whose mapping
function raises, is logged with a warning naming its file and skipped: a
broken third-party plugin never stops the engine. A built-in module's
failure raises, as Heat's does (it is a bug of this cloud).
"""

import hashlib
import importlib
import logging
import pkgutil
import sys
import types
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

LOG = logging.getLogger(__name__)

# the package every plugin directory's modules are imported under (one
# subpackage per set of directories, so two clouds of one process with
# different directories never share a module of the same name)
PLUGINS_PACKAGE = "occli.localcloud.orchestration.engine.plugins"


def _package(name: str, path: Sequence[str]) -> types.ModuleType:
    """The package ``name`` searching ``path``, made once (Heat's
    ``plugin_loader.create_subpackage``: plugin directories need no
    ``__init__.py``)."""
    package = sys.modules.get(name)
    if package is None:
        package = types.ModuleType(name)
        package.__path__ = list(path)
        package.__package__ = name
        sys.modules[name] = package
        parent, _, child = name.rpartition(".")
        if parent in sys.modules:
            setattr(sys.modules[parent], child, package)
    return package


def create_subpackage(dirs: Sequence[str]) -> types.ModuleType:
    """The package the modules of the plugin directories ``dirs`` are
    imported into: ``<PLUGINS_PACKAGE>.p<digest of dirs>``."""
    _package(PLUGINS_PACKAGE, [])
    digest = hashlib.sha256("\0".join(dirs).encode()).hexdigest()[:12]
    return _package("%s.p%s" % (PLUGINS_PACKAGE, digest), dirs)


def _origin(finder: Any, name: str) -> str:
    """The file a module would be loaded from (for warnings)."""
    try:
        spec = finder.find_spec(name)
    except Exception:  # noqa: BLE001 - only for a warning's text
        spec = None
    origin = getattr(spec, "origin", None)
    if origin:
        return str(origin)
    return "%s/%s" % (getattr(finder, "path", "?"), name.rpartition(".")[2])


def load_modules(package: types.ModuleType, tolerant: bool = False) -> Iterator[types.ModuleType]:
    """Import every module of ``package``, subpackages walked (Heat's
    ``plugin_loader.load_modules``: ``.tests.`` and ``setup`` modules are
    left out). ``tolerant``: a module failing to import is logged and
    skipped, else its error propagates."""
    prefix = package.__name__ + "."

    def walk_error(name: str) -> None:
        # a package is yielded before it is walked: its failure was
        # reported below already
        if not tolerant:
            raise

    for info in pkgutil.walk_packages(package.__path__, prefix, onerror=walk_error):
        name = info.name
        if ".tests." in name or name.endswith(".setup"):
            continue
        if name in sys.modules:
            yield sys.modules[name]
            continue
        try:
            module = importlib.import_module(name)
        except Exception as exc:
            if not tolerant:
                raise
            sys.modules.pop(name, None)
            LOG.warning(
                "Failed to import plugin module %s (%s); skipped: %s: %s",
                name,
                _origin(info.module_finder, name),
                type(exc).__name__,
                exc,
            )
            continue
        yield module


class PluginManager:
    """The modules of ``packages`` (names of imported packages, Heat's
    ``PluginManager('heat.engine.resources')``) followed by those of the
    plugin directories ``plugin_dirs``."""

    def __init__(self, *packages: str, plugin_dirs: Sequence[str] = ()) -> None:
        self.modules: list[types.ModuleType] = []
        for name in packages:
            self.modules.extend(load_modules(importlib.import_module(name)))
        self.plugin_modules: set[str] = set()
        if plugin_dirs:
            for module in load_modules(create_subpackage(plugin_dirs), tolerant=True):
                self.modules.append(module)
                self.plugin_modules.add(module.__name__)

    def is_plugin(self, module: types.ModuleType) -> bool:
        """Whether ``module`` came from a plugin directory."""
        return module.__name__ in self.plugin_modules

    def map_to_modules(self, function: Callable[[types.ModuleType], Any]) -> Iterator[Any]:
        """The results of ``function`` on every module, in order."""
        return map(function, self.modules)


class PluginMapping:
    """The ``<name>_mapping()`` functions of modules: the first of
    ``names`` a module defines is the one used (Heat's ``PluginMapping``)."""

    def __init__(self, names: str | Sequence[str], *args: Any, **kwargs: Any) -> None:
        if isinstance(names, str):
            names = [names]
        self.names = ["%s_mapping" % name for name in names]
        self.args = args
        self.kwargs = kwargs

    def load_from_module(self, module: types.ModuleType) -> Mapping[Any, Any]:
        """The mapping ``module`` gives, ``{}`` if none. A function answering
        ``None`` passes to the next name; one answering anything else that
        is not a mapping is logged and ignored, as Heat does."""
        for mapping_name in self.names:
            function = getattr(module, mapping_name, None)
            if not callable(function):
                continue
            try:
                mapping = function(*self.args, **self.kwargs)
            except Exception:
                LOG.error("Failed to load %s from %s", mapping_name, module.__name__)
                raise
            if isinstance(mapping, Mapping):
                return mapping
            if mapping is not None:
                LOG.error("Invalid type for %s from %s", mapping_name, module.__name__)
        return {}

    def load_all(
        self, manager: PluginManager
    ) -> Iterator[tuple[types.ModuleType, Mapping[Any, Any]]]:
        """Every module's mapping, in module order; a plugin directory's
        module whose function raises is skipped with a warning naming its
        file (a built-in one's error propagates)."""
        for module in manager.modules:
            try:
                mapping = self.load_from_module(module)
            except Exception as exc:
                if not manager.is_plugin(module):
                    raise
                LOG.warning(
                    "Failed to load the mapping of plugin module %s (%s); skipped: %s: %s",
                    module.__name__,
                    getattr(module, "__file__", "?"),
                    type(exc).__name__,
                    exc,
                )
                continue
            yield module, mapping
