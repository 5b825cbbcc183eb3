"""The ``occli`` command: a cliff App over the ``do_*`` command modules.

Arguments are parsed before anything authenticates: the Client (and with
it keystoneauth1) is created on first use inside a command, so usage errors
cost no token. Exit codes: 0 success, 1 API or runtime error (one line on
stderr), 2 usage error (argparse's, or an
:class:`occli.exceptions.ValidationError`), 130 on Ctrl-C.
"""

import argparse
import importlib.metadata
import logging
import os
import sys
from typing import cast

from cliff import app
from cliff import commandmanager
from cliff import help

from occli import __version__
from occli import redaction

LOG = logging.getLogger("occli")


class GlobalOptionParser(argparse.ArgumentParser):
    """Parses global options only in front of the command name.

    cliff hands the whole command line to the global parser, which would
    take a command's own ``--timeout`` or ``--help`` as the global one.
    """

    def parse_known_args(self, args=None, namespace=None):
        args = list(sys.argv[1:] if args is None else args)
        split = self.command_index(args)
        namespace, extra = super().parse_known_args(args[:split], namespace)
        return namespace, extra + args[split:]

    def error(self, message):
        """A usage error in one line, no secret in it (exit 2), as a
        command's (:func:`occli.cliff_adapter.one_line_errors`)."""
        self.exit(2, "occli: %s (see occli --help)\n" % redaction.redact_usage(message))

    def command_index(self, args):
        """Index of the first word that is not a global option or its value."""
        i = 0
        while i < len(args):
            word = args[i]
            if not word.startswith("-") or word == "-":
                return i
            action = self._option_string_actions.get(word.partition("=")[0])
            i += 1
            if action is not None and "=" not in word and action.nargs != 0:
                i += 1
        return len(args)


class RedactingFormatter(logging.Formatter):
    """Log lines with secrets masked and terminal controls escaped: an
    error may quote what a server or another user chose (a name holding
    an escape sequence or a bidirectional override)."""

    def format(self, record):
        from occli.columns import printable

        return printable(redaction.redact(super().format(record)))


class PrivateFileHandler(logging.FileHandler):
    """The ``--log-file`` handler: the file created 0600, and refused when
    others could read it (:func:`occli.private_files.open_append`)."""

    def _open(self):
        from occli import private_files

        return private_files.open_append(self.baseFilename, "log file", self.encoding)


def _library_warnings(record):
    """Drop keystoneauth's warnings from the console (they precede the error
    that says the same, e.g. "Failed to discover available identity
    versions" before "Unable to establish connection", or announce a retry;
    ``occli.http`` is the logger occli gives keystoneauth's adapters)."""
    return not (
        record.name.startswith(("keystoneauth", "occli.http")) and record.levelno < logging.ERROR
    )


class HelpAction(argparse.Action):
    """``occli --help``: the global options, then every command with its
    one-line description.

    cliff's own action imports every command to read its docstring and
    scans every installed distribution to name the plugin providing it;
    the descriptions and distributions here come from the plugin
    registry's index, so no command module is imported.
    """

    def __call__(self, parser, namespace, values, option_string=None):
        import autopage.argparse

        app = self.default
        pager = autopage.argparse.help_pager(app.stdout)
        color = pager.to_terminal()
        autopage.argparse.use_color_for_parser(parser, color)
        with pager as out:
            parser.print_help(out)
            title_hl = ("\033[4m", "\033[0m") if color else ("", "")
            out.write("\n{}Commands{}:\n".format(*title_hl))
            for name, entry in sorted(app.command_manager):
                summary = getattr(entry, "summary", None)
                if summary is None:
                    try:
                        summary = _summary_of(entry.load())
                    except Exception:  # noqa: BLE001 - as cliff: listed, broken
                        out.write("Could not load %r\n" % (entry,))
                        if getattr(namespace, "debug", False):
                            import traceback

                            traceback.print_exc(file=out)
                        continue
                dist = getattr(entry, "dist", None)
                dist_info = " (%s)" % dist if dist else ""
                if color and dist_info:
                    dist_info = "\033[90m%s\033[39m" % dist_info
                padded = "%-13s" % name
                if color:
                    padded = "\033[36m%s\033[39m" % padded
                out.write("  %s  %s%s\n" % (padded, summary, dist_info))
        raise help.HelpExit()


