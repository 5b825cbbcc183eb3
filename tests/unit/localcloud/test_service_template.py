"""Every local-cloud service is written one way (doc/localcloud-internals.md,
"Writing a service"): a package whose ``__init__`` exports only ``CATALOG``
and a lazy ``SERVICE``, its migrations as ``(component, steps)`` pairs, and
one line in :data:`occli.localcloud.registry.PACKAGES`. A throw-away
service written in a temporary package with nothing but those exports is
mounted, migrated, listed in the catalog and routed to; one skipping a step
fails :func:`template_problems`.
"""

import importlib
import inspect
import json
import pathlib
import subprocess
import sys
import textwrap
import types

import pytest

from occli.localcloud import registry
from occli.localcloud.app import Service
from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.cloud import migration_components
from occli.localcloud.cloud import service_classes
from tests.unit.localcloud.wsgi_client import Client

ROOT = pathlib.Path(__file__).resolve().parents[3]
LOCALCLOUD = ROOT / "occli" / "localcloud"

# the modules of a throw-away service package ``{name}``: notes per project
THROWAWAY = {
    "__init__.py": '''
        """A throw-away service: notes at ``/{name}``."""

        CATALOG = (("{name}", "scratch", "/{name}/v1/{{project_id}}"),)
        __all__ = ["CATALOG", "SERVICE"]


        def __getattr__(name):
            if name != "SERVICE":
                raise AttributeError(name)
            from {name}.api.service import NotesService

            return NotesService
        ''',
    "api/__init__.py": """
        \"\"\"The throw-away service's HTTP layer.\"\"\"
        """,
    "api/service.py": """
        from occli.localcloud.app import Service
        from {name} import migrations
        from {name} import notes as rules
        from {name}.api import notes

        RESOURCES = (notes,)


        class NotesService(Service):
            name = "{name}"
            prefix = "/{name}"

            def __init__(self, cloud):
                super().__init__(cloud)
                self.add_resources(RESOURCES)

            def migrations(self):
                return list(migrations.COMPONENTS)

            def seed(self, db):
                rules.seed(db)
        """,
    "api/notes.py": """
        from occli.localcloud.app import Response
        from {name} import notes


        def register(service):
            service.route("GET", "/v1/{{project_id}}/notes", list_notes)


        def list_notes(req):
            return Response(200, {{"notes": notes.texts(req.db)}})
        """,
    "migrations.py": """
        NOTES = ["CREATE TABLE {name}_notes (text TEXT NOT NULL)"]

        COMPONENTS = (("{name}", NOTES),)
        """,
    "notes.py": """
        def seed(db):
            if not db.execute("SELECT 1 FROM {name}_notes").fetchone():
                db.execute("INSERT INTO {name}_notes (text) VALUES ('seeded')")


        def texts(db):
            return [r["text"] for r in db.execute("SELECT text FROM {name}_notes")]
        """,
}
# a step of "Writing a service" each variant skips: (file, text, replacement)
SKIPS = {
    "no-catalog": ("__init__.py", "CATALOG = (", "ENTRIES = ("),
    "eager-service": (
        "__init__.py",
        "__all__ = [",
        "from {name}.api.service import *\n__all__ = [",
    ),
    "extra-export": ("__init__.py", "__all__ =", "from {name}.notes import texts\n__all__ ="),
    "bare-steps": ("api/service.py", "list(migrations.COMPONENTS)", "list(migrations.NOTES)"),
    "other-component": ("migrations.py", '(("{name}", NOTES),)', '(("notes", NOTES),)'),
    "other-name": ("api/service.py", 'name = "{name}"', 'name = "notes"'),
    "method-handler": (
        "api/service.py",
        "        self.add_resources(RESOURCES)\n",
        "        self.add_resources(RESOURCES)\n"
        "        self.route('GET', '/v1/{{project_id}}/more', self.more)\n\n"
        "    def more(self, req):\n"
        "        return {{}}\n",
    ),
    "lambda-route": (
        "api/service.py",
        "        self.add_resources(RESOURCES)\n",
        "        self.add_resources(RESOURCES)\n"
        "        self.route('GET', '/v1/{{project_id}}/more', lambda req: {{}})\n",
    ),
    "unregistered": None,
}


