"""The flat import paths of ``occli.v2`` from before its service packages
(issue 24) keep working: every old module path imports, as the very module
now holding it, and every public name of it is reachable there.

An old module split by service (``occli.v2.extensions``) or whose base
manager moved to its package's ``base`` (``occli.v2.volumes``), and an old
module whose path is now a package (``occli.v2.compute``), reach the names
of each of their new modules.
"""

import importlib
import pkgutil
import subprocess
import sys
import types

import pytest

import occli.v2
from occli.v2 import MOVED

ONE = sorted(old for old, new in MOVED.items() if len(new) == 1)


def public_names(module):
    """The names a user of ``module`` may import: not private, not modules."""
    return [
        name
        for name, value in vars(module).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType)
    ]


def test_every_new_module_exists_and_every_old_path_is_listed():
    for new in sorted({n for names in MOVED.values() for n in names}):
        importlib.import_module(new)
    flat = {
        "occli.v2." + m
        for m in [
            "aggregates",
            "availability_zones",
            "compute",
            "extensions",
            "flavors",
            "floating_ips",
            "hypervisors",
            "identity",
            "images",
            "instance_actions",
            "interface_attachments",
            "keypairs",
            "limits",
            "migrations",
            "network_quotas",
            "networks",
            "neutron",
            "object_store",
            "ports",
            "quotas",
            "security_groups",
            "server_groups",
            "server_lifecycle",
            "server_migrations",
            "servers",
            "services",
            "software_configs",
            "software_deployments",
            "usage",
            "volume_attachments",
            "volume_quotas",
            "volumes",
        ]
    }
    assert flat <= set(MOVED)
    # helper modules split off a command module after the move: no old path
    added = {"server_options", "server_views"}
    added |= {"stacks", "stack_actions", "stack_data", "stack_events", "stack_resources"}
    added |= {"stack_wait", "orchestration"}
    added |= {"options", "ports", "routers"}  # network write commands, after the move
    added |= {"containers", "objects", "account"}  # object storage commands
    added |= {"image_import", "members", "tasks", "metadefs"}  # image commands (issue 20)
    added |= {"subnet_pools", "address_scopes"}  # network commands (issue 20)
    added |= {"volume_types", "volume_backups", "volume_transfers", "volume_messages"}
    added |= {"volume_attachments", "volume_admin"}  # volume commands (issue 21)
    added |= {"groups", "catalog", "implied_roles", "app_credentials"}  # identity (21)
    for info in pkgutil.walk_packages(occli.v2.__path__, "occli.v2."):
        service, _, command = info.name.removeprefix("occli.v2.").partition(".commands.")
        if command and service != "commands" and command not in added:
            assert MOVED["occli.v2.commands." + command] == (info.name,)


@pytest.mark.parametrize("old", ONE)
def test_an_old_path_imports_as_the_new_module(old):
    (new,) = MOVED[old]
    module = importlib.import_module(old)
    if old not in ("occli.v2.compute", "occli.v2.object_store"):
        # those two old paths are the new packages
        assert module is importlib.import_module(new)
        assert sys.modules[old] is module
    assert module.__spec__ is None or module.__spec__.name in (old, new)
    parent, _, leaf = old.rpartition(".")
    assert getattr(importlib.import_module(parent), leaf) is module


@pytest.mark.parametrize("old", sorted(MOVED))
def test_every_public_name_is_reachable_by_the_old_path(old):
    module = importlib.import_module(old)
    news = [importlib.import_module(new) for new in MOVED[old]]
    for name in {name for new in news for name in public_names(new)}:
        # the first module listed holds a name several have
        holder = next(new for new in news if name in public_names(new))
        assert getattr(module, name) is getattr(holder, name), name


def test_the_old_forms_of_import_work_in_a_fresh_interpreter():
    script = (
        "import occli.v2.servers\n"
        "from occli.v2 import servers\n"
        "from occli.v2.servers import ServerManager\n"
        "from occli.v2.compute.servers import ServerManager as New\n"
        "assert ServerManager is New and servers is occli.v2.servers\n"
        "from occli.v2.commands import servers as commands\n"
        "import occli.v2.compute.commands.servers as new_commands\n"
        "assert commands is new_commands\n"
        "from occli.v2.compute import ComputeManager\n"
        "from occli.v2.extensions import NetworkExtensionManager\n"
        "from occli.v2.volumes import CinderManager, VolumeManager\n"
        "from occli.v2.identity import IdentityManager, ProjectManager\n"
        "import occli.v2\n"
        "assert occli.v2.flavors.FlavorManager.__module__ == 'occli.v2.compute.flavors'\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_a_name_nowhere_is_an_attribute_error():
    with pytest.raises(AttributeError):
        occli.v2.no_such_module  # noqa: B018
    with pytest.raises(ImportError):
        importlib.import_module("occli.v2.no_such_module")
    with pytest.raises(AttributeError):
        importlib.import_module("occli.v2.extensions").no_such_name  # noqa: B018
