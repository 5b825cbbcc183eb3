"""A service reaches another service's rules only through its interface.

Each service package that others call has an ``interface`` module, "what
other services may ask of" it: the boundary functions re-exported by name
and listed in ``__all__``. Found with ``ast``: a service package imports
nothing of another service's package but that ``interface`` module (or
the package's ``CATALOG``/``SERVICE``), and every name an interface
exports is used across: a function the boundary scan finds, or a
constant another package reads through the interface.
"""

import ast

import pytest

from tests.unit.localcloud.test_boundary_types import PREFIX
from tests.unit.localcloud.test_boundary_types import SCAN

ALLOWED = {"interface", "CATALOG", "SERVICE"}


def interfaces():
    return sorted(
        name for name in SCAN.modules if name.count(".") == 3 and name.endswith(".interface")
    )


def foreign_imports(name, tree):
    """``(line, imported)`` of each import of module ``name`` (parsed as
    ``tree``) from another service's package that is not an allowed one."""
    here = SCAN.package(name)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            targets = [(node.module, a.name) for a in node.names]
        elif isinstance(node, ast.Import):
            targets = [tuple(a.name.rsplit(".", 1)) for a in node.names if "." in a.name]
        else:
            continue
        for owner, name in targets:
            there = SCAN.package(owner + "." + name)
            if there is None or there == here:
                continue
            if owner == "%s.%s" % (PREFIX, there) and name in ALLOWED:
                continue
            yield node.lineno, owner + "." + name


def service_modules():
    return sorted(n for n, m in SCAN.modules.items() if SCAN.package(n) is not None)


def test_the_known_interfaces_exist():
    for service in ("network", "volume", "image"):
        assert "%s.%s.interface" % (PREFIX, service) in interfaces()


@pytest.mark.parametrize("name", service_modules())
def test_a_service_imports_only_another_service_s_interface(name):
    found = list(foreign_imports(name, SCAN.modules[name].tree))
    assert found == [], "import these through their service's interface: %s" % found


def test_the_check_flags_a_rules_module_import():
    source = (
        "from occli.localcloud.network import ports\n"
        "from occli.localcloud.network import interface\n"
        "from occli.localcloud.image.images import page\n"
        "from occli.localcloud.compute import build\n"
    )
    found = foreign_imports("%s.compute.networks" % PREFIX, ast.parse(source))
    assert [i for _, i in found] == [
        "occli.localcloud.network.ports",
        "occli.localcloud.image.images.page",
    ]


def used_through(interface):
    """The attributes other packages read of ``interface`` through a name
    they import it as (its constants; the boundary scan follows functions)."""
    service = SCAN.package(interface)
    used = set()
    for module in SCAN.modules.values():
        if SCAN.package(module.name) == service:
            continue
        aliases = {k for k, v in module.binds.items() if v == interface}
        for node in ast.walk(module.tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
            ):
                used.add(node.attr)
    return used


def exports(interface):
    for node in SCAN.modules[interface].tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            return ast.literal_eval(node.value)
    return []


@pytest.mark.parametrize("interface", interfaces())
def test_an_interface_exports_exactly_what_it_imports(interface):
    module = SCAN.modules[interface]
    assert module.defs == {} and module.classes == {}
    assert sorted(exports(interface)) == sorted(module.binds)
    assert exports(interface) == sorted(exports(interface))


@pytest.mark.parametrize("interface", interfaces())
def test_an_interface_has_no_dead_exports(interface):
    used = used_through(interface)
    dead = []
    for name in exports(interface):
        hit = SCAN.target(interface + "." + name)
        if hit is not None and hit[1] in hit[0].defs:
            if (hit[0].name, hit[1]) not in SCAN.boundary:
                dead.append(name)
        elif name not in used:
            dead.append(name)
    assert dead == []
