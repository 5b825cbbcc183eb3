"""Adapt ``do_*`` functions into cliff commands.

``do_server_create(client, args)`` becomes ``occli server create``: its
``@utils.arg`` declarations build the parser, ``@utils.output`` chooses a
cliff Lister or ShowOne (and so the ``-f/-c`` formatter options), and its
docstring is the help. The function writes through the app's streams
(``utils.stdout(args)``, ``utils.stderr(args)``), and errors naming SDK
parameters name the command's options instead (``@utils.option_names``).
Built-in and plugin commands go through this one adapter.
"""

# cliff's value, shell and csv formatters print ``str(machine_readable())``:
# a Python repr for dict and list cells. occli gives them JSON instead.
_TEXT_FORMATTERS = ("value", "shell", "csv")
# Formatters printing cells as they are: control characters in a name (an
# ANSI escape sequence) must not reach the terminal. json and yaml escape
# them already.
_RAW_FORMATTERS = _TEXT_FORMATTERS + ("table",)


class LazyCommand:
    """Entry-point-like object for cliff's CommandManager: builds on load()."""

    def __init__(self, name, loader):
        self.name = name
        self._loader = loader
        self._cls = None

    @property
    def value(self):
        return self.name

    def load(self):
        if self._cls is None:
            self._cls = make_command(self.name, self._loader())
        return self._cls


def make_command(name, func):
    """A cliff Command class running ``func(client, parsed_args)``."""
    kind = getattr(func, "output", None)
    if kind == "list":
        from cliff.lister import Lister as base
    elif kind == "show":
        from cliff.show import ShowOne as base
    else:
        from cliff.command import Command as base

    def get_parser(self, prog_name):
        parser = base.get_parser(self, prog_name)
        for args, kwargs in getattr(func, "arguments", ()):
            parser.add_argument(*args, **kwargs)
        return parser

    def take_action(self, parsed_args):
        from occli import exceptions

        client = self.app.client if getattr(func, "needs_client", True) else None
        parsed_args._stdout = self.app.stdout
        parsed_args._stderr = self.app.stderr
        try:
            return func(client, parsed_args)
        except exceptions.CommandError as exc:
            exc.rename(getattr(func, "option_names", {}))
            raise

    def produce_output(self, parsed_args, column_names, data):
        formatter = getattr(parsed_args, "formatter", None)
        if formatter in _RAW_FORMATTERS:
            from occli.columns import printable_cell

            if formatter in _TEXT_FORMATTERS:
                def cell(value):
                    return printable_cell(_as_text(value))
            else:
                cell = printable_cell
            column_names = tuple(printable_cell(c) for c in column_names)
            if kind == "list":
                data = (tuple(cell(v) for v in row) for row in data)
            else:
                data = tuple(cell(v) for v in data)
        return base.produce_output(self, parsed_args, column_names, data)

    attrs = {
        "__doc__": func.__doc__ or name,
        "__module__": func.__module__,
        "get_parser": get_parser,
        "take_action": take_action,
        "do_function": func,
    }
    if kind in ("list", "show"):
        attrs["produce_output"] = produce_output
    return type("Cmd_" + name.replace(" ", "_"), (base,), attrs)


def _as_text(value):
    """A cell for a text formatter: dicts and lists as JSON, never a repr."""
    from cliff import columns

    if isinstance(value, columns.FormattableColumn):
        value = value.machine_readable()
    if isinstance(value, (dict, list, tuple)):
        import json

        return json.dumps(value, ensure_ascii=False, default=str)
    return value
