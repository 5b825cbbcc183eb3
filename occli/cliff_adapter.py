"""Adapt ``do_*`` functions into cliff commands.

``do_server_create(client, args)`` becomes ``occli server create``: its
``@utils.arg`` declarations build the parser, ``@utils.output`` chooses a
cliff Lister or ShowOne (and so the ``-f/-c`` formatter options), and its
docstring is the help. The function writes through the app's streams
(``utils.stdout(args)``, ``utils.stderr(args)``), and errors naming SDK
parameters name the command's options instead (``@utils.option_names``).
Built-in and plugin commands go through this one adapter.
"""

import argparse
import functools
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import MutableMapping
from typing import Any

# cliff's value, shell and csv formatters print ``str(machine_readable())``:
# a Python repr for dict and list cells, as OSC prints them.
_TEXT_FORMATTERS = ("value", "shell", "csv")
# Formatters printing cells as they are: control characters in a name (an
# ANSI escape sequence) must not reach the terminal. json and yaml escape
# them already.
_RAW_FORMATTERS = _TEXT_FORMATTERS + ("table",)


#: The last paragraph of every command's help: where the global options are.
GLOBAL_OPTIONS_HINT = (
    "Global options (--os-cloud, --debug, --timing, -v and the others) may "
    "also follow the command; occli --help lists them."
)

#: The formatters of list and show commands: cliff's own, named here rather
#: than found through stevedore's entry-point scan on every run, and
#: occli.formatters' JSON (for lists: the array streamed) and table (plain
#: tables drawn without prettytable and wcwidth).
LIST_FORMATTERS = {
    "csv": "cliff.formatters.commaseparated:CSVLister",
    "json": "occli.formatters:StreamingJSONFormatter",
    "table": "occli.formatters:TableFormatter",
    "value": "cliff.formatters.value:ValueFormatter",
    "yaml": "cliff.formatters.yaml_format:YAMLFormatter",
}
SHOW_FORMATTERS = {
    "json": "cliff.formatters.json_format:JSONFormatter",
    "shell": "cliff.formatters.shell:ShellFormatter",
    "table": "occli.formatters:TableFormatter",
    "value": "cliff.formatters.value:ValueFormatter",
    "yaml": "cliff.formatters.yaml_format:YAMLFormatter",
}


class LazyCommand:
    """Entry-point-like object for cliff's CommandManager: builds on load().

    ``summary`` (the first line of the command's docstring) and ``dist``
    (the distribution of a third-party plugin, None for occli's own
    commands) come from the plugin registry's index, so that ``occli
    --help`` lists every command without importing any.
    """

    def __init__(self, name, loader, summary=None, dist=None):
        self.name = name
        self._loader = loader
        self._cls = None
        self.summary = summary
        self.dist = dist

    @property
    def value(self):
        return self.name

    def load(self):
        if self._cls is None:
            self._cls = make_command(self.name, self._loader(), dist=self.dist)
        return self._cls


class CommandTable(MutableMapping):
    """cliff's ``CommandManager.commands`` over the plugin registry.

    cliff keeps ``{name: entry point}``; filling it with a
    :class:`LazyCommand` for each of the registry's few hundred commands
    cost a warm ``server list`` more than its own parsing. Here a
    command's LazyCommand is made when cliff asks for that name (listing
    them all, for ``--help`` or a partial name, makes them all). Commands
    set on the table (cliff's ``help`` and ``complete``) come first.
    """

    def __init__(self, registry: Any, added: Mapping[str, Any] | None = None) -> None:
        self._registry = registry
        if isinstance(added, CommandTable):  # registered again: the same commands
            added = added._added
        self._added: dict[str, Any] = dict(added or {})
        self._made: dict[str, LazyCommand] = {}

    def __getitem__(self, name: str) -> Any:
        if name in self._added:
            return self._added[name]
        command = self._made.get(name)
        if command is None:
            if name not in self._registry.commands:
                raise KeyError(name)
            command = self._made[name] = LazyCommand(
                name,
                functools.partial(self._registry.command, name),
                summary=self._registry.summary(name),
                dist=self._registry.dist_of(name),
            )
        return command

    def __contains__(self, name: object) -> bool:
        return name in self._added or name in self._registry.commands

    def __setitem__(self, name: str, command: Any) -> None:
        self._added[name] = command

    def __delitem__(self, name: str) -> None:
        if name in self._added:
            del self._added[name]
        else:
            raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        yield from self._added
        for name in self._registry.command_names():
            if name not in self._added:
                yield name

    def __len__(self) -> int:
        return sum(1 for _ in self)


