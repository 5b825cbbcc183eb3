"""Helpers for writing ``do_*`` commands: argument decorators and parsers,
the app's streams and ``--wait`` options."""

import argparse
import sys

from occli import exceptions


def arg(*args, **kwargs):
    """Declare an argparse argument of a ``do_*`` command.

    Takes ``add_argument``'s arguments. Decorators apply bottom-up, so each
    one is inserted first to keep the order in which they are written.
    """

    def decorator(func):
        func.__dict__.setdefault("arguments", []).insert(0, (args, kwargs))
        return func

    return decorator


def output(kind):
    """Declare what a ``do_*`` command returns: ``"list"`` or ``"show"``.

    A list command returns ``(columns, rows)``, a show command
    ``(columns, values)``; commands without ``@output`` return nothing (or an
    exit code) and write what they print to :func:`stdout`.
    """
    if kind not in ("list", "show"):
        raise ValueError("output kind must be 'list' or 'show'")

    def decorator(func):
        func.output = kind
        return func

    return decorator


def option_names(**names):
    """Declare the options a ``do_*`` command gives as SDK parameters.

    ``@option_names(min_count="--min")``: an error of the manager naming
    ``min_count`` (see :class:`occli.exceptions.CommandError`) names
    ``--min`` instead.
    """

    def decorator(func):
        func.option_names = dict(getattr(func, "option_names", {}), **names)
        return func

    return decorator


def no_client(func):
    """Declare a ``do_*`` command that needs no cloud: it gets ``client=None``.

    Nothing is configured or authenticated for it (``plugin list``, local
    helpers).
    """
    func.needs_client = False
    return func


def stdout(args):
    """The stream a ``do_*`` command writes its output to: the app's
    stdout (sys.stdout for a function called on its own)."""
    return getattr(args, "_stdout", None) or sys.stdout


def stderr(args):
    """The app's stderr, as :func:`stdout`."""
    return getattr(args, "_stderr", None) or sys.stderr


def column_used(args, name):
    """Whether a list command's column ``name`` is shown or sorted on.

    With ``-c`` (matched as cliff matches it: case, spaces and
    underscores aside) only the columns given are shown, so a command
    may skip the requests that fill the others.
    """

    def normal(text):
        return text.lower().strip().replace(" ", "_")

    chosen = getattr(args, "columns", None)
    used = {normal(c) for c in (chosen or ())} | {
        normal(c) for c in getattr(args, "sort_columns", None) or ()
    }
    return not chosen or normal(name) in used


def wait_options(what, timeout=600):
    """Add ``--wait``, ``--wait-timeout`` and the hidden ``--wait-interval``
    to a ``do_*`` command (``what``: until when ``--wait`` waits)."""

    options = (
        (("--wait",), dict(action="store_true", help="Wait until %s." % what)),
        (
            ("--wait-timeout",),
            dict(
                type=seconds,
                default=timeout,
                metavar="<seconds>",
                help="Give up waiting after this many seconds (default %d)." % timeout,
            ),
        ),
        (("--wait-interval",), dict(type=seconds, default=2.0, help=argparse.SUPPRESS)),
    )

    def decorator(func):
        for args, kwargs in reversed(options):
            func = arg(*args, **kwargs)(func)
        return func

    return decorator


def wait_args(args):
    """The :mod:`occli.waiters` keyword arguments of a command's ``--wait``
    options: ``timeout``, ``interval`` and the app's stderr."""
    return {"timeout": args.wait_timeout, "interval": args.wait_interval, "stream": stderr(args)}


def arg_type(parse, name):
    """An argparse ``type=`` from ``parse(text)``: a CommandError it raises
    is a usage error (exit 2) naming ``name``."""

    def convert(text):
        try:
            return parse(text)
        except exceptions.CommandError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    convert.__name__ = name
    return convert


def key_value(option):
    """An argparse ``type=`` turning ``KEY=VALUE`` into ``(key, value)``."""

    def parse(text):
        return next(iter(parse_key_values([text], option).items()))

    return arg_type(parse, "KEY=VALUE")


