"""Built-in managers, one package per service: ``compute`` (Nova v2.1),
``identity`` (Keystone v3), ``network`` (Neutron v2.0), ``block_storage``
(Cinder v3), ``image`` (Glance v2), ``orchestration`` (Heat v1) and
``object_store`` (Swift v1).

Each package's ``base`` module holds the service's base manager, its other
modules the managers of its resources, and its ``commands`` package that
service's CLI commands; :mod:`occli.v2.commands` holds the commands of
several services and the helpers every command module shares.

:class:`occli.client.Client` declares the managers as its attributes;
:func:`manager_mapping` shows them to the plugin registry too (the
``occli.managers`` entry point ``builtin``), so that ``plugin list`` lists
them and a plugin cannot take their names.

The flat paths SDK users imported before the packages
(``occli.v2.servers``, ``from occli.v2.commands import servers``…) keep
working: :data:`MOVED` maps each to its new module, which a finder on
``sys.meta_path`` registers under the old name too (the same module
object), and :func:`forward` gives a package the ``__getattr__`` that
reaches them as attributes. Nothing is imported before it is asked for.
"""

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
from collections.abc import Callable
from collections.abc import Sequence

#: old module path: the modules holding its names now. One module is the
#: old one under its new name; several (a module split by service, or
#: whose base manager moved to ``base``) give a module of their names.
#: An old path that is now a package (``occli.v2.compute``) reaches the
#: old names through the package's ``__getattr__``.
MOVED: dict[str, tuple[str, ...]] = {
    "occli.v2.aggregates": ("occli.v2.compute.aggregates",),
    "occli.v2.availability_zones": ("occli.v2.compute.availability_zones",),
    "occli.v2.commands.aggregates": ("occli.v2.compute.commands.aggregates",),
    "occli.v2.commands.compute_services": ("occli.v2.compute.commands.compute_services",),
    "occli.v2.commands.consoles": ("occli.v2.compute.commands.consoles",),
    "occli.v2.commands.flavors": ("occli.v2.compute.commands.flavors",),
    "occli.v2.commands.floating_ips": ("occli.v2.network.commands.floating_ips",),
    "occli.v2.commands.identity": ("occli.v2.identity.commands.identity",),
    "occli.v2.commands.identity_admin": ("occli.v2.identity.commands.identity_admin",),
    "occli.v2.commands.images": ("occli.v2.image.commands.images",),
    "occli.v2.commands.keypairs": ("occli.v2.compute.commands.keypairs",),
    "occli.v2.commands.networks": ("occli.v2.network.commands.networks",),
    "occli.v2.commands.security_groups": ("occli.v2.network.commands.security_groups",),
    "occli.v2.commands.server_cells": ("occli.v2.compute.commands.server_cells",),
    "occli.v2.commands.server_create": ("occli.v2.compute.commands.server_create",),
    "occli.v2.commands.server_events": ("occli.v2.compute.commands.server_events",),
    "occli.v2.commands.server_groups": ("occli.v2.compute.commands.server_groups",),
    "occli.v2.commands.server_images": ("occli.v2.compute.commands.server_images",),
    "occli.v2.commands.server_lifecycle": ("occli.v2.compute.commands.server_lifecycle",),
    "occli.v2.commands.server_migrations": ("occli.v2.compute.commands.server_migrations",),
    "occli.v2.commands.server_network": ("occli.v2.compute.commands.server_network",),
    "occli.v2.commands.server_volumes": ("occli.v2.compute.commands.server_volumes",),
    "occli.v2.commands.servers": ("occli.v2.compute.commands.servers",),
    "occli.v2.commands.software_configs": ("occli.v2.orchestration.commands.software_configs",),
    "occli.v2.commands.software_deployments": (
        "occli.v2.orchestration.commands.software_deployments",
    ),
    "occli.v2.commands.usage": ("occli.v2.compute.commands.usage",),
    "occli.v2.commands.volumes": ("occli.v2.block_storage.commands.volumes",),
    "occli.v2.compute": ("occli.v2.compute.base",),
    "occli.v2.extensions": (
        "occli.v2.compute.extensions",
        "occli.v2.network.extensions",
    ),
    "occli.v2.flavors": ("occli.v2.compute.flavors",),
    "occli.v2.floating_ips": ("occli.v2.network.floating_ips",),
    "occli.v2.hypervisors": ("occli.v2.compute.hypervisors",),
    "occli.v2.identity": (
        "occli.v2.identity.identity",
        "occli.v2.identity.base",
    ),
    "occli.v2.images": ("occli.v2.image.images",),
    "occli.v2.instance_actions": ("occli.v2.compute.instance_actions",),
    "occli.v2.interface_attachments": ("occli.v2.compute.interface_attachments",),
    "occli.v2.keypairs": ("occli.v2.compute.keypairs",),
    "occli.v2.limits": ("occli.v2.compute.limits",),
    "occli.v2.migrations": ("occli.v2.compute.migrations",),
    "occli.v2.network_quotas": ("occli.v2.network.network_quotas",),
    "occli.v2.networks": ("occli.v2.network.networks",),
    "occli.v2.neutron": ("occli.v2.network.base",),
    "occli.v2.object_store": ("occli.v2.object_store.object_store",),
    "occli.v2.ports": ("occli.v2.network.ports",),
    "occli.v2.quotas": ("occli.v2.compute.quotas",),
    "occli.v2.security_groups": ("occli.v2.network.security_groups",),
    "occli.v2.server_groups": ("occli.v2.compute.server_groups",),
    "occli.v2.server_lifecycle": ("occli.v2.compute.server_lifecycle",),
    "occli.v2.server_migrations": ("occli.v2.compute.server_migrations",),
    "occli.v2.servers": ("occli.v2.compute.servers",),
    "occli.v2.services": ("occli.v2.compute.services",),
    "occli.v2.software_configs": ("occli.v2.orchestration.software_configs",),
    "occli.v2.software_deployments": ("occli.v2.orchestration.software_deployments",),
    "occli.v2.usage": ("occli.v2.compute.usage",),
    "occli.v2.volume_attachments": ("occli.v2.compute.volume_attachments",),
    "occli.v2.volume_quotas": ("occli.v2.block_storage.volume_quotas",),
    "occli.v2.volumes": (
        "occli.v2.block_storage.volumes",
        "occli.v2.block_storage.base",
    ),
}