class Formatters:
    """What cliff's DisplayCommandBase wants of its stevedore
    ExtensionManager of formatters: ``names()``, iteration and ``[name]``,
    each an extension with ``.name`` and ``.obj``."""

    def __init__(self, specs):
        import importlib

        self._extensions = {}
        for name in sorted(specs):
            module, _, cls = specs[name].partition(":")
            obj = getattr(importlib.import_module(module), cls)()
            self._extensions[name] = _Extension(name, obj)

    def names(self):
        return list(self._extensions)

    def __iter__(self):
        return iter(self._extensions.values())

    def __getitem__(self, name):
        return self._extensions[name]


class _Extension:
    def __init__(self, name, obj):
        self.name = name
        self.obj = obj


def make_command(name, func, dist=None):
    """A cliff Command class running ``func(client, parsed_args)``.

    A list or show function returns ``(columns, rows)``; it may return
    ``(columns, rows, exit_code)`` to end with another code than 0 after
    its output (some of several items failed). ``dist``: the distribution
    of a third-party plugin, named in the command's help.
    """
    kind = getattr(func, "output", None)
    # cliff's Lister, ShowOne or Command: the methods below call the one chosen
    base: type[Any]
    if kind == "list":
        from cliff.lister import Lister as base
    elif kind == "show":
        from cliff.show import ShowOne as base
    else:
        from cliff.command import Command as base

    def __init__(self, app, app_args):
        # no cmd_name, so cliff (which passes one only to a constructor
        # taking it) looks for no command hooks: a stevedore scan of
        # "<namespace>.<command>" entry points on every run, and occli's
        # command manager has no namespace, so there are none to find
        base.__init__(self, app, app_args)

    def get_epilog(self):
        # cliff's own asks importlib.metadata.packages_distributions(), a
        # scan of every installed distribution's file list, on every run
        if dist:
            return "This command is provided by the %s plugin.\n\n%s" % (dist, GLOBAL_OPTIONS_HINT)
        return GLOBAL_OPTIONS_HINT

    def _load_formatter_plugins(self):
        # cliff's hook for its tests, private: tests/unit/test_cliff_contract.py
        return Formatters(LIST_FORMATTERS if kind == "list" else SHOW_FORMATTERS)

    def get_parser(self, prog_name):
        parser = base.get_parser(self, prog_name)
        parser.formatter_class = _help_formatter(parser.formatter_class)
        one_line_errors(parser)
        for args, kwargs in getattr(func, "arguments", ()):
            parser.add_argument(*args, **kwargs)
        return parser

    def take_action(self, parsed_args):
        from occli import exceptions
        from occli import process

        client = self.app.client if getattr(func, "needs_client", True) else None
        process.usual_collections()  # start-up done: the command's own work begins
        parsed_args._stdout = self.app.stdout
        parsed_args._stderr = self.app.stderr
        try:
            result = func(client, parsed_args)
        except exceptions.CommandError as exc:
            exc.rename(getattr(func, "option_names", {}))
            raise
        if kind in ("list", "show") and len(result) == 3:
            *result, self.exit_code = result
            result = tuple(result)
        return result

    def run(self, parsed_args):
        self.exit_code = 0
        try:
            code = base.run(self, parsed_args)
        except Exception as exc:
            better = _connect_failure(self.app, exc)
            if better is None:
                raise
            raise better from exc
        return code or self.exit_code

    def produce_output(self, parsed_args, column_names, data):
        formatter = getattr(parsed_args, "formatter", None)
        if formatter in _RAW_FORMATTERS:
            from occli.columns import printable_cell
            from occli.columns import text_cell

            cell = text_cell if formatter in _TEXT_FORMATTERS else printable_cell
            column_names = tuple(printable_cell(c) for c in column_names)
            if kind == "list":
                data = (tuple(map(cell, row)) for row in data)
            else:
                data = tuple(cell(v) for v in data)
        wanted = getattr(parsed_args, "columns", None)
        if wanted and not (
            {_column_key(c) for c in wanted} & {_column_key(c) for c in column_names}
        ):
            from occli import exceptions

            raise exceptions.ValidationError(
                "-c/--column: no column named %s; the columns are: %s."
                % (", ".join(map(repr, wanted)), ", ".join(column_names))
            )
        return base.produce_output(self, parsed_args, column_names, data)

    attrs = {
        "__doc__": func.__doc__ or name,
        "__module__": func.__module__,
        "get_parser": get_parser,
        "take_action": take_action,
        "do_function": func,
        "__init__": __init__,
        "get_epilog": get_epilog,
    }
    attrs["run"] = run
    if kind in ("list", "show"):
        attrs.update(
            produce_output=produce_output, _load_formatter_plugins=_load_formatter_plugins
        )
    return type("Cmd_" + name.replace(" ", "_"), (base,), attrs)


