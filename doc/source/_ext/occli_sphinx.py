"""Sphinx glue for occli's documentation (not part of the occli package).

``autoprogram-cliff``
    cliff's own directive (:mod:`cliff.sphinxext`), taught one namespace more:
    ``.. autoprogram-cliff:: occli.commands`` documents the commands of
    occli's plugin registry, built the way ``occli`` builds its command
    manager (:class:`occli.cliff_adapter.LazyCommand` over
    :class:`occli.plugins.Registry`), plus cliff's ``help`` and ``complete``.
    Only built-in commands (those the ``occli`` distribution announces) are
    documented, whatever third-party plugins or ``OCCLI_PLUGIN_DIRS`` the
    building environment has, and the registry is built afresh in a
    temporary directory: the user's plugin index is neither read nor
    written. ``:command:`` takes a glob (``server *``); every other
    namespace, and an application class (``occli.shell.OcCLI``: the global
    options), is handled by cliff unchanged.

``occli-managers``
    A table of the :class:`occli.Client` attributes holding the built-in
    managers (``client.servers`` …), from ``Client.builtin_managers()``.

autodoc
    A manager or resource class of ``occli.v2`` without a docstring of its
    own is described by what it is (its resources, service and client
    attribute), not by the docstring autodoc would inherit from
    :class:`occli.base.Manager` or :class:`occli.base.Resource`.

``occli-argparse``
    ``.. occli-argparse:: occli.localcloud.cli:build_parser`` documents a
    plain argparse parser and each of its sub-commands, in the same layout
    as ``autoprogram-cliff``. ``%(default)s`` is expanded, and the user data
    directory of the machine building the docs is written as
    ``<user data dir>``.
"""

import argparse
import functools
import importlib
import re
import tempfile

from cliff import sphinxext
from docutils import nodes, statemachine
from docutils.parsers import rst

#: The namespace ``autoprogram-cliff`` takes for occli's commands.
OCCLI_NAMESPACE = "occli.commands"


@functools.cache
def builtin_commands():
    """``{command name: do_* function loader}`` of the built-in plugins."""
    from occli import plugins

    with tempfile.TemporaryDirectory(prefix="occli-docs-") as cache_dir:
        registry = plugins.Registry.build((), cache_dir=cache_dir)
    return {
        name: functools.partial(registry.command, name)
        for name in registry.command_names()
        if registry.plugins[registry.commands[name]].builtin
    }


def command_manager():
    """occli's cliff CommandManager holding the built-in commands only."""
    from occli import cliff_adapter, shell

    manager = shell.OcCLI().command_manager  # cliff's help and complete
    for name, loader in builtin_commands().items():
        manager.commands[name] = cliff_adapter.LazyCommand(name, loader)
    return manager


def plain_text(text):
    """``text`` as reStructuredText showing it verbatim (``*.py``, ``a|b``)."""
    return re.sub(r"([\\`*_|\[\]])", r"\\\1", text)


class AutoprogramCliff(sphinxext.AutoprogramCliffDirective):
    """cliff's directive, also knowing the ``occli.commands`` namespace.

    An option's help is plain text, as ``--help`` prints it (a command's
    description, its docstring, stays reStructuredText).
    """

    def _drop_ignored_options(self, parser, ignored_opts):
        super()._drop_ignored_options(parser, ignored_opts)
        for action in parser._actions:
            if action.help and action.help != argparse.SUPPRESS:
                action.help = plain_text(action.help)

    def _load_commands(self):
        if self.arguments[0] != OCCLI_NAMESPACE:
            return super()._load_commands()
        import fnmatch

        manager = command_manager()
        pattern = self.options.get("command")
        names = [
            name for name in manager.commands if not pattern or fnmatch.fnmatch(name, pattern)
        ]
        if not names:
            raise self.error('No occli command matches "%s"' % pattern)
        return {name: self._load_command(manager, name) for name in names}

    def _generate_app_node(self, app, application_name):
        # the one-line description of the App is the page's own first line
        app.parser.description = None
        return super()._generate_app_node(app, application_name)


def format_usage(parser):
    """cliff's usage lines of ``parser``, a ``<key=value>`` metavar kept
    whole: cliff's regular expression cuts it at the ``=`` (``<key
    =value>``), and a pasted synopsis would then be two words."""
    lines = []
    for line in _cliff_format_usage(parser):
        if lines and line.lstrip().startswith("="):
            lines[-1] += line.lstrip()
        else:
            lines.append(re.sub(r"(<[^<>\s]*) (=[^<>\s]*>)", r"\1\2", line))
    return lines


_cliff_format_usage = sphinxext._format_usage


