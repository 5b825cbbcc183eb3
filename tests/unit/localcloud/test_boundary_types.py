"""Where the local cloud's services meet, the functions are typed.

A *boundary* function is one of a service package's functions that code
outside that package calls: another service's rules or API modules, or
the shared core (``cloud.py``, ``faults.py``, …). Found with ``ast``:

- a name or module attribute imported from another service's package
  (``from occli.localcloud.network import ports`` … ``ports.enforce(``);
- a member of another service's ``Service`` class reached through
  ``cloud.<service>`` (``req.cloud.identity.project(``), also through a
  local variable, a function returning it (``common.images(req)``) or a
  parameter it is passed to (compute's ``images``, heat's ``swift``); a
  ``staticmethod(rules.func)`` member stands for ``rules.func``;
- a function of another service's module that a function returns
  (``volume_attach.cinder(db)``: Cinder's ``volumes``), followed the same
  way.

Every boundary function, and every function of the shared core modules
below, has annotations on all its parameters (``self``/``cls`` apart)
and its return, so that a new boundary must be typed.
"""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
LOCALCLOUD = ROOT / "occli" / "localcloud"
PREFIX = "occli.localcloud"
CORE = ["progress", "microversions", "validation", "registry", "errors", "common"]


def module_name(path):
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


class Module:
    """One parsed module: its top-level functions and classes, and what
    its imports bind."""

    def __init__(self, path):
        self.path = path
        self.name = module_name(path)
        self.tree = ast.parse(path.read_text(encoding="utf-8"))
        self.defs = {}
        self.classes = {}
        for node in self.tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.defs[node.name] = node
            elif isinstance(node, ast.ClassDef):
                self.classes[node.name] = node
        self.binds = {}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    self.binds[alias.asname or alias.name] = node.module + "." + alias.name
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.binds[alias.asname] = alias.name


class Scan:
    """The local cloud's modules and the boundary functions between its
    service packages."""

    def __init__(self, modules):
        self.modules = {m.name: m for m in modules}
        self.services = sorted({m.name.split(".")[2] for m in modules if m.name.count(".") >= 3})
        self.boundary = set()  # (module name, "func" or "Class.method")
        self.handle_params = {}  # (module name, func) -> {param: handle}
        self.handle_returns = {}  # (module name, func) -> handle
        self._references()
        self._service_members()

    def package(self, module_name):
        """The service package ``module_name`` belongs to (None: the core)."""
        parts = module_name.split(".")
        if len(parts) > 2 and parts[2] in self.services:
            return parts[2]
        return None

    def dotted(self, module, node):
        """``node`` (a name or attribute chain) as the dotted name it binds."""
        if isinstance(node, ast.Name):
            return module.binds.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self.dotted(module, node.value)
            return base + "." + node.attr if base else None
        return None

    def target(self, dotted):
        """``(module, name)`` of the function or class ``dotted`` names."""
        if dotted is None or "." not in dotted:
            return None
        owner, name = dotted.rsplit(".", 1)
        found = self.modules.get(owner)
        if found is not None and (name in found.defs or name in found.classes):
            return found, name
        if found is not None and found.binds.get(name, dotted) != dotted:
            return self.target(found.binds[name])  # a re-export (``interface``)
        return None

    def mark(self, found, name):
        if name in found.defs:
            self.boundary.add((found.name, name))
            return
        for node in found.classes[name].body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                self.boundary.add((found.name, name + "." + node.name))
            elif isinstance(node, ast.FunctionDef) and node.name == "__init__":
                self.boundary.add((found.name, name + ".__init__"))

    def _references(self):
        for module in self.modules.values():
            here = self.package(module.name)
            for node in ast.walk(module.tree):
                if not isinstance(node, (ast.Name, ast.Attribute)):
                    continue
                hit = self.target(self.dotted(module, node))
                if hit is not None and self.package(hit[0].name) not in (None, here):
                    self.mark(*hit)

    def handle(self, module, node, env):
        """What ``node`` evaluates to: ``("service", name)`` for
        ``cloud.<service>``, ``("module", name)`` for a module of the local
        cloud, a list of those (a tuple's), or None."""
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            bound = module.binds.get(node.id)
            return ("module", bound) if bound in self.modules else None
        if isinstance(node, ast.Attribute) and node.attr in self.services:
            inner = node.value
            if isinstance(inner, ast.Attribute) and inner.attr == "cloud":
                return "service", node.attr
            if isinstance(inner, ast.Name) and inner.id == "cloud":
                return "service", node.attr
            if isinstance(inner, ast.Name) and inner.id == "self":
                return ("service", node.attr) if self.package(module.name) is None else None
        if isinstance(node, ast.Call):
            callee = self.callee(module, node.func)
            return self.handle_returns.get(callee) if callee else None
        if isinstance(node, ast.Tuple):
            items = [self.handle(module, e, env) for e in node.elts]
            return items if any(items) else None
        return None

    def callee(self, module, func):
        """``(module name, function)`` a call's ``func`` resolves to."""
        if isinstance(func, ast.Name) and func.id in module.defs:
            return module.name, func.id
        hit = self.target(self.dotted(module, func))
        if hit is not None and hit[1] in hit[0].defs:
            return hit[0].name, hit[1]
        return None

    def functions(self):
        for module in self.modules.values():
            for node in ast.walk(module.tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield module, node

    def _service_members(self):
        """Follow ``cloud.<service>`` and modules through variables,
        returns and parameters to a fixed point; mark what is used across."""
        used = set()
        while True:
            before = (
                {k: dict(v) for k, v in self.handle_params.items()},
                dict(self.handle_returns),
                set(used),
            )
            for module, func in self.functions():
                self._follow(module, func, used)
            after = (self.handle_params, self.handle_returns, used)
            if before == after:
                break
        for service, member in used:
            self._mark_member(service, member)

    def _follow(self, module, func, used):
        here = self.package(module.name)
        env = dict(self.handle_params.get((module.name, func.name), {}))
        for node in ast.walk(func):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                self._bind(env, node.targets[0], self.handle(module, node.value, env))
        for node in ast.walk(func):
            if isinstance(node, ast.Return) and node.value is not None:
                found = self.handle(module, node.value, env)
                if found:
                    self.handle_returns[(module.name, func.name)] = found
            elif isinstance(node, ast.Attribute):
                found = self.handle(module, node.value, env)
                if not found or isinstance(found, list):
                    continue
                kind, name = found
                if kind == "service" and name != here:
                    used.add((name, node.attr))
                elif kind == "module" and self.package(name) not in (None, here):
                    hit = self.target(name + "." + node.attr)
                    if hit is not None and hit[1] in hit[0].defs:
                        self.boundary.add((hit[0].name, hit[1]))
            elif isinstance(node, ast.Call):
                self._pass(module, node, env)

    @staticmethod
    def _bind(env, target, found):
        if not found:
            return
        if isinstance(target, ast.Name):
            env[target.id] = found
        elif isinstance(target, ast.Tuple) and isinstance(found, list):
            for item, value in zip(target.elts, found, strict=False):
                if isinstance(item, ast.Name) and value:
                    env[item.id] = value

    def _pass(self, module, call, env):
        callee = self.callee(module, call.func)
        if callee is None:
            return
        args = self.modules[callee[0]].defs[callee[1]].args
        positional = [a.arg for a in args.posonlyargs + args.args]
        params = positional + [a.arg for a in args.kwonlyargs]
        given = list(zip(positional, call.args, strict=False))
        given += [(k.arg, k.value) for k in call.keywords]
        for param, value in given:
            found = self.handle(module, value, env)
            if found and param in params:
                self.handle_params.setdefault(callee, {})[param] = found

    def service_class(self, service):
        module = self.modules.get("%s.%s.api.service" % (PREFIX, service))
        for node in module.classes.values() if module else ():
            if any(isinstance(b, ast.Name) and b.id == "Service" for b in node.bases):
                return module, node
        return None

    def _mark_member(self, service, member):
        found = self.service_class(service)
        if found is None:
            return
        module, cls = found
        for node in cls.body:
            if isinstance(node, ast.FunctionDef) and node.name == member:
                self.boundary.add((module.name, cls.name + "." + member))
            elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == member for t in node.targets
            ):
                value = node.value
                if isinstance(value, ast.Call) and value.args:
                    hit = self.target(self.dotted(module, value.args[0]))
                    if hit is not None:
                        self.mark(*hit)


