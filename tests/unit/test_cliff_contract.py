"""What occli relies on in cliff beyond its public API (issue 24).

cliff offers no public way to register a command without importing it,
to give a display command its formatters without stevedore's scan, or to
make its ``complete`` command without looking its shells up; occli uses
these, with cliff pinned below its next major version in ``setup.cfg``:

- ``CommandManager.commands``: the docs put lazily loaded entry-point-like
  objects (:class:`occli.cliff_adapter.LazyCommand`) in it, and the shell
  replaces it with a mapping making them on demand
  (:class:`occli.cliff_adapter.CommandTable`): cliff looks names up with
  ``in`` and ``[]``, lists them with ``keys()`` and ``items()``;
  ``find_command`` loads only the one found, iteration lists them all.
- ``DisplayCommandBase._load_formatter_plugins()``: overridden to return
  :class:`occli.cliff_adapter.Formatters`.
- ``Command(app, app_args, cmd_name=None)`` loads command hooks (a
  stevedore scan) only when given a ``cmd_name``, which cliff passes only
  to a constructor taking one: occli's commands take none.
- ``complete.CompleteCommand.get_actions`` needs only ``self.app``: occli's
  ``complete`` skips cliff's constructor.
- ``-c`` matches columns as ``DisplayCommandBase._normalize_column_name``
  does: :func:`occli.cliff_adapter._column_key` must agree.

Each test fails when a cliff release changes one of them.
"""

import configparser
import importlib.metadata
import inspect
import io
import json
import pathlib

import pytest
import stevedore
from cliff import command
from cliff import commandmanager
from cliff import complete
from cliff import display
from packaging.requirements import Requirement

from occli import cliff_adapter
from occli import shell
from occli import utils

ROOT = pathlib.Path(__file__).parents[2]


@utils.no_client
@utils.output("list")
@utils.arg("--fail", action="store_true")
def do_fake_list(client, args):
    """List fakes."""
    return ("ID", "Server Name"), [("1", "alpha"), ("2", "beta")]


@utils.no_client
@utils.output("show")
def do_fake_show(client, args):
    """Show a fake."""
    return ("id", "name"), ("1", "alpha")


LOADED: list[str] = []


def _loader(name, func):
    def load():
        LOADED.append(name)
        return func

    return load


class App(shell.OcCLI):
    """occli with the two fake commands only, registered as the shell
    registers its own: lazily, in ``command_manager.commands``."""

    def _register_commands(self, plugin_dirs=()):
        for name, func in (("fake list", do_fake_list), ("fake show", do_fake_show)):
            self.command_manager.commands[name] = cliff_adapter.LazyCommand(
                name, _loader(name, func), summary=func.__doc__
            )


@pytest.fixture
def run(monkeypatch):
    """Run the App; any stevedore scan fails the run."""

    def scan(*args, **kwargs):
        raise AssertionError("stevedore scan: %s %s" % (args, kwargs))

    monkeypatch.setattr(stevedore, "ExtensionManager", scan)
    monkeypatch.setattr(stevedore.extension, "ExtensionManager", scan)
    LOADED.clear()

    def run(*argv):
        app = App()
        app.stdout, app.stderr = io.StringIO(), io.StringIO()
        code = app.run(list(argv))
        return code, app.stdout.getvalue(), app.stderr.getvalue()

    return run


def _params(func):
    return list(inspect.signature(func).parameters)


def test_cliff_is_pinned_below_its_next_major_version():
    setup = configparser.ConfigParser()
    setup.read(ROOT / "setup.cfg")
    (line,) = [r for r in setup["options"]["install_requires"].split() if r.startswith("cliff")]
    requirement = Requirement(line)
    installed = importlib.metadata.version("cliff")
    major = int(installed.split(".")[0])
    assert requirement.specifier.contains(installed), (line, installed)
    assert not requirement.specifier.contains("%d.0" % (major + 1)), line


def test_the_signatures_occli_relies_on():
    assert _params(command.Command.__init__) == ["self", "app", "app_args", "cmd_name"]
    assert inspect.signature(command.Command.__init__).parameters["cmd_name"].default is None
    assert _params(display.DisplayCommandBase._load_formatter_plugins) == ["self"]
    assert _params(complete.CompleteCommand.get_actions) == ["self", "command"]
    assert _params(commandmanager.CommandManager.find_command) == ["self", "argv"]
    assert isinstance(commandmanager.CommandManager(None).commands, dict)


def test_a_command_given_a_name_scans_for_hooks_and_occli_gives_none(run):
    class Named(command.Command):
        def take_action(self, parsed_args):
            return 0

    app = App()
    with pytest.raises(AssertionError, match="stevedore scan"):
        Named(app, None, cmd_name="named")  # the scan occli's commands avoid
    assert "cmd_name" not in inspect.getfullargspec(shell.HelpCommand.__init__).args
    code, out, err = run("fake list", "-f", "value")
    assert (code, err) == (0, "")


