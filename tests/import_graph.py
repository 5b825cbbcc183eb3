"""The import graph of a package's modules, and its circles (issue 24).

Every ``import`` of one of the package's modules counts, a function-level
one or one under ``if TYPE_CHECKING`` too: deferring an import hides a
circle from Python, not from a reader. ``from package import name`` is an
edge to ``package.name`` when that is a module, else to the package.
Importing a module also runs its packages' ``__init__``, which is not
counted: a package's face may name its members.
"""

import ast
import pathlib


def modules(root, package):
    """``{dotted name: (path, is a package)}`` of every module under
    ``root``, the directory of ``package``."""
    found = {}
    for path in pathlib.Path(root).rglob("*.py"):
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        found[".".join([package, *parts])] = (path, is_package)
    return found


def _target(name, known):
    """The module ``name`` is, or the nearest package holding it."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imports(name, path, is_package, known):
    """The modules of ``known`` that module ``name`` imports, anywhere in
    its body."""
    here = name if is_package else name.rpartition(".")[0]
    edges = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            edges.update(_target(alias.name, known) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = here
                for _ in range(node.level - 1):
                    parent = parent.rpartition(".")[0]
                base = parent + ("." + base if base else "")
            for alias in node.names:
                edges.add(_target(base + "." + alias.name, known))
    edges.discard(None)
    edges.discard(name)
    return edges


def graph(root, package, leave_out=()):
    """``{module: {modules it imports}}`` of ``package`` (at ``root``), the
    modules under the dotted prefixes ``leave_out`` left out as nodes and
    as targets."""

    def kept(name):
        return not any(name == p or name.startswith(p + ".") for p in leave_out)

    known = modules(root, package)
    return {
        name: {m for m in imports(name, *entry, known) if kept(m)}
        for name, entry in known.items()
        if kept(name)
    }


def circles(edges):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(edges[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def describe(component, edges):
    """One line per member of ``component``: the members it imports."""
    return "\n".join(
        "  %s -> %s" % (m, ", ".join(sorted(edges[m] & component))) for m in sorted(component)
    )