def property_option(help, pairs=True):
    """Add ``--property <key=value>`` (repeatable, into ``args.properties``)
    to a ``do_*`` command. With ``pairs`` each is parsed by :func:`key_value`
    into ``(key, value)``; without, the texts are kept for the command to
    check with :func:`parse_key_values`."""
    kwargs = dict(dest="properties", action="append", default=[], metavar="<key=value>")
    if pairs:
        kwargs["type"] = key_value("--property")
    return arg("--property", help=help, **kwargs)


def parse_key_values(items, option="--property", max_length=None):
    """``["k=v", "k2="]`` → ``{"k": "v", "k2": ""}``; a malformed item is an error."""
    result = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise exceptions.ValidationError("%s expects KEY=VALUE, got %r." % (option, item))
        if max_length is not None:
            for part, what in ((key, "key"), (value, "value")):
                if len(part) > max_length:
                    raise exceptions.ValidationError(
                        "%s %s %r is longer than %d characters."
                        % (option, what, part[:40] + "…", max_length)
                    )
        result[key] = value
    return result


def parse_options(text, allowed, option):
    """Parse ``"k=v,k2=v2"`` (as ``--nic`` takes) restricted to ``allowed`` keys."""
    result = {}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or not key:
            raise exceptions.ValidationError(
                "%s expects comma-separated KEY=VALUE pairs, got %r." % (option, text)
            )
        if key not in allowed:
            raise exceptions.ValidationError(
                "%s: unknown key %r (expected one of: %s)."
                % (option, key, ", ".join(sorted(allowed)))
            )
        result[key] = value
    return result


class Switch(argparse.Action):
    """One of a pair of flags setting ``dest`` to ``const`` (``other``: the
    other flag's name); giving both flags is a usage error (exit 2), as with
    argparse's exclusive groups."""

    def __init__(self, option_strings, dest, other=None, **kwargs):
        kwargs["nargs"] = 0
        super().__init__(option_strings, dest, **kwargs)
        self.other = other

    def __call__(self, parser, namespace, values, option_string=None):
        current = getattr(namespace, self.dest, None)
        if current is not None and current != self.const:
            parser.error("argument %s: not allowed with argument %s" % (option_string, self.other))
        setattr(namespace, self.dest, self.const)