def test_a_lazy_command_is_loaded_only_when_it_runs(run):
    code, out, err = run("fake show", "-f", "json")
    assert (code, err) == (0, "")
    assert json.loads(out) == {"id": "1", "name": "alpha"}
    assert LOADED == ["fake show"]


def test_the_formatters_are_occlis_without_a_scan(run):
    code, out, _ = run("fake list", "-f", "json")
    assert code == 0
    assert json.loads(out) == [
        {"ID": "1", "Server Name": "alpha"},
        {"ID": "2", "Server Name": "beta"},
    ]
    code, out, _ = run("fake show", "-f", "shell")
    assert (code, out) == (0, 'id="1"\nname="alpha"\n')
    code, out, err = run("fake list", "-f", "csv")
    assert (code, out) == (0, '"ID","Server Name"\n"1","alpha"\n"2","beta"\n'), err


def test_columns_match_as_cliff_matches_them(run):
    for name in ("Server Name", " server name ", "ID", "server_name"):
        assert cliff_adapter._column_key(name) == (
            display.DisplayCommandBase._normalize_column_name(name)
        )
    code, out, err = run("fake list", "-f", "value", "-c", "server_name")
    assert (code, out) == (0, "alpha\nbeta\n"), err
    code, out, err = run("fake list", "-c", "nosuch")
    assert code == 2 and "-c/--column: no column named 'nosuch'" in err


def test_help_and_complete_work_on_lazy_commands_without_a_scan(run):
    code, out, err = run("help", "fake", "list")
    assert code == 0, err
    assert "usage: occli fake list" in out and "--fail" in out
    code, out, err = run("complete", "--shell", "none")
    assert code == 0, err
    data = dict(line.strip().split("=", 1) for line in out.splitlines())
    assert data["cmds"] == "'complete fake help'"
    assert "--fail" in data["cmds_fake_list"] and "--format" in data["cmds_fake_show"]


def test_the_manager_lists_every_lazy_command(run):
    app = App()
    app._register_commands()
    names = dict(app.command_manager)
    assert isinstance(names["fake list"], cliff_adapter.LazyCommand)
    assert {"help", "complete", "fake list", "fake show"} == set(names)
    assert LOADED == []


class FakeRegistry:
    """What CommandTable asks of :class:`occli.plugins.Registry`."""

    def __init__(self, funcs):
        self.funcs = funcs
        self.commands = {name: i for i, name in enumerate(funcs)}

    def command_names(self):
        return sorted(self.commands)

    def summary(self, name):
        return self.funcs[name].__doc__

    def dist_of(self, name):
        return None

    def command(self, name):
        LOADED.append(name)
        return self.funcs[name]


class TableApp(shell.OcCLI):
    """occli with the fake commands in a CommandTable, as the shell has its own."""

    def _register_commands(self, plugin_dirs=()):
        registry = FakeRegistry({"fake list": do_fake_list, "fake show": do_fake_show})
        table = cliff_adapter.CommandTable(registry, self.command_manager.commands)
        self.command_manager.commands = table


def test_the_command_table_makes_a_command_only_when_cliff_asks(run):
    app = TableApp()
    app._register_commands()
    table = app.command_manager.commands
    assert table._made == {} and "fake show" in table and "fake nosuch" not in table
    factory, name, rest = app.command_manager.find_command(["fake", "show", "-f", "json"])
    assert (name, rest) == ("fake show", ["-f", "json"])
    assert list(table._made) == ["fake show"] and LOADED == ["fake show"]
    factory, name, rest = app.command_manager.find_command(["fake", "l"])  # cliff's partial names
    assert name == "fake l" and factory is table["fake list"].load()
    assert list(dict(app.command_manager)) == ["help", "complete", "fake list", "fake show"]
    assert len(table) == 4
    app._register_commands()  # again: the same commands, none made twice
    assert list(app.command_manager.commands) == ["help", "complete", "fake list", "fake show"]


def test_a_command_table_runs_help_and_commands(monkeypatch):
    out = io.StringIO()
    app = TableApp()
    app.stdout, app.stderr = out, io.StringIO()
    assert app.run(["fake", "list", "-f", "value"]) == 0
    assert out.getvalue() == "1 alpha\n2 beta\n"
    app = TableApp()
    app.stdout, app.stderr = io.StringIO(), io.StringIO()
    assert app.run(["help"]) == 0
    assert "fake show" in app.stdout.getvalue() and "Show a fake." in app.stdout.getvalue()
