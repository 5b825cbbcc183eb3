"""The documentation (doc/source, ``make docs``) covers what occli has.

The Sphinx tree is built once, in-process with Sphinx's Python API and the
man builder, into a temporary directory (a few seconds): that reads every
page, the HTML reference included (both builders use the same doctrees),
and writes the manual page occli(1). Skipped without sphinx and
myst-parser (the ``docs`` extra, which ``make venv`` installs).
"""

import collections
import contextlib
import functools
import importlib
import inspect
import io
import os
import pathlib
import pkgutil
import re
import shlex
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("sphinx", reason="sphinx is not installed: pip install -e '.[docs]'")
pytest.importorskip("myst_parser", reason="myst-parser is not installed: pip install -e '.[docs]'")

from docutils import nodes
from sphinx.application import Sphinx

import occli.v2
from occli import base
from occli import plugins
from occli import shell

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
            # make docs writes the man page from the HTML build's doctrees,
            # which docutils' smartquotes changed (Sphinx spares only the
            # man and text builders' own): read them as the HTML build does
            confoverrides={"smartquotes_excludes": {"languages": [], "builders": []}},
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


# -- examples a reader pastes -------------------------------------------------

#: en-dash, em-dash, minus sign, hyphen (U+2010) and curly quotes: a shell
#: takes none of them for ``--`` or a quote
TYPOGRAPHIC = frozenset("\u2013\u2014\u2212\u2010\u2018\u2019\u201c\u201d")
#: roff escapes printing one of them (docutils writes ``\-`` and ``\(aq``)
ROFF_TYPOGRAPHIC = re.compile(r"\\\((?:en|em|mi|hy|oq|cq|lq|rq)|\\\[u(?:201[0-9A-Da-d]|2212)\]")
ROFF_ESCAPES = ((r"\-", "-"), (r"\(aq", "'"), (r"\(ga", "`"), (r"\(dq", '"'), (r"\ ", " "))
#: a synopsis, not an example: ``[--opt]``, ``[<name> ...]``, ``<command>``
SYNOPSIS = re.compile(r"\[(?:-|<|[a-z][a-z ]*\])|\.\.\.\]|<command>")
PLACEHOLDER = re.compile(r"<([^<>]+)>")
#: shell operators ending one command (a redirection's target is dropped
#: with the words that follow it until the next command)
SHELL_OPERATORS = set("|&;()<>")


def roff_text(line):
    """A line of occli.1 as man shows it: fonts dropped, escapes read."""
    line = re.sub(r"\\f(?:[BIRP]|\(..)", "", line).replace("\\&", "")
    for escape, char in ROFF_ESCAPES:
        line = line.replace(escape, char)
    return line.replace("\\e", "\\")


def man_examples(man_page):
    """``(line number, text)`` of occli.1's example blocks (``.EX`` …
    ``.EE``, as roff source) and of its ``Example: occli …`` lines."""
    found: list[tuple[int, list[str]]] = []
    block: list[str] | None = None
    for number, line in enumerate(man_page.splitlines(), 1):
        if line == ".EX":
            block = []
            found.append((number + 1, block))
        elif line == ".EE":
            block = None
        elif block is not None:
            block.append(line)
        elif line.startswith("Example: occli "):
            found.append((number, [line]))
    return [(number, "\n".join(lines)) for number, lines in found]


def doc_examples(app, commands):
    """``(page, line, text)`` of every literal block, ``occli …`` code span
    (but a command's bare name) and ``Example: occli …`` line (a command's
    help) of the built pages."""
    for docname in sorted(app.env.found_docs):
        doctree = app.env.get_doctree(docname)
        for node in doctree.findall(nodes.literal_block):
            yield docname, node.line, node.astext()
        for node in doctree.findall(nodes.literal):
            text = " ".join(node.astext().split())
            # ``occli console url show`` in a sentence names a command
            if text.startswith("occli") and text[6:] not in commands:
                yield docname, node.line, text
        for node in doctree.findall(nodes.paragraph):
            for match in re.finditer(r"^Example: (occli .*)$", node.astext(), re.M):
                yield docname, node.line, match.group(1)


def command_lines(text):
    """The ``occli`` command lines of shell text, each as ``(line, argv
    after occli)`` (argv None if the shell could not split it): ``\\``
    continuations and argparse's wrapped synopsis lines joined, ``$ ``
    prompts, comments, pipes, redirections, ``$(…)`` and variable
    assignments handled as a shell does; ``<placeholder>`` words become
    ``PLACEHOLDER:<its text>``. Synopses (``[--opt]``) are skipped."""
    logical: list[str] = []
    for line in text.replace("\\\n", " ").splitlines():
        if logical and line[:1].isspace() and logical[-1].lstrip().startswith("occli "):
            logical[-1] += " " + line.strip()
        else:
            logical.append(line)
    for line in logical:
        line = line.strip().removeprefix("$ ")
        if not re.search(r"(^|[\s($|;&])occli(\s|$)", line) or SYNOPSIS.search(line):
            continue
        shell_line = PLACEHOLDER.sub(lambda m: "PLACEHOLDER:" + m.group(1), line)
        # $(…): a word of this command, and a command of its own
        for inner in re.findall(r"\$\(([^()]*)\)", shell_line):
            yield from command_lines(inner)
        shell_line = re.sub(r"\$\([^()]*\)", "SUBSTITUTED", shell_line)
        shell_line = re.sub(r"(?<=\s)\d+(?=[<>])", "", shell_line)  # 2>/dev/null
        lexer = shlex.shlex(shell_line, posix=True, punctuation_chars="|&;()<>")
        lexer.whitespace_split = True
        try:
            words = list(lexer)
        except ValueError:
            yield line, None
            continue
        command: list[str] = []
        for word in words + [";"]:
            if set(word) <= SHELL_OPERATORS:
                while command and re.match(r"[A-Za-z_]\w*=", command[0]):
                    command.pop(0)
                if command[:1] == ["occli"]:
                    yield line, command[1:]
                command = []
            else:
                command.append(word)