def man_page_fixups(app, doctree, docname):
    """Manual pages only (the man builder inlines every toctree of the page):

    * a section whose first subsection has its title (a toctree inlining
      configuration.rst into the section ``Configuration``) becomes one
      section, not ``CONFIGURATION`` then a ``Configuration`` subsection;
    * a link to another page or object is just its text: a manual page has
      nowhere to link to (docutils 0.22's writer would print the target as
      ``<#occli.client.Client>``);
    * no hyphenation (``.nh``, and ``HY`` 0, which each example's ``.EE``
      restores): man would break ``local-admin`` in a sentence's example as
      ``lo‐`` / ``cal-admin``, with a hyphen (U+2010) a pasted line keeps.
    """
    if app.builder.name != "man":
        return
    if docname in {page[0] for page in app.config.man_pages}:
        doctree.insert(0, nodes.raw("", "\n.nh\n.nr HY 0\n", format="manpage"))
    for section in list(doctree.findall(nodes.section)):
        title = section.next_node(nodes.title)
        inner = [n for n in section.findall(nodes.section) if n is not section]
        if not inner or title is None or title.parent is not section:
            continue
        first_title = inner[0].next_node(nodes.title)
        if first_title is not None and first_title.astext().lower() == title.astext().lower():
            inner[0].replace_self(inner[0].children[1:])
    for ref in list(doctree.findall(nodes.reference)):
        if not ref.get("refuri", "").startswith(("http:", "https:", "mailto:")):
            ref.replace_self(nodes.inline("", "", *ref.children))


class OccliArgparse(rst.Directive):
    """Document ``module:function()``'s argparse parser and its sub-parsers."""

    required_arguments = 1

    def run(self):
        module_name, _, func_name = self.arguments[0].partition(":")
        try:
            parser = getattr(importlib.import_module(module_name), func_name)()
        except Exception as exc:
            raise self.error("cannot build parser %s: %s" % (self.arguments[0], exc)) from exc
        expanded = set()
        self._expand_help(parser, expanded)
        result = statemachine.StringList()
        source = "<%s>" % self.arguments[0]
        for line in sphinxext._format_parser(parser):
            result.append(line, source)
        container = nodes.section()
        self.state.nested_parse(result, 0, container)
        output = list(container.children)
        for name, sub in self._subparsers(parser):
            self._expand_help(sub, expanded)
            section = nodes.section(
                "",
                nodes.title(text=name),
                ids=[nodes.make_id(sub.prog)],
                names=[nodes.fully_normalize_name(sub.prog)],
            )
            lines = statemachine.StringList()
            for line in sphinxext._format_parser(sub):
                lines.append(line, source)
            self.state.nested_parse(lines, 0, section)
            output.append(section)
        return output

    @staticmethod
    def _subparsers(parser):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                helps = {a.dest: a.help for a in action._choices_actions}
                for name, sub in action.choices.items():
                    if sub.description is None and helps.get(name):
                        sub.description = helps[name][:1].upper() + helps[name][1:] + "."
                    yield name, sub

    @staticmethod
    def _expand_help(parser, expanded):
        """Expand ``%(default)s`` once per action (sub-parsers share them)."""
        import platformdirs

        data_dir = platformdirs.user_data_dir()
        formatter = parser._get_formatter()
        for action in list(parser._actions):
            if isinstance(action, argparse._HelpAction):
                parser._actions.remove(action)  # as --help in autoprogram-cliff
                continue
            if isinstance(action, argparse._SubParsersAction) and not action.help:
                action.help = "One of: %s." % ", ".join(action.choices)
            if id(action) in expanded:
                continue
            expanded.add(id(action))
            if action.help and action.help != argparse.SUPPRESS:
                text = formatter._expand_help(action)
                action.help = plain_text(text.replace(data_dir, "<user data dir>"))


class OccliManagers(rst.Directive):
    """The Client's built-in manager attributes and their classes."""

    def run(self):
        from occli.client import Client

        lines = [".. list-table::", "   :header-rows: 1", "", "   * - Attribute", "     - Manager"]
        for name, path in sorted(Client.builtin_managers().items()):
            lines += ["   * - ``client.%s``" % name, "     - :class:`%s`" % path.replace(":", ".")]
        result = statemachine.StringList(lines, "<Client.builtin_managers>")
        container = nodes.container()
        self.state.nested_parse(result, 0, container)
        return container.children


def describe_class(app, what, name, obj, options, lines):
    """autodoc-process-docstring: a docstring for occli.v2's bare classes."""
    if what != "class" or not name.startswith("occli.v2.") or obj.__dict__.get("__doc__"):
        return
    from occli import base
    from occli.client import Client

    if issubclass(obj, base.Manager):
        resource = obj.resource_class
        text = "Manager of :class:`~%s.%s` resources" % (
            resource.__module__,
            resource.__qualname__,
        )
        if obj.service_type:
            text += " (service type ``%s``)" % obj.service_type
        path = "%s:%s" % (obj.__module__, obj.__qualname__)
        attrs = [a for a, p in Client.builtin_managers().items() if p == path]
        if attrs:
            text += "; ``client.%s``" % attrs[0]
    elif issubclass(obj, base.Resource):
        text = (
            "A resource as the API returns it: attribute access to its "
            "body (see :class:`~occli.base.Resource`)."
        )
    else:
        return
    lines[:] = [text.rstrip(".") + ".", ""]


def setup(app):
    app.setup_extension("cliff.sphinxext")
    sphinxext._format_usage = format_usage  # what cliff's _format_parser calls
    app.add_directive("autoprogram-cliff", AutoprogramCliff, override=True)
    app.add_directive("occli-argparse", OccliArgparse)
    app.add_directive("occli-managers", OccliManagers)
    app.connect("autodoc-process-docstring", describe_class)
    app.connect("doctree-resolved", man_page_fixups)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