def _summary_of(command_class):
    import inspect

    return (inspect.getdoc(command_class) or "").split("\n")[0].rstrip(".")


class HelpCommand(help.HelpCommand):
    """print detailed help for another command"""

    def __init__(self, app, app_args):
        # no cmd_name: no stevedore scan for command hooks (occli has none)
        super().__init__(app, app_args)

    def get_epilog(self):
        return ""

    def get_parser(self, prog_name):
        from occli import cliff_adapter

        return cliff_adapter.one_line_errors(super().get_parser(prog_name))

    def take_action(self, parsed_args):
        if parsed_args.cmd:
            return super().take_action(parsed_args)
        action = HelpAction([], dest=argparse.SUPPRESS, default=self.app)
        action(self.app.parser, self.app.options, None, None)
        return 0


class OcCLI(app.App):
    """occli: OpenStack compute, images, networks, volumes, identity, objects, stacks."""

    NAME = "occli"
    CONSOLE_MESSAGE_FORMAT = "%(message)s"
    parser: GlobalOptionParser  # what build_option_parser makes

    def __init__(self):
        super().__init__(
            description=(OcCLI.__doc__ or "").partition("\n")[0],
            version=__version__,
            command_manager=commandmanager.CommandManager(None),
            deferred_help=False,
        )
        self.command_manager.add_command("help", HelpCommand)
        # an entry point (imported when ``complete`` runs), as cliff's own commands are
        self.command_manager.commands["complete"] = importlib.metadata.EntryPoint(
            "complete", "occli.completion:CompleteCommand", "occli"
        )
        self._client = None
        self._interacted = False
        self._error = None

    def run(self, argv):
        # --plugin-dir may follow the command too: its commands are needed
        # to find the command
        self._register_commands(plugin_dirs_of(argv[: _end_of_options(argv)]))
        code = super().run(argv)
        # cliff reports 1 after a normal end of the interactive shell
        return 0 if self._interacted else code

    def interact(self):
        from occli import process

        process.usual_collections()  # a long session
        if self.interactive_app_factory is None:
            self.interactive_app_factory = _interactive_app()
        super().interact()
        self._interacted = True

    def run_subcommand(self, argv):
        """Run a command; ``occli server --help`` lists the server commands.

        Global options among and after the command words are the app's,
        as OSC takes them (:meth:`_take_global_options`). cliff logs a
        failing command's error and returns 1; an occli error chooses its
        own exit code (2 for a ValidationError).
        """
        if not self.interactive_mode:
            argv = self._take_global_options(argv)
        try:
            self.command_manager.find_command(argv)
        except ValueError:
            words = command_words(argv)
            group = " ".join(words)
            listed = words and any(name.startswith(group) for name, _ in self.command_manager)
            if listed and {"-h", "--help"} & set(argv):
                return super().run_subcommand(["help"] + words)
            return self._unknown_command(argv)
        from occli import exceptions

        self._error = None
        code = super().run_subcommand(argv)
        if code == 1 and isinstance(self._error, exceptions.ClientException):
            return self._error.exit_code
        return code

    def _take_global_options(self, argv: list[str]) -> list[str]:
        """``argv`` without the global options among and after its command
        words, which are parsed into ``self.options`` (logging configured
        again); an option the command defines stays the command's
        (:mod:`occli.command_line`)."""
        actions = self.parser._option_string_actions
        if not any(w[:2] in actions or w.partition("=")[0] in actions for w in argv):
            return argv  # the usual line: nothing to load or parse
        from occli import command_line

        positions = command_line.command_positions(argv, actions)
        try:
            factory, name, _ = self.command_manager.find_command([argv[i] for i in positions])
        except ValueError:  # named for what it is: the words only
            return command_line.take(argv, actions, words_only=True)[0]
        end = positions[len(name.split()) - 1] + 1
        words, taken = command_line.take(argv[:end], actions)
        parser = factory(self, self.options).get_parser("%s %s" % (self.NAME, name))
        owned = frozenset(parser._option_string_actions)
        rest, more = command_line.take(argv[end:], actions, owned)
        if taken or more:
            self.parser.parse_known_args(taken + more, self.options)
            self.configure_logging()
        return words + rest

    def _unknown_command(self, argv: list[str]) -> int:
        """Usage error (2) for words naming no command: one line on stderr
        naming the first wrong word and the commands closest to it (what an
        ambiguous abbreviation stands for, or difflib's close matches; at
        most five, closest first: :func:`.command_line.suggestions`).

        cliff's own echoes the whole command line on stdout, ``--password
        P`` included, and suggests every command as close as the closest
        (85 for ``server lsit``). Only command words are named here; an
        unrecognised global option is shown as :func:`.redaction.redact_args` shows it.
        """
        from occli import command_line
        from occli.columns import printable

        words = command_words(argv)
        if not words:
            i = 0
            while i < len(argv) and argv[i].startswith("-"):
                i += 1 if "=" in argv[i] else 2
            self.stderr.write(
                "occli: unrecognized arguments: %s (see occli --help)\n"
                % printable(" ".join(redaction.redact_args(argv[:i])))
            )
            return 2
        names = [name.split() for name, _ in self.command_manager]
        known = 0
        while known < len(words) and any(n[: known + 1] == words[: known + 1] for n in names):
            known += 1
        if known == len(words):  # a group: "occli server"
            group = printable(" ".join(words))
            self.stderr.write(
                "occli: '%s' is not an occli command. See 'occli %s --help'.\n" % (group, group)
            )
            return 2
        wrong = words[: known + 1]
        close = command_line.suggestions(wrong, names)
        hint = " Did you mean %s?" % ", ".join("'%s'" % c for c in close) if close else ""
        self.stderr.write(
            "occli: '%s' is not an occli command.%s See 'occli --help'.\n"
            % (printable(" ".join(wrong)), printable(hint))
        )
        return 2

    def _register_commands(self, plugin_dirs=()):
        """Add every command of the plugin registry, imported on first use.

        The names come from the registry's index: only the command that runs
        (or ``help``/``complete``, which describe all) imports its module.
        """
        from occli import cliff_adapter
        from occli import plugins

        for directory in plugins.default_plugin_dirs(plugin_dirs):
            if not os.path.isdir(directory):
                self.stderr.write(
                    "occli: warning: plugin directory %s does not exist (ignored)\n" % directory
                )
        manager = self.command_manager
        table = cliff_adapter.CommandTable(plugins.registry(plugin_dirs), manager.commands)
        # what cliff uses of an entry point: name, value, load();
        # add_command would import the module (tests/unit/test_cliff_contract.py)
        manager.commands = cast("dict[str, commandmanager.EntryPointT]", table)

    def build_option_parser(self, description, version, argparse_kwargs=None):
        parser = GlobalOptionParser(
            description=description, add_help=False, allow_abbrev=False, **(argparse_kwargs or {})
        )
        parser.add_argument("--version", action="version", version="%s %s" % (self.NAME, version))
        verbosity = parser.add_mutually_exclusive_group()
        verbosity.add_argument(
            "-v",
            "--verbose",
            action="count",
            dest="verbose_level",
            default=self.DEFAULT_VERBOSE_LEVEL,
            help="More output on stderr; repeatable.",
        )
        verbosity.add_argument(
            "-q",
            "--quiet",
            action="store_const",
            dest="verbose_level",
            const=0,
            help="Only errors on stderr.",
        )
        parser.add_argument(
            "--log-file", metavar="<file>", help="Also write the log to this file."
        )
        parser.add_argument(
            "-h",
            "--help",
            action=HelpAction,
            nargs=0,
            default=self,
            help="Show this help and exit.",
        )
        parser.add_argument(
            "--debug",
            action="store_true",
            help="Log requests and responses (secrets masked) and show tracebacks on errors.",
        )
        add_global_options(parser)
        add_plugin_options(parser)
        return parser

    def configure_logging(self):
        root = logging.getLogger()
        for handler in list(root.handlers):
            root.removeHandler(handler)
        handler = logging.StreamHandler(self.stderr)
        handler.setFormatter(RedactingFormatter(self.CONSOLE_MESSAGE_FORMAT))
        root.addHandler(handler)
        if self.options.debug:
            level = logging.DEBUG
        else:
            level = {0: logging.ERROR, 1: logging.WARNING}.get(
                self.options.verbose_level, logging.INFO
            )
        root.setLevel(level)
        if level > logging.INFO:
            handler.addFilter(_library_warnings)
        if self.options.log_file:
            # the file gets the whole (redacted) debug log; console unchanged
            log_file = PrivateFileHandler(self.options.log_file)
            log_file.setFormatter(
                RedactingFormatter("%(asctime)s %(levelname)s %(name)s %(message)s")
            )
            root.addHandler(log_file)
            handler.setLevel(level)
            root.setLevel(logging.DEBUG)
        # stevedore and cliff chatter adds nothing for a user
        logging.getLogger("stevedore").setLevel(logging.WARNING)

    @property
    def client(self):
        """The Client, created (and authenticated) on first use."""
        if self._client is None:
            from occli.client import Client

            self._client = Client(
                use_cache=not self.options.no_cache,
                collect_timing=self.options.timing,
                **client_options(self.options),
            )
        return self._client

    def clean_up(self, cmd, result, err):
        self._error = err
        if self._client is None:
            return
        if not self.options.no_cache:
            try:
                self._client.save_cache()
            except Exception as exc:  # noqa: BLE001 - never fails a command
                LOG.debug("token cache not saved: %s", exc)
        if self.options.timing:
            self._print_timing()

    def _print_timing(self):
        timings = self.client.session.get_timings()
        total = 0.0
        self.stderr.write("Timing:\n")
        for t in timings:
            seconds = t.elapsed.total_seconds()
            total += seconds
            self.stderr.write(
                redaction.redact("  %-6s %-60s %.3fs\n" % (t.method, t.url, seconds))
            )
        self.stderr.write("  total  %d request(s) %.3fs\n" % (len(timings), total))