def manager_mapping() -> dict[str, str]:
    """``{client attribute: "module:Class"}``, imported only when used."""
    from occli.client import Client

    return Client.builtin_managers()


def forward(name: str) -> Callable[[str], object]:
    """The module ``__getattr__`` of ``name``: a moved submodule by its
    old name, else a name of the modules :data:`MOVED` lists for ``name``
    (not the modules they import: ``from occli.v2.compute import base``
    must find the submodule, not what ``compute.base`` calls ``base``)."""

    def __getattr__(attr: str) -> object:
        old = "%s.%s" % (name, attr)
        if old in MOVED:
            return importlib.import_module(old)
        if not attr.startswith("__"):
            for new in MOVED.get(name, ()):
                module = importlib.import_module(new)
                if hasattr(module, attr) and not isinstance(
                    getattr(module, attr), types.ModuleType
                ):
                    return getattr(module, attr)
        raise AttributeError("module %r has no attribute %r" % (name, attr))

    return __getattr__


class _OldPaths(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports an old path of :data:`MOVED` as its new module."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        new = MOVED[spec.name]
        if len(new) == 1:
            module = importlib.import_module(new[0])
            # the import machinery sets the old spec on it: exec_module
            # puts this one back
            spec.loader_state = module.__spec__
            return module
        module = types.ModuleType(spec.name, "The names of %s." % ", ".join(new))
        module.__getattr__ = forward(spec.name)  # type: ignore[method-assign]
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        spec = module.__spec__
        if spec is not None and spec.loader_state is not None:
            module.__spec__ = spec.loader_state


sys.meta_path.append(_OldPaths())
__getattr__ = forward(__name__)
