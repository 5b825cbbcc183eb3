"""The documentation (doc/source, ``make docs``) covers what occli has.

The Sphinx tree is built once, in-process with Sphinx's Python API and the
man builder, into a temporary directory (a few seconds): that reads every
page, the HTML reference included (both builders use the same doctrees),
and writes the manual page occli(1). Skipped without sphinx and
myst-parser (the ``docs`` extra, which ``make venv`` installs).
"""

import collections
import importlib
import inspect
import io
import pathlib
import pkgutil
import sys

import pytest

pytest.importorskip("sphinx", reason="sphinx is not installed: pip install -e '.[docs]'")
pytest.importorskip("myst_parser", reason="myst-parser is not installed: pip install -e '.[docs]'")

from docutils import nodes
from sphinx.application import Sphinx

import occli.v2
from occli import base
from occli import plugins

# myst-parser reaches for Sphinx APIs that Sphinx deprecates
pytestmark = pytest.mark.filterwarnings(
    "ignore::PendingDeprecationWarning:myst_parser", "ignore::DeprecationWarning:myst_parser"
)

SOURCE = pathlib.Path(__file__).resolve().parents[2] / "doc" / "source"
# cliff's own commands, which occli's App adds to the registry's
CLIFF_COMMANDS = {"help", "complete"}
SDK_MODULES = (
    "occli.client",
    "occli.base",
    "occli.exceptions",
    "occli.waiters",
    "occli.api_versions",
)


class Built:
    def __init__(self, app, warnings, man_page):
        self.app = app
        self.warnings = warnings
        self.man_page = man_page

    def section_titles(self, prefix):
        """Every section title of the pages under ``prefix``, with repeats."""
        titles = []
        for docname in sorted(self.app.env.found_docs):
            if docname.startswith(prefix):
                doctree = self.app.env.get_doctree(docname)
                titles += [
                    section.next_node(nodes.title).astext()
                    for section in doctree.findall(nodes.section)
                ]
        return collections.Counter(titles)


@pytest.fixture(scope="module")
def docs(tmp_path_factory):
    out = tmp_path_factory.mktemp("docs")
    warnings = io.StringIO()
    saved_path = list(sys.path)  # conf.py adds doc/source/_ext
    try:
        app = Sphinx(
            str(SOURCE),
            str(SOURCE),
            str(out / "man"),
            str(out / "doctrees"),
            "man",
            status=None,
            warning=warnings,
            freshenv=True,
        )
        app.build()
    finally:
        sys.path[:] = saved_path
    return Built(app, warnings.getvalue(), (out / "man" / "occli.1").read_text())


@pytest.fixture(scope="module")
def commands(tmp_path_factory):
    """occli's own commands, as its plugin registry finds them from the
    entry points (a fresh index: not the user's cached one)."""
    registry = plugins.Registry.build((), cache_dir=str(tmp_path_factory.mktemp("cache")))
    names = {
        name
        for name in registry.command_names()
        if registry.plugins[registry.commands[name]].builtin
    }
    assert "server create" in names and "software deployment signal" in names
    return names | CLIFF_COMMANDS


def test_every_command_in_the_reference(docs, commands):
    titles = docs.section_titles("cli/")
    missing = sorted(commands - set(titles))
    assert not missing, (
        "commands missing from the reference: %s; add them to a page of "
        "doc/source/cli/ (.. autoprogram-cliff:: occli.commands, :command: "
        "<glob>)" % ", ".join(missing)
    )


def test_no_command_documented_twice(docs, commands):
    titles = docs.section_titles("cli/")
    twice = sorted(name for name in commands if titles[name] > 1)
    assert not twice, "documented more than once (overlapping :command: globs): %s" % twice


def test_every_command_in_the_man_page(docs, commands):
    headings = {
        line[4:].replace("\\-", "-")
        for line in docs.man_page.splitlines()
        if line.startswith(".SS ")
    }
    missing = sorted(commands - headings)
    assert not missing, "commands missing from occli.1: %s" % ", ".join(missing)
    for section in (
        "NAME",
        "SYNOPSIS",
        "GLOBAL OPTIONS",
        "COMMANDS",
        "CONFIGURATION",
        "EXIT STATUS",
    ):
        assert ".SH %s\n" % section in docs.man_page


def test_every_manager_and_resource_in_the_sdk_reference(docs):
    documented = docs.app.env.get_domain("py").objects
    expected = {"occli.client.Client"}
    for info in pkgutil.walk_packages(occli.v2.__path__, "occli.v2."):
        if info.ispkg or ".commands" in info.name:
            continue
        module = importlib.import_module(info.name)
        expected.update(
            "%s.%s" % (info.name, name)
            for name, cls in vars(module).items()
            if inspect.isclass(cls)
            and cls.__module__ == info.name
            and not name.startswith("_")
            and issubclass(cls, (base.Manager, base.Resource))
        )
    exceptions = importlib.import_module("occli.exceptions")
    expected.update(
        "occli.exceptions.%s" % name
        for name, cls in vars(exceptions).items()
        if inspect.isclass(cls)
        and issubclass(cls, Exception)
        and cls.__module__ == "occli.exceptions"
        and not name.startswith("_")
    )
    assert len(expected) > 30
    missing = sorted(expected - set(documented))
    assert not missing, "classes missing from doc/source/sdk/: %s" % ", ".join(missing)
    modules = sorted(set(SDK_MODULES) - set(docs.app.env.get_domain("py").modules))
    assert not modules, "modules missing from doc/source/sdk/: %s" % ", ".join(modules)


def test_docs_build_without_warnings(docs):
    # make docs builds with -W: a warning fails it
    assert not docs.warnings, docs.warnings