_GLOBAL_OPTIONS = (
    # (flag, dest, help)
    ("--os-cloud", "cloud", "Named cloud from clouds.yaml (env OS_CLOUD)."),
    ("--os-auth-url", "auth_url", "Identity endpoint (env OS_AUTH_URL)."),
    (
        "--os-auth-type",
        "auth_type",
        "keystoneauth1 auth plugin: password, token, v3applicationcredential, … "
        "(env OS_AUTH_TYPE).",
    ),
    ("--os-username", "username", "User name (env OS_USERNAME)."),
    ("--os-user-id", "user_id", "User ID (env OS_USER_ID)."),
    (
        "--os-password",
        "password",
        "Password (env OS_PASSWORD; prefer the environment or clouds.yaml: "
        "command lines show up in process listings).",
    ),
    ("--os-project-name", "project_name", "Project name (env OS_PROJECT_NAME)."),
    ("--os-project-id", "project_id", "Project ID (env OS_PROJECT_ID)."),
    ("--os-user-domain-name", "user_domain_name", "User's domain name (env OS_USER_DOMAIN_NAME)."),
    ("--os-user-domain-id", "user_domain_id", "User's domain ID (env OS_USER_DOMAIN_ID)."),
    (
        "--os-project-domain-name",
        "project_domain_name",
        "Project's domain name (env OS_PROJECT_DOMAIN_NAME).",
    ),
    (
        "--os-project-domain-id",
        "project_domain_id",
        "Project's domain ID (env OS_PROJECT_DOMAIN_ID).",
    ),
    ("--os-domain-name", "domain_name", "Domain to scope to (env OS_DOMAIN_NAME)."),
    ("--os-domain-id", "domain_id", "Domain ID to scope to (env OS_DOMAIN_ID)."),
    (
        "--os-system-scope",
        "system_scope",
        "System scope, e.g. all (env OS_SYSTEM_SCOPE).",
    ),
    ("--os-trust-id", "trust_id", "Trust to scope to (env OS_TRUST_ID)."),
    ("--os-token", "token", "Existing token (env OS_TOKEN)."),
    (
        "--os-application-credential-id",
        "application_credential_id",
        "Application credential ID (env OS_APPLICATION_CREDENTIAL_ID).",
    ),
    (
        "--os-application-credential-name",
        "application_credential_name",
        "Application credential name (env OS_APPLICATION_CREDENTIAL_NAME).",
    ),
    (
        "--os-application-credential-secret",
        "application_credential_secret",
        "Application credential secret (env OS_APPLICATION_CREDENTIAL_SECRET).",
    ),
    ("--os-region-name", "region_name", "Region (env OS_REGION_NAME)."),
    (
        "--os-interface",
        "interface",
        "Endpoint interface: public, internal or admin (env OS_INTERFACE).",
    ),
    ("--os-cacert", "cacert", "CA bundle to verify TLS (env OS_CACERT)."),
    ("--os-cert", "cert", "Client certificate (env OS_CERT)."),
    ("--os-key", "key", "Client certificate key (env OS_KEY)."),
    (
        "--os-compute-api-version",
        "compute_api_version",
        "Compute microversion, e.g. 2.56 or latest (env OS_COMPUTE_API_VERSION); "
        "default: the highest both occli and the cloud support.",
    ),
)


