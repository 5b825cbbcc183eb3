"""The resource types of the engine, loaded as Heat loads its plugins.

Heat's ``heat/engine/resources/__init__.py`` (``initialise``,
``_load_global_environment``): :func:`initialise` builds the global
environment from, in this order,

1. every module of this package, subpackages walked
   (``openstack/heat/random_string.py``, …): its
   ``available_resource_mapping()`` when it has one (a type whose service
   may be missing; it may ask :func:`has_client`), else its
   ``resource_mapping()``, each ``{type name: Resource subclass}``, and its
   ``constraint_mapping()`` (custom constraints, ``{name: checker}``);
2. every module of each plugin directory, the same way (a module that
   fails to import, or whose mapping raises or is not of resource classes,
   is logged with a warning naming its file and skipped);
3. the entry points of the group ``occli.localcloud.heat.resources``: each
   names a module (read as in 1), a ``Resource`` subclass (the entry
   point's name is its type) or a callable returning ``{type: class}``; a
   broken one is logged and skipped;
4. every environment file of the global environment directory
   (:func:`.environment.read_global_environment`).

A later source overrides an earlier one's type of the same name, as in
Heat. The result is cached per (plugin dirs, environment dir, service
check): a cloud calls :func:`initialise` once, at start.
"""

import importlib.metadata
import logging
import threading
import types
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from occli.localcloud import registry
from occli.localcloud.orchestration.engine import environment
from occli.localcloud.orchestration.engine import plugin_manager
from occli.localcloud.orchestration.engine.resource import Resource

LOG = logging.getLogger(__name__)

# the entry-point group third-party resource types are installed under
ENTRY_POINT_GROUP = "occli.localcloud.heat.resources"
# the module whose ``template_resource_class(url, files)`` makes the class
# of a template resource (a type that is a template of the files)
TEMPLATE_RESOURCE_MODULE = __name__ + ".openstack.heat.template_resource"

_lock = threading.RLock()
_cache: dict[tuple[Any, ...], environment.Environment] = {}
_environment: environment.Environment | None = None
_clients_available: Callable[[str], bool] | None = None


def catalog_services() -> Callable[[str], bool]:
    """Whether a service type is one the local cloud registers (the
    default service check)."""
    kinds = frozenset(kind for kind, _name, _path in registry.catalog_entries())
    return kinds.__contains__


def has_client(service_type: str) -> bool:
    """Whether the cloud runs ``service_type`` (``"network"``,
    ``"volumev3"``…): what ``available_resource_mapping()`` asks, as Heat's
    plugins ask ``clients.has_client``."""
    available = _clients_available or catalog_services()
    return bool(available(service_type))


def _register_types(
    env: environment.Environment, mapping: Mapping[Any, Any], where: str, strict: bool
) -> None:
    """Register ``{type name: Resource subclass}``; anything else is a
    TypeError from a built-in module, a warning from a plugin."""
    for name, cls in mapping.items():
        if isinstance(name, str) and isinstance(cls, type) and issubclass(cls, Resource):
            env.register_class(name, cls)
            continue
        if strict:
            raise TypeError("%s maps %r to %r, not to a Resource subclass" % (where, name, cls))
        LOG.warning("%s maps %r to %r, not to a Resource subclass; skipped", where, name, cls)


def _register_constraints(
    env: environment.Environment, mapping: Mapping[Any, Any], where: str, strict: bool
) -> None:
    for name, checker in mapping.items():
        if isinstance(name, str) and callable(checker):
            env.register_constraint(name, checker)
        elif strict:
            raise TypeError("%s maps constraint %r to %r, not a callable" % (where, name, checker))
        else:
            LOG.warning(
                "%s maps constraint %r to %r, not a callable; skipped", where, name, checker
            )


def _load_modules(env: environment.Environment, manager: plugin_manager.PluginManager) -> None:
    """Steps 1 and 2: the modules' resource and constraint mappings."""
    resource_mapping = plugin_manager.PluginMapping(["available_resource", "resource"])
    constraint_mapping = plugin_manager.PluginMapping("constraint")
    for module, mapping in resource_mapping.load_all(manager):
        where = getattr(module, "__file__", None) or module.__name__
        _register_types(env, mapping, where, strict=not manager.is_plugin(module))
    for module, mapping in constraint_mapping.load_all(manager):
        where = getattr(module, "__file__", None) or module.__name__
        _register_constraints(env, mapping, where, strict=not manager.is_plugin(module))


def _entry_point_mappings() -> Iterator[tuple[str, Mapping[Any, Any]]]:
    """Step 3: ``(description, mapping)`` of each entry point of the group,
    by name; a broken one is logged and skipped."""
    points = sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name)
    mapping_names = plugin_manager.PluginMapping(["available_resource", "resource"])
    for point in points:
        where = "entry point %s = %s" % (point.name, point.value)
        try:
            target = point.load()
            if isinstance(target, types.ModuleType):
                mapping: Any = mapping_names.load_from_module(target)
            elif isinstance(target, type) and issubclass(target, Resource):
                mapping = {point.name: target}
            elif callable(target):
                mapping = target()
            else:
                raise TypeError("not a module, a Resource subclass or a callable")
            if not isinstance(mapping, Mapping):
                raise TypeError("%s is not a mapping" % type(mapping).__name__)
        except Exception as exc:  # noqa: BLE001 - a broken plugin never stops the engine
            LOG.warning(
                "Failed to load resource types from %s; skipped: %s: %s",
                where,
                type(exc).__name__,
                exc,
            )
            continue
        yield where, mapping


def _template_factory(
    manager: plugin_manager.PluginManager,
) -> environment.TemplateFactory | None:
    for module in manager.modules:
        if module.__name__ == TEMPLATE_RESOURCE_MODULE:
            factory = getattr(module, "template_resource_class", None)
            return factory if callable(factory) else None
    return None


def initialise(
    plugin_dirs: Sequence[str] = (),
    environment_dir: str | None = None,
    clients_available: Callable[[str], bool] | None = None,
) -> environment.Environment:
    """The global environment: every resource type of the built-in modules,
    ``plugin_dirs``, the entry-point group and ``environment_dir`` (see the
    module's docstring). ``clients_available(service_type)`` says which
    services the cloud runs (default: every registered one); it answers
    :func:`has_client` and hides from ``get_types`` the types whose
    ``default_client_name`` is missing."""
    global _environment, _clients_available
    key = (tuple(plugin_dirs), environment_dir, clients_available)
    with _lock:
        env = _cache.get(key)
        if env is None:
            _clients_available = clients_available
            env = environment.Environment(user_env=False)
            env.service_available = clients_available or catalog_services()
            manager = plugin_manager.PluginManager(__name__, plugin_dirs=plugin_dirs)
            _load_modules(env, manager)
            for where, mapping in _entry_point_mappings():
                _register_types(env, mapping, where, strict=False)
            env.registry.set_template_factory(_template_factory(manager))
            environment.read_global_environment(env, environment_dir)
            LOG.debug("Resource types: %s", ", ".join(env.get_types()))
            _cache[key] = env
        _clients_available = clients_available
        _environment = env
        environment.set_default_global(env)
        return env


def global_env() -> environment.Environment:
    """The global environment last :func:`initialise` d (built with the
    defaults if none was)."""
    with _lock:
        if _environment is None:
            return initialise()
        return _environment