def write_service(root, name, skip=None):
    """Write the throw-away service package ``name`` under ``root``,
    without the step ``skip`` (a key of SKIPS)."""
    package = root / name
    package.mkdir()
    for filename, text in THROWAWAY.items():
        text = textwrap.dedent(text).lstrip()
        if skip and SKIPS[skip] and SKIPS[skip][0] == filename:
            old, new = SKIPS[skip][1:]
            assert old in text
            text = text.replace(old, new)
        (package / filename).parent.mkdir(exist_ok=True)
        (package / filename).write_text(text.format(name=name))


def api_imported(packages, path=None):
    """The packages among ``packages`` whose import, in a fresh Python,
    also imports their HTTP layer (``<package>.api``)."""
    script = (
        "import importlib, json, sys\n"
        "sys.path[:0] = %r\n"
        "packages = %r\n"
        "for p in packages: importlib.import_module(p)\n"
        "print(json.dumps([p for p in packages if p + '.api' in sys.modules]))\n"
    ) % ([str(path)] if path else [], list(packages))
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    return json.loads(out)


def template_problems(package_name, svc):
    """What the service package ``package_name`` (``svc``: its service in
    a started cloud) misses of "Writing a service"; [] if nothing."""
    problems = []
    name = package_name.rpartition(".")[2]
    package = importlib.import_module(package_name)
    if package_name not in registry.PACKAGES:
        problems.append("not in registry.PACKAGES")
    exported = {
        n
        for n, v in vars(package).items()
        if not n.startswith("_") and not isinstance(v, types.ModuleType)
    }
    if exported != {"CATALOG"} or getattr(package, "__all__", None) != ["CATALOG", "SERVICE"]:
        problems.append("__init__ exports %s, not CATALOG and a lazy SERVICE" % sorted(exported))
    cls = getattr(package, "SERVICE", None)
    if not (isinstance(cls, type) and issubclass(cls, Service) and cls.name == name):
        problems.append("SERVICE is not a Service named %r" % name)
    entries = getattr(package, "CATALOG", ())
    if not entries or not all(
        isinstance(e, tuple) and len(e) == 3 and all(isinstance(x, str) for x in e)
        for e in entries
    ):
        problems.append("CATALOG is not (type, name, path) entries")
    elif cls is not None and not all(
        (p + "/").startswith(cls.prefix + "/") for _, _, p in entries
    ):
        problems.append("a CATALOG path is outside %r" % cls.prefix)
    problems.extend(route_style_problems(package_name, svc))
    try:
        components = migration_components(svc)
    except TypeError as exc:
        problems.append(str(exc))
        components = []
    for component, steps in components:
        if component != name and not component.startswith(name + "."):
            problems.append("component %r is not %r or %r.<part>" % (component, name, name))
        elif svc.cloud.store.version(component) != len(steps):
            problems.append("component %r is not migrated" % component)
    return problems


def route_style_problems(package_name, svc):
    """What ``svc`` misses of the one route style: its class in
    ``<package>.api.service``, whose ``RESOURCES`` are modules with
    ``register(service)``, and every route's handler a plain function of
    one of them (or the application's version gate)."""
    module = importlib.import_module(type(svc).__module__)
    if module.__name__ != package_name + ".api.service":
        return ["the Service is in %s, not %s.api.service" % (module.__name__, package_name)]
    resources = getattr(module, "RESOURCES", None)
    if not (
        isinstance(resources, tuple)
        and resources
        and all(
            isinstance(m, types.ModuleType) and callable(getattr(m, "register", None))
            for m in resources
        )
    ):
        return ["RESOURCES is not a tuple of modules with register(service)"]
    homes = {m.__name__ for m in resources} | {"occli.localcloud.app"}
    return [
        "%s %s is not a function of a resource module" % (r.method, r.pattern)
        for r in svc.routes
        if inspect.ismethod(r.handler)
        or r.handler.__name__ == "<lambda>"
        or inspect.unwrap(r.handler).__module__ not in homes
    ]


@pytest.fixture(scope="module")
def full_cloud(tmp_path_factory):
    cloud = LocalCloud(Config(data_dir=str(tmp_path_factory.mktemp("full")), build_time=0))
    yield cloud
    cloud.close()


@pytest.mark.parametrize("package_name", registry.PACKAGES)
def test_every_registered_service_follows_the_template(full_cloud, package_name):
    svc = getattr(full_cloud, package_name.rpartition(".")[2])
    assert template_problems(package_name, svc) == []