def _plugin_options():
    """The ``--os-<option>`` options of the auth plugins (as OSC generates
    them from keystoneauth1's loaders, here from occli's static table) that
    are not among the global options: ``[(flag, dest, help)]``.

    The ``tenant_*`` options are left out, as OSC does: ``--os-project-*``
    set them for the v2 plugins.
    """
    from occli import auth_options

    taken = {dest for _, dest, _ in _GLOBAL_OPTIONS}
    result = []
    for name, (text, _) in auth_options.OPTIONS.items():
        if name in taken or name.startswith("tenant_"):
            continue
        users = [p for p, names in auth_options.PLUGINS.items() if name in names]
        where = "auth type %s; " % ", ".join(users) if len(users) <= 4 else ""
        help_text = "%s (%senv %s)." % (text, where, auth_options.env_var(name))
        result.append((auth_options.flag(name), name, help_text))
    return result


_PLUGIN_OPTIONS = _plugin_options()

_CLIENT_KEYS = [dest for _, dest, _ in _GLOBAL_OPTIONS + tuple(_PLUGIN_OPTIONS)] + [
    "insecure",
    "api_timeout",
    "retries",
    "max_response_size",
    "command_timeout",
]


def _interactive_app():
    """cliff's interactive shell, minus cmd2 reading our argv as commands,
    with cliff's prompt: ``(occli)`` on a terminal, none from a pipe
    (cmd2's ``__init__`` sets its ``(Cmd)`` over the one cliff chose)."""
    from cliff import interactive

    class InteractiveApp(interactive.InteractiveApp):
        def __init__(self, parent_app, *args, **kwargs):
            argv, sys.argv = sys.argv, sys.argv[:1]
            try:
                super().__init__(parent_app, *args, **kwargs)
            finally:
                sys.argv = argv
            terminal = not hasattr(sys.stdin, "isatty") or sys.stdin.isatty()
            self.prompt = "(%s) " % parent_app.NAME if terminal else ""

    return InteractiveApp