def _column_key(name):
    """A column name as ``-c`` matches it: cliff's normalisation (its
    private ``DisplayCommandBase._normalize_column_name``), ``Server Name``
    for ``server_name``."""
    return name.lower().strip().replace(" ", "_")


def one_line_errors(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """``parser`` reporting a usage error in one line with no secret in it
    (:func:`_usage_error`), the words it does not recognise included."""
    parser.error = lambda message: _usage_error(parser, message)  # type: ignore[method-assign]
    parser.parse_args = lambda args=None, namespace=None: (  # type: ignore[method-assign]
        _parse_args(parser, args, namespace)
    )
    return parser


def _parse_args(parser, args, namespace):
    """argparse's ``parse_args``, the words it does not recognise shown as
    :func:`occli.redaction.redact_args` shows them (``--pasword ***``),
    and the option closest to an unknown one named in any usage error
    (:func:`closest_option`: ``--flavour`` ahead of a missing ``--flavor``)."""
    import sys

    args = list(sys.argv[1:] if args is None else args)
    typo = closest_option(parser, args)
    if typo is not None:

        def error(message):
            if message.startswith("unrecognized arguments"):
                hint = "; did you mean %s?" % typo[1]
            else:
                hint = "; unrecognized %s: did you mean %s?" % typo
            _usage_error(parser, message + hint)

        parser.error = error  # type: ignore[method-assign]
    namespace, extra = parser.parse_known_args(args, namespace)
    if extra:
        from occli.redaction import redact_args

        parser.error("unrecognized arguments: %s" % " ".join(redact_args(extra)))
    return namespace


def closest_option(parser: argparse.ArgumentParser, args: list[str]) -> tuple[str, str] | None:
    """``(the first unknown --option in args, the option of parser closest
    to it)`` (difflib), or None: ``("--flavour", "--flavor")``. Nothing
    after ``--``; an abbreviation argparse takes is not unknown. difflib
    is imported only for an unknown option: every command line passes here."""
    known = [o for o in parser._option_string_actions if o.startswith("--")]
    for word in args:
        if word == "--":
            break
        flag = word.partition("=")[0]
        if not flag.startswith("--") or len(flag) < 3 or any(o.startswith(flag) for o in known):
            continue
        import difflib

        close = difflib.get_close_matches(flag, known, n=1)
        if close:
            return flag, close[0]
    return None


def _usage_error(parser, message):
    """argparse's error, in one line: no usage summary of the command's
    every option ahead of it (exit 2); no secret in it, no terminal
    control (:func:`occli.redaction.redact_usage`)."""
    import sys

    from occli.redaction import redact_usage

    message = redact_usage(message)
    sys.stderr.write("%s: %s (see %s --help)\n" % (parser.prog, message, parser.prog))
    raise SystemExit(2)


def _connect_failure(app, exc):
    """A ConnectionFailed saying which URL could not be reached (and, for
    the local cloud, what to check), or None for any other error."""
    if not type(exc).__module__.startswith(("keystoneauth1", "requests")):
        return None
    from occli import exceptions

    client = getattr(app, "_client", None)
    return exceptions.from_connect_failure(exc, getattr(client, "cloud_config", None))


_FORMATTERS: dict[type, type] = {}


class _ParagraphFill(argparse.HelpFormatter):
    """Fills each paragraph of a description on its own, and keeps the
    lines of an example paragraph ("Example: occli …") as they are:
    argparse's own makes one paragraph of the whole text. A mixin: the
    formatter it is put in front of fills the other paragraphs."""

    def _fill_text(self, text, width, indent):
        import re

        paragraphs = re.split(r"\n\s*\n", text.strip())
        filled = []
        for paragraph in paragraphs:
            if paragraph.lstrip().startswith(("Example", "occli ")):
                filled.append("\n".join(indent + line.rstrip() for line in paragraph.splitlines()))
            else:
                filled.append(super()._fill_text(paragraph, width, indent))
        return "\n\n".join(filled)


def _help_formatter(cls):
    """``cls`` with :class:`_ParagraphFill` in front of it."""
    if cls not in _FORMATTERS:
        _FORMATTERS[cls] = type("HelpFormatter", (_ParagraphFill, cls), {})
    return _FORMATTERS[cls]
