"""Usage commands: server-hours per project over a period (nova's simple
tenant usage) and the instance usage audit log (admin).

``--start``/``--end`` take a date (``2024-01-31``, midnight UTC) or a
date and time (``2024-01-31T12:00:00``, UTC unless an offset is given);
the period defaults to the last four weeks up to tomorrow, as
OpenStackClient's.
"""

import datetime

from cliff import columns as cliff_columns

from occli import exceptions
from occli import utils

HEADERS = ("Project", "Servers", "RAM MB-Hours", "CPU Hours", "Disk GB-Hours")


def _moment(text):
    """A ``--start``/``--end`` value as an aware UTC datetime."""
    try:
        value = datetime.datetime.fromisoformat(
            text[:-1] + "+00:00" if text.endswith("Z") else text
        )
    except ValueError:
        raise exceptions.ValidationError(
            "%r is not a date (YYYY-MM-DD) or a date and time (YYYY-MM-DDTHH:MM:SS)" % text
        ) from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=datetime.timezone.utc)
    return value.astimezone(datetime.timezone.utc)


_MOMENT = utils.arg_type(_moment, "DATE")


def _period(client, args):
    now = datetime.datetime.now(datetime.timezone.utc)
    start = args.start or now - datetime.timedelta(weeks=4)
    end = args.end or now + datetime.timedelta(days=1)
    client.usage.check_period(start, end)
    return start, end


class CountColumn(cliff_columns.FormattableColumn):
    """A project's server usages: how many in a table, the list in JSON
    (OSC's ``CountColumn``, openstackclient/compute/v2/usage.py)."""

    def human_readable(self):
        return str(len(self._value))

    def machine_readable(self):
        # the fields of openstacksdk's ServerUsage that OSC prints
        return [
            dict(
                {k: v for k, v in server.items() if k != "tenant_id"},
                project_id=server.get("tenant_id"),
                id=None,
                location=None,
            )
            for server in self._value
        ]


class FloatColumn(cliff_columns.FormattableColumn):
    """Hours: two decimals in a table, the number in JSON (OSC's)."""

    def human_readable(self):
        return "%.2f" % self._value


def _row(usage):
    info = usage.to_dict()
    return (
        info.get("tenant_id"),
        CountColumn(info.get("server_usages") or []),
        FloatColumn(info.get("total_memory_mb_usage", 0)),
        FloatColumn(info.get("total_vcpus_usage", 0)),
        FloatColumn(info.get("total_local_gb_usage", 0)),
    )


def _header(args, text):
    if getattr(args, "formatter", None) == "table":
        utils.stdout(args).write(text + "\n")


def _day(moment):
    return moment.strftime("%Y-%m-%d")


_PERIOD_OPTIONS = (
    (
        "--start",
        dict(
            type=_MOMENT, metavar="<date>", help="Start of the period (default: four weeks ago)."
        ),
    ),
    (
        "--end",
        dict(
            type=_MOMENT,
            metavar="<date>",
            help="End of the period (default: tomorrow; nova stops at now).",
        ),
    ),
)


def _period_options(func):
    for option, kwargs in reversed(_PERIOD_OPTIONS):
        func = utils.arg(option, **kwargs)(func)
    return utils.option_names(start="--start", end="--end")(func)


@_period_options
@utils.output("list")
def do_usage_list(client, args):
    """List every project's compute usage over a period (admin).

    Example: occli usage list --start 2026-01-01 --end 2026-02-01
    """
    start, end = _period(client, args)
    usages = client.usage.iter(start, end, detailed=True)
    _header(args, "Usage from %s to %s:" % (_day(start), _day(end)))
    return HEADERS, [_row(u) for u in usages]


@utils.arg(
    "--project",
    metavar="<project>",
    help="Project ID (or your project's name; default: your project; another one: admin).",
)
@_period_options
@utils.output("show")
def do_usage_show(client, args):
    """Show a project's compute usage over a period.

    Example: occli usage show --project team-a --start 2026-01-01
    """
    from occli.v2.commands.quotas import project_id

    start, end = _period(client, args)
    project = project_id(client, args.project)
    usage = client.usage.get(project, start, end)
    _header(args, "Usage from %s to %s on project %s:" % (_day(start), _day(end), project))
    row = _row(usage)
    return HEADERS, (project,) + row[1:]


@utils.arg(
    "--before",
    metavar="<timestamp>",
    help="The audit of the last period completed before this UTC "
    "time (YYYY-MM-DD HH:MM:SS[.ffffff]; default: now).",
)
@utils.output("show")
def do_usage_audit(client, args):
    """Show the instance usage audit of the last completed period (admin).

    Example: occli usage audit
    """
    log = client.usage_audit_logs.get(before=args.before)
    info = log.to_dict()
    return (
        (
            "Period Beginning",
            "Period Ending",
            "Overall Status",
            "Hosts",
            "Hosts Done",
            "Hosts Running",
            "Hosts Not Run",
            "Total Instances",
            "Total Errors",
            "Log",
        ),
        (
            info.get("period_beginning"),
            info.get("period_ending"),
            info.get("overall_status"),
            info.get("num_hosts"),
            info.get("num_hosts_done"),
            info.get("num_hosts_running"),
            _list(info.get("hosts_not_run")),
            info.get("total_instances"),
            info.get("total_errors"),
            _log(info.get("log")),
        ),
    )


def _list(values):
    from occli import columns

    return columns.ListColumn(values or [])


def _log(value):
    from occli import columns

    return columns.JSONColumn(value or {})