def add_global_options(parser):
    group = parser.add_argument_group("authentication and connection")
    for flag, dest, text in _GLOBAL_OPTIONS:
        extra = {}
        if dest == "compute_api_version":
            # a per-invocation choice honoured even with a named cloud, as
            # OSC does (clouds.yaml's compute_api_version is the fallback)
            extra = {
                "type": _api_version,
                "default": os.environ.get("OS_COMPUTE_API_VERSION") or None,
            }
        group.add_argument(
            flag, dest=dest, metavar="<%s>" % dest.replace("_", "-"), help=text, **extra
        )
    plugin_group = parser.add_argument_group(
        "auth plugin options",
        "The options of keystoneauth1's auth plugins, for the --os-auth-type that uses them.",
    )
    for flag, dest, text in _PLUGIN_OPTIONS:
        plugin_group.add_argument(
            flag, dest=dest, metavar="<%s>" % dest.replace("_", "-"), help=text
        )
    group.add_argument(
        "--insecure",
        action="store_const",
        const=True,
        default=None,
        help="Do not verify TLS certificates (env OS_INSECURE).",
    )
    group.add_argument(
        "--timeout",
        dest="api_timeout",
        type=float,
        metavar="<seconds>",
        help="Timeout of each HTTP request, its whole answer included.",
    )
    group.add_argument(
        "--command-timeout",
        type=float,
        metavar="<seconds>",
        help="Stop the whole command (its requests, retries and --wait) once "
        "this many seconds have passed (env OCCLI_COMMAND_TIMEOUT).",
    )
    group.add_argument(
        "--max-response-size",
        metavar="<size>",
        help="Refuse an answer larger than this, as received or decompressed: "
        "bytes, or 512K, 64M, 1G (env OCCLI_MAX_RESPONSE_SIZE; default 64M).",
    )
    group.add_argument(
        "--retries",
        type=int,
        default=2,
        metavar="<n>",
        help="Retry idempotent requests this many times on "
        "connection failures and 502/503/504 (default 2; "
        "POST is never retried).",
    )
    group.add_argument(
        "--no-cache", action="store_true", help="Neither read nor write the token cache."
    )
    group.add_argument(
        "--timing", action="store_true", help="Print per-request timings on stderr at the end."
    )