def int_at_least(minimum, too_small, name="integer"):
    """An argparse ``type=``: an integer of at least ``minimum``;
    ``too_small`` is the message (``%r`` the text) for a smaller one."""

    def convert(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%r is not an integer" % text) from None
        if value < minimum:
            raise argparse.ArgumentTypeError(too_small % text)
        return value

    convert.__name__ = name
    return convert


#: ``--limit``: -1 (everything) or 0 or more.
list_limit = int_at_least(-1, "%r: use -1 for all, or 0 or more", "limit")
#: sizes and counts that may be 0.
non_negative_int = int_at_least(0, "%r must be 0 or more", "size")
#: counts of at least one.
positive_int = int_at_least(1, "%r must be 1 or more")


def seconds(text):
    """argparse type for durations: a non-negative number of seconds."""

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number" % text) from None
    if value < 0:
        raise argparse.ArgumentTypeError("%r must not be negative" % text)
    return int(value) if value.is_integer() else value


#: ``--concurrency``: items acted on at a time by default, and at most
#: (keystoneauth1's connection pool keeps 10 connections per host).
DEFAULT_CONCURRENCY = 8
MAX_CONCURRENCY = 10


def concurrency(text):
    """argparse type of ``--concurrency``: 1 to MAX_CONCURRENCY."""

    value = positive_int(text)
    if value > MAX_CONCURRENCY:
        raise argparse.ArgumentTypeError("%r: at most %d" % (text, MAX_CONCURRENCY))
    return value


def concurrency_option(func):
    """Add ``--concurrency N`` to a ``do_*`` command acting on several
    items with :func:`for_each` (``args.concurrency``)."""
    return arg(
        "--concurrency",
        type=concurrency,
        default=DEFAULT_CONCURRENCY,
        metavar="<n>",
        help="Act on up to N items at a time (default %d, at most "
        "%d; 1: one after the other)." % (DEFAULT_CONCURRENCY, MAX_CONCURRENCY),
    )(func)


def for_each(items, action, what, label=str, concurrency=1):
    """Run ``action(item)`` for every item; report each failure on stderr.

    Each failure is one line, ``Failed to <what> <label(item)>: <error>``.
    Returns the exit code: 0 when all succeeded, 1 when any failed (so
    ``occli server stop a b`` stops ``b`` even if ``a`` fails).

    With ``concurrency`` > 1, the first item runs alone (it authenticates,
    negotiates the compute version and makes the service adapters that the
    others then share: no token is asked for twice), then the others run
    on up to ``concurrency`` threads. The output is as if they ran one
    after the other: failures, and what the actions log, come in the
    order of ``items``. An error other than an API error (a bug, a lost
    connection after its retries) stops as it would one by one: items
    not started yet are not run, and the error is raised.
    """
    import logging

    log = logging.getLogger("occli")
    items = list(items)
    if concurrency <= 1 or len(items) <= 2:
        outcomes = (_outcome(action, item) for item in items)
    else:
        outcomes = _concurrently(action, items, concurrency)
    failed = 0
    try:
        for item, (records, error) in zip(items, outcomes, strict=False):
            for record in records:
                logging.getLogger(record.name).handle(record)
            if isinstance(error, exceptions.ClientException):
                failed += 1
                log.error("Failed to %s %s: %s", what, label(item), error)
            elif error is not None:
                raise error
    finally:
        outcomes.close()  # the pool, if any, is shut down
    return 1 if failed else 0


def _outcome(action, item, capture=None):
    """``(log records, exception or None)`` of ``action(item)``; records
    are kept back only when ``capture`` (a _LogCapture) is given."""
    if capture is not None:
        capture.start()
    try:
        action(item)
    except Exception as exc:  # noqa: BLE001 - returned, raised by for_each
        return (capture.stop() if capture else []), exc
    return (capture.stop() if capture else []), None


def _concurrently(action, items, concurrency):
    """The outcomes of ``action`` on ``items``, in their order: the first
    alone, the others on a pool of threads whose log records are kept
    back until their turn."""
    from concurrent import futures

    first = _outcome(action, items[0])
    yield first
    if first[1] is not None and not isinstance(first[1], exceptions.ClientException):
        return  # for_each raises it
    capture = _LogCapture()
    pool = futures.ThreadPoolExecutor(
        max_workers=min(concurrency, len(items) - 1), thread_name_prefix="occli-for-each"
    )
    try:
        with capture:
            pending = [pool.submit(_outcome, action, item, capture) for item in items[1:]]
            for future in pending:
                outcome = future.result()
                if outcome[1] is not None and not isinstance(
                    outcome[1], exceptions.ClientException
                ):
                    for other in pending:
                        other.cancel()
                yield outcome
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


class _LogCapture:
    """Keeps back the log records of the threads that :meth:`start` it
    (until they :meth:`stop`), from every handler of the root logger."""

    def __init__(self):
        import threading

        self._local = threading.local()
        self._handlers = []

    def __enter__(self):
        import logging

        self._handlers = list(logging.getLogger().handlers)
        for handler in self._handlers:
            handler.addFilter(self)
        return self

    def __exit__(self, *exc):
        for handler in self._handlers:
            handler.removeFilter(self)

    def start(self):
        self._local.records = []

    def stop(self):
        records, self._local.records = self._local.records, None
        return records

    def filter(self, record):
        records = getattr(self._local, "records", None)
        if records is None:
            return True
        if not any(r is record for r in records):  # once, whatever handler
            records.append(record)
        return False
