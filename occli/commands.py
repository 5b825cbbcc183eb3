"""Adapt ``do_*`` functions into cliff commands.

``do_server_create(client, args)`` becomes ``occli server create``: its
``@utils.arg`` declarations build the parser, ``@utils.output`` chooses a
cliff Lister or ShowOne (and so the ``-f/-c`` formatter options), and its
docstring is the help. Built-in and plugin commands go through this one
adapter.
"""


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
        client = self.app.client if getattr(func, "needs_client", True) else None
        return func(client, parsed_args)

    attrs = {
        "__doc__": func.__doc__ or name,
        "__module__": func.__module__,
        "get_parser": get_parser,
        "take_action": take_action,
        "do_function": func,
    }
    return type("Cmd_" + name.replace(" ", "_"), (base,), attrs)