def _api_version(text):
    """argparse type: ``latest`` or a microversion occli supports."""
    from occli import api_versions
    from occli import exceptions

    try:
        version = api_versions.APIVersion(text)
        if not version.is_latest:
            api_versions.negotiate(text, api_versions.MIN_VERSION, api_versions.MAX_VERSION)
    except exceptions.UnsupportedVersion as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def add_plugin_options(parser):
    parser.add_argument(
        "--plugin-dir",
        dest="plugin_dirs",
        action="append",
        default=[],
        metavar="<dir>",
        help="Also load plugin modules (*.py) from this directory; repeatable "
        "(env OCCLI_PLUGIN_DIRS, path-separated).",
    )


def plugin_dirs_of(global_args):
    """The ``--plugin-dir`` values among the global options, before parsing.

    Commands are registered first, since ``--help`` lists them while the
    global options are parsed.
    """
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False, exit_on_error=False)
    add_plugin_options(parser)
    try:
        known, _ = parser.parse_known_args(global_args)
    except argparse.ArgumentError:  # a bare --plugin-dir: cliff reports it
        return []
    return known.plugin_dirs


def _end_of_options(argv: list[str]) -> int:
    """Index of ``--`` in ``argv`` (what follows is the command's), or its length."""
    return argv.index("--") if "--" in argv else len(argv)


def command_words(argv: list[str]) -> list[str]:
    """The words of ``argv`` before its first option: where cliff looks for
    the command's name."""
    for i, word in enumerate(argv):
        if word.startswith("-"):
            return argv[:i]
    return list(argv)


def client_options(options):
    """The Client keyword arguments given on the command line."""
    return {
        k: getattr(options, k, None) for k in _CLIENT_KEYS if getattr(options, k, None) is not None
    }


def main(argv=None):
    """Run occli with ``argv`` (default ``sys.argv[1:]``); returns the exit code.

    The ``occli`` program is :func:`occli.program.main`, which ends the
    process itself; called here, nothing of the process is changed.
    """
    argv = sys.argv[1:] if argv is None else argv
    try:
        return OcCLI().run(list(argv))
    except KeyboardInterrupt:
        return 130
    except SystemExit as exc:
        # argparse usage errors (2), --help and --version (0)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)


if __name__ == "__main__":
    from occli import process

    process.defer_collections()  # what is left to import
    code = main()
    process.exit_now(code)
    sys.exit(code)