@pytest.fixture(scope="module")
def occli_app(tmp_path_factory):
    """occli's App with the built-in commands (a fresh plugin index), its
    logging left alone: it parses, it never runs a command."""
    from occli import cliff_adapter

    app = shell.OcCLI()
    registry = plugins.Registry.build((), cache_dir=str(tmp_path_factory.mktemp("cache")))
    for name in registry.command_names():
        if registry.plugins[registry.commands[name]].builtin:
            loader = functools.partial(registry.command, name)
            command = cliff_adapter.LazyCommand(name, loader)
            app.command_manager.commands[name] = command  # type: ignore[assignment]
    app.configure_logging = lambda: None  # type: ignore[method-assign]
    app.stdout = app.stderr = io.StringIO()
    return app


def usage_error(app, argv):
    """None if occli parses ``argv`` as it would run it (global options
    before, among or after the command's words; the command's own parser),
    else the error it prints. A placeholder is tried as its own text, then
    as ``1`` (an integer option's)."""
    error = None
    for number in (False, True):
        args = [
            ("1" if number else w.partition(":")[2]) if w.startswith("PLACEHOLDER:") else w
            for w in argv
        ]
        error = _parse(app, args)
        if error is None:
            return None
    return error


def _parse(app, argv):
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            app.options, rest = app.parser.parse_known_args(argv)
            if not rest:  # the interactive shell, or --help/--version
                return None
            rest = app._take_global_options(rest)
            try:
                factory, name, args = app.command_manager.find_command(rest)
            except ValueError:
                words = shell.command_words(rest)
                group = " ".join(words)
                if {"-h", "--help"} & set(rest) and any(
                    n.startswith(group + " ") for n, _ in app.command_manager
                ):
                    return None  # occli server --help: the group's commands
                return "no occli command %r" % group
            factory(app, app.options).get_parser("occli " + name).parse_args(args)
    except SystemExit as exc:
        return None if exc.code in (0, None) else err.getvalue().strip() or "exit %s" % exc.code
    except Exception as exc:  # noqa: BLE001 - an option type failing on a good value
        return "the parser raised %r" % exc
    return None


def test_no_typographic_dashes_or_quotes_where_a_command_is_shown(docs, commands):
    bad = [
        "%s:%s: %s" % (page, line, text)
        for page, line, text in doc_examples(docs.app, commands)
        if TYPOGRAPHIC & set(text)
    ]
    for docname in sorted(docs.app.env.found_docs):
        for node in docs.app.env.get_doctree(docname).findall(nodes.Text):
            # an option in a help text: "--wait" made "–wait" (not "1–3")
            for match in re.finditer(r"(?<!\S)[\u2013\u2014\u2212][a-z][\w-]*", node.astext()):
                bad.append("%s:%s: %s" % (docname, node.parent.line, match.group(0)))
    assert not bad, "typographic dashes or quotes in commands:\n" + "\n".join(bad)
    for number, line in enumerate(docs.man_page.splitlines(), 1):
        assert not (TYPOGRAPHIC & set(line) or ROFF_TYPOGRAPHIC.search(line)), (number, line)
    for number, text in man_examples(docs.man_page):
        # a bare - is a hyphen (U+2010) for groff -Tutf8: docutils writes \-
        assert not re.search(r"(?<!\\)-", text), "occli.1:%s: %s" % (number, text)
    # no hyphenation, or man breaks a sentence's local-admin as "lo‐" "cal-admin";
    # HY too: each example's .EE turns it back on with \n(HY
    assert re.search(r"^\.nh\n\.nr HY 0$", docs.man_page, re.M)
    groff = shutil.which("groff")
    if groff:  # as man shows it (\- may be U+2212 where groff is not Debian's)
        shown = subprocess.run(
            [groff, "-man", "-Tutf8"],
            input=docs.man_page,
            env=dict(os.environ, LANG="C.UTF-8"),
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert not (TYPOGRAPHIC - {"\u2212"}) & set(shown)


def test_every_example_parses_as_an_occli_command_line(docs, commands, occli_app):
    examples = list(doc_examples(docs.app, commands))
    examples += [
        ("occli.1", number, "\n".join(map(roff_text, text.splitlines())))
        for number, text in man_examples(docs.man_page)
    ]
    parsed, failures = 0, []
    for page, number, text in examples:
        for line, argv in command_lines(text):
            parsed += 1
            error = "the shell cannot split it" if argv is None else usage_error(occli_app, argv)
            if error:
                failures.append("%s:%s: %s\n    %s" % (page, number, line, error))
    assert parsed > 500  # the reference's 400 examples, the man page's
    assert not failures, "examples occli does not parse:\n" + "\n".join(failures)
