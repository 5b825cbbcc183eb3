"""Plugin discovery: command modules and manager mappings via entry points.

Built-in resources register exactly like third-party plugins: a module of
``do_*`` functions under the entry point group ``occli.commands`` and a
``manager_mapping()`` callable under ``occli.managers``.
"""

import importlib
import importlib.metadata

COMMAND_GROUP = "occli.commands"
MANAGER_GROUP = "occli.managers"

_managers = None


def _entry_points(group):
    return sorted(importlib.metadata.entry_points(group=group),
                  key=lambda ep: (ep.name, ep.value))


def command_modules():
    """``(name, module_name)`` for every command module entry point."""
    return [(ep.name, ep.value.partition(":")[0])
            for ep in _entry_points(COMMAND_GROUP)]


def commands_of(module):
    """``{command name: function}`` for the ``do_*`` functions of a module."""
    return {name[3:].replace("_", " "): func
            for name, func in vars(module).items()
            if name.startswith("do_") and callable(func)
            and getattr(func, "__module__", None) == module.__name__}


def load_commands():
    """``{command name: function}`` of every command module."""
    found = {}
    for _name, module_name in command_modules():
        module = importlib.import_module(module_name)
        for command, func in commands_of(module).items():
            found.setdefault(command, func)
    return found


def _manager_specs():
    global _managers
    if _managers is None:
        mapping = {}
        for ep in _entry_points(MANAGER_GROUP):
            for attr, cls in ep.load()().items():
                mapping.setdefault(attr, cls)
        _managers = mapping
    return _managers


def manager_class(name):
    """The manager class registered as ``name``, or None."""
    spec = _manager_specs().get(name)
    if isinstance(spec, str):
        module_name, _, cls_name = spec.partition(":")
        spec = getattr(importlib.import_module(module_name), cls_name)
    return spec


def manager_names():
    return list(_manager_specs())
