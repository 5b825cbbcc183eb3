"""What the docs say occli and its local cloud are, and what they install.

* Every description of occli (setup.cfg's, the man page's NAME line, the
  README's opening and local-cloud paragraphs, the local-cloud guide's
  first paragraph, ``occli-localcloud --help``) names every service the
  local cloud serves, read from its own registry
  (:func:`occli.localcloud.registry.catalog_entries`), not from a list
  kept here.
* The Python examples of the testing guide and of the README import only
  the standard library, occli, their own modules (a block captioned
  ``deploy.py``) and what the documented ``pip install`` line installs,
  found from the installed distributions' metadata
  (:func:`importlib.metadata.packages_distributions`).
* The reference quotes the interactive shell's prompt as occli shows it.
"""

import ast
import configparser
import importlib.metadata
import io
import pathlib
import re
import sys
import textwrap

import pytest

from occli import shell
from occli.localcloud import cli as localcloud_cli
from occli.localcloud import registry

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTING = ROOT / "doc" / "source" / "testing.rst"
README = ROOT / "README.rst"


def served_services():
    """The products the local cloud serves, as Keystone's catalog names
    them (``cinderv3`` and ``cinder`` are Cinder), capitalised."""
    names = {re.sub(r"v\d+$", "", name) for _, name, _ in registry.catalog_entries()}
    return sorted(name.capitalize() for name in names)


def paragraph(path, start):
    """The paragraph of ``path`` starting with the text ``start``, in one line."""
    for block in re.split(r"\n\s*\n", path.read_text()):
        text = " ".join(block.split())
        if text.startswith(start):
            return text
    raise AssertionError("no paragraph of %s starts with %r" % (path, start))


def man_page_name_line():
    """The description conf.py gives occli(1)'s NAME line (``man_pages``)."""
    tree = ast.parse((ROOT / "doc" / "source" / "conf.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "man_pages":
            assert isinstance(node.value, ast.List) and isinstance(node.value.elts[0], ast.Tuple)
            # (source, name, description, authors, section)
            return ast.literal_eval(node.value.elts[0].elts[2])
    raise AssertionError("conf.py sets no man_pages")


def descriptions():
    setup = configparser.ConfigParser(interpolation=None)
    setup.read(ROOT / "setup.cfg")
    return {
        "setup.cfg description": setup["metadata"]["description"],
        "occli(1) NAME": man_page_name_line(),
        "occli-localcloud --help": localcloud_cli.build_parser().description,
        "doc/source/localcloud/index.rst": paragraph(
            ROOT / "doc" / "source" / "localcloud" / "index.rst", "``occli-localcloud`` runs"
        ),
        "README.rst (opening)": paragraph(README, "occli is a command-line client"),
        "README.rst (local cloud)": paragraph(README, "occli also ships **a local cloud**"),
    }


def test_the_registry_serves_the_known_services():
    # the derivation above still reads the catalog's names
    assert {"Keystone", "Nova", "Cinder"} <= set(served_services())


@pytest.mark.parametrize("where", sorted(descriptions()))
def test_each_description_names_every_served_service(where):
    text = descriptions()[where]
    missing = [name for name in served_services() if not re.search(r"\b%s\b" % name, text)]
    assert not missing, "%s does not name %s: %r" % (where, ", ".join(missing), text)


# -- the examples' imports ---------------------------------------------------


def python_examples(path):
    """``(caption, code)`` of each ``.. code-block:: python`` of ``path``."""
    examples = []
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines):
        if line.strip() != ".. code-block:: python":
            continue
        directive_indent = len(line) - len(line.lstrip())
        body, j = [], i + 1
        while j < len(lines) and (
            not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > directive_indent
        ):
            body.append(lines[j])
            j += 1
        options = [b.strip() for b in body if b.strip().startswith(":")][:1]
        caption = options[0].partition(":caption:")[2].strip() if options else ""
        code = textwrap.dedent("\n".join(b for b in body if not b.strip().startswith(":")))
        examples.append((caption, code))
    return examples


def top_level_imports(code):
    """The top-level modules ``code`` imports (absolute imports)."""
    modules: set[str] = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            modules.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module.partition(".")[0])
    return modules


def install_line(path):
    """The requirements of the first ``pip install`` line (or code span)
    of ``path``."""
    match = re.search(r"pip install ([^`\n]+)", path.read_text())
    assert match, "%s shows no pip install line" % path
    return [word.strip("'\"") for word in match.group(1).split()]


def _normal(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def installed_by(requirements):
    """The distributions ``pip install <requirements>`` installs: each one
    with its extras, and what they require in turn (installed metadata)."""
    from packaging.requirements import Requirement

    dists, pending = set(), [Requirement(text) for text in requirements]
    while pending:
        req = pending.pop()
        for extra in [""] + sorted(req.extras):
            key = (_normal(req.name), extra)
            if key in dists:
                continue
            dists.add(key)
            try:
                requires = importlib.metadata.requires(req.name) or []
            except importlib.metadata.PackageNotFoundError:
                continue  # not installed here: nothing known of its needs
            for text in requires:
                sub = Requirement(text)
                if sub.marker is None or sub.marker.evaluate({"extra": extra}):
                    pending.append(sub)
    return {name for name, _ in dists}


@pytest.mark.parametrize("path", [TESTING, README], ids=["doc/source/testing.rst", "README.rst"])
def test_python_examples_import_only_what_the_install_line_installs(path):
    examples = python_examples(path)
    assert examples, "no Python example in %s" % path
    own = {caption.removesuffix(".py") for caption, _ in examples if caption.endswith(".py")}
    installed = installed_by(install_line(path))
    by_module = importlib.metadata.packages_distributions()
    missing = []
    for caption, code in examples:
        for module in sorted(top_level_imports(code)):
            if module in sys.stdlib_module_names or module == "occli" or module in own:
                continue
            dists = {_normal(d) for d in by_module.get(module, [])}
            if not dists & installed:
                missing.append("%s imports %s (%s)" % (caption or "an example", module, dists))
    assert not missing, "%s: pip install %s lacks: %s" % (
        path.name,
        " ".join(install_line(path)),
        "; ".join(missing),
    )


def test_the_reference_names_the_interactive_prompt(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stdin", Terminal())
    app = shell.OcCLI()
    interactive = shell._interactive_app()(app, app.command_manager, io.StringIO(), io.StringIO())
    text = " ".join((ROOT / "doc" / "source" / "cli" / "index.rst").read_text().split())
    assert "interactive shell: its prompt is ``%s``" % interactive.prompt.strip() in text