def scan():
    return Scan([Module(p) for p in sorted(LOCALCLOUD.rglob("*.py"))])


SCAN = scan()


def definition(module_name, qualname):
    module = SCAN.modules[module_name]
    first, _, method = qualname.partition(".")
    if not method:
        return module.defs[first], False
    for node in module.classes[first].body:
        if isinstance(node, ast.FunctionDef) and node.name == method:
            return node, not any(
                isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list
            )
    raise LookupError(qualname)


def missing(func, is_method):
    """What of ``func``'s signature lacks an annotation."""
    args = func.args
    positional = args.posonlyargs + args.args
    if is_method and positional:
        positional = positional[1:]
    gaps = [a.arg for a in positional + args.kwonlyargs if a.annotation is None]
    gaps += ["*" + a.arg for a in (args.vararg, args.kwarg) if a and a.annotation is None]
    if func.returns is None:
        gaps.append("return")
    return gaps


def core_functions():
    for name in CORE:
        module = SCAN.modules["%s.%s" % (PREFIX, name)]
        for node in ast.walk(module.tree):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef):
                        yield module.name, node.name + "." + item.name
            elif isinstance(node, ast.FunctionDef) and node.col_offset == 0:
                yield module.name, node.name


def test_the_scan_finds_the_known_boundaries():
    for expected in [
        ("occli.localcloud.network.ports", "enforce"),
        ("occli.localcloud.network.floating_ips", "associate"),
        ("occli.localcloud.volume.attachments", "nova_attach"),
        ("occli.localcloud.volume.volumes", "listing"),
        ("occli.localcloud.image.images", "get_visible_image"),
        ("occli.localcloud.image.images", "create_image"),
        ("occli.localcloud.objectstore.api.service", "ObjectStoreService.signed_object"),
        ("occli.localcloud.objectstore.api.service", "ObjectStoreService.read_object"),
        ("occli.localcloud.identity.api.service", "IdentityService.project"),
        ("occli.localcloud.compute.api.service", "ComputeService.network_changed"),
        ("occli.localcloud.compute.flavors", "create"),
    ]:
        assert expected in SCAN.boundary


def test_the_scan_skips_calls_inside_one_service():
    assert ("occli.localcloud.network.ports", "create") not in SCAN.boundary
    assert ("occli.localcloud.compute.build", "disks") not in SCAN.boundary


@pytest.mark.parametrize(
    "source, gaps",
    [
        ("def f(db, x: int) -> None: ...", ["db"]),
        ("def f(db: object, *a, **k: int): ...", ["*a", "return"]),
        ("def f(db: object, *, x: int = 1) -> int: ...", []),
    ],
)
def test_missing_names_each_unannotated_part(source, gaps):
    assert missing(ast.parse(source).body[0], False) == gaps


@pytest.mark.parametrize(
    "where", sorted(SCAN.boundary) + sorted(core_functions()), ids="%s:%s".__mod__
)
def test_boundary_and_core_functions_are_annotated(where):
    func, is_method = definition(*where)
    assert missing(func, is_method) == [], "annotate %s.%s" % where