def test_every_service_package_is_registered():
    packages = {
        "occli.localcloud." + p.parent.name
        for p in LOCALCLOUD.glob("*/migrations.py")
        if (p.parent / "__init__.py").exists()
    }
    assert packages and packages == set(registry.PACKAGES)


def test_a_package_with_migrations_is_found_without_any_list(tmp_path):
    """Adding a service touches only its own package: the registry finds
    it (identity first, then by name), importing nothing."""
    for name in ("zeta", "alpha", "identity"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text("raise ImportError('imported')\n")
        (tmp_path / name / "migrations.py").write_text("")
    (tmp_path / "helpers").mkdir()
    (tmp_path / "helpers" / "__init__.py").write_text("")
    assert registry.discover(tmp_path) == tuple(
        "occli.localcloud." + n for n in ("identity", "alpha", "zeta")
    )


def test_services_are_created_after_those_they_require():
    class A:
        name, requires = "a", ("c",)

    class B:
        name, requires = "b", ()

    class C:
        name, requires = "c", ("elsewhere",)

    assert registry.creation_order([A, B, C]) == [B, C, A]


def test_service_packages_import_without_their_api():
    """Start-up stays lean: the rules modules (and the catalog) import a
    package, never its HTTP layer."""
    assert api_imported(registry.PACKAGES) == []


def test_the_catalog_and_the_services_come_from_the_registry(full_cloud):
    assert [type(svc) for svc in full_cloud.services[:-1]] == service_classes()
    assert sorted(svc.name for svc in full_cloud.services[:-1]) == sorted(registry.names())
    created = [svc.name for svc in full_cloud.services[:-1]]
    # identity first; a service after those it requires (compute: network)
    assert created[0] == registry.FIRST
    assert created.index("network") < created.index("compute")
    client = Client(full_cloud)
    token = client.authenticate("demo").json()["token"]
    assert [s["type"] for s in token["catalog"]] == [e[0] for e in registry.catalog_entries()]


@pytest.fixture
def register(tmp_path, monkeypatch):
    """``register(name, skip=None)``: write a throw-away service package
    and list it in the registry (unless ``skip == "unregistered"``)."""
    root = tmp_path / "packages"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    written = []

    def register(name, skip=None):
        write_service(root, name, skip)
        written.append(name)
        if skip != "unregistered":
            monkeypatch.setattr(registry, "PACKAGES", (*registry.PACKAGES, name))
        return root

    yield register
    for name in written:
        for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            del sys.modules[module]


def test_a_new_service_needs_only_its_own_package(tmp_path, register):
    root = register("throwaway")
    assert api_imported(["throwaway"], root) == []
    cloud = LocalCloud(
        Config(data_dir=str(tmp_path / "data")),
        services=service_classes(["identity", "throwaway"]),
    )
    try:
        svc = cloud.throwaway
        assert svc in cloud.services and template_problems("throwaway", svc) == []
        assert cloud.store.version("throwaway") == 1
        client = Client(cloud)
        result = client.authenticate("demo")
        token = result.header("X-Subject-Token")
        entry = [s for s in result.json()["token"]["catalog"] if s["type"] == "throwaway"]
        assert [s["name"] for s in entry] == ["scratch"]
        url = entry[0]["endpoints"][0]["url"]
        with cloud.store.read() as db:
            demo = cloud.identity.project_id(db, "demo")
        assert url == "http://cloud.test:8775/throwaway/v1/" + demo
        answer = client.get(url.split("8775", 1)[1] + "/notes", token=token)
        assert (answer.status, answer.json()) == (200, {"notes": ["seeded"]})
    finally:
        cloud.close()


@pytest.mark.parametrize("skip", sorted(SKIPS))
def test_a_service_skipping_a_step_is_caught(tmp_path, register, skip):
    name = "throwaway_" + skip.replace("-", "_")
    root = register(name, skip)
    problems = []
    if api_imported([name], root):
        problems.append("its package imports its API")
    try:
        cloud = LocalCloud(
            Config(data_dir=str(tmp_path / "data")),
            services=service_classes(["identity", name]),
        )
    except (TypeError, ValueError) as exc:
        problems.append("the cloud refuses it: %s" % exc)
    else:
        try:
            cls = importlib.import_module(name).SERVICE
            svc = next(s for s in cloud.services if type(s) is cls)
            problems += template_problems(name, svc)
        finally:
            cloud.close()
    assert problems
