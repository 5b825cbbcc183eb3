"""Instance action commands: ``server event list`` and ``server event
show`` (Nova's ``os-instance-actions``)."""

from cliff import columns as cliff_columns

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.compute import servers as servers_api


class EventsColumn(cliff_columns.FormattableColumn):
    """An action's events: one line per event in a table, the list as is
    in json/yaml."""

    def human_readable(self):
        lines = []
        for event in self._value or ():
            line = "%s: %s" % (event.get("event"), event.get("result") or "running")
            times = [event.get("start_time"), event.get("finish_time")]
            line += " (%s)" % " - ".join(t for t in times if t)
            if event.get("host"):
                line += " on %s" % event["host"]
            lines.append(line)
        return "\n".join(lines)

    def machine_readable(self):
        return list(self._value or ())


def failure(client, server):
    """Why Nova failed the server's latest action, as its events recorded
    it (the details from compute API 2.84, for admins), or None if that
    action did not fail: for a wait that ended in the wrong status."""
    try:
        latest = next(iter(client.instance_action.iter(server, read_ahead=False)), None)
        if latest is None or latest.to_dict().get("message") != "Error":
            return None
        action = client.instance_action.get(server, latest.request_id).to_dict()
    except Exception:  # noqa: BLE001 - an explanation only: never hide the failure
        return None
    failed = [e for e in action.get("events") or () if e.get("result") == "Error"]
    details = " ".join(sorted({e["details"] for e in failed if e.get("details")}))
    if details:
        why = ": " + details.rstrip(".") + "."
    elif failed:
        why = " in %s." % ", ".join(sorted(e["event"] for e in failed))
    else:
        why = "."
    return "Nova's %s failed%s See occli server event show %s %s" % (
        action.get("action"),
        why,
        server.id,
        latest.request_id,
    )


def _server(client, ref):
    """The server named ``ref``; a deleted one by its ID (its actions stay
    readable from compute API 2.21)."""
    try:
        return client.servers.find_resource(ref)
    except exceptions.NotFound:
        if servers_api.is_uuid(ref):
            return ref
        raise


@utils.arg("server", metavar="<server>", help="Server (name or ID; a deleted one by ID).")
@utils.arg("--long", action="store_true", help="Also list the message, project and user.")
@utils.arg(
    "--changes-since",
    metavar="<time>",
    help="Only actions changed at or after this ISO 8601 time (compute API 2.58+).",
)
@utils.arg(
    "--changes-before",
    metavar="<time>",
    help="Only actions changed at or before this ISO 8601 time (compute API 2.66+).",
)
@utils.arg(
    "--limit",
    type=utils.int_at_least(0, "--limit must be 0 or more"),
    metavar="<n>",
    help="List at most this many actions (compute API 2.58+).",
)
@utils.arg(
    "--marker",
    metavar="<request-id>",
    help="Start after the action of this request (compute API 2.58+).",
)
@utils.output("list")
@utils.option_names(
    changes_since="--changes-since",
    changes_before="--changes-before",
    limit="--limit",
    marker="--marker",
)
def do_server_event_list(client, args):
    """List what was done to a server (its instance actions), newest first.

    Example: occli server event list --long vm1
    """
    query = dict(
        marker=args.marker,
        limit=args.limit,
        changes_since=args.changes_since,
        changes_before=args.changes_before,
    )
    client.instance_action.check_list(**query)
    server = _server(client, args.server)
    actions = client.instance_action.iter(server, **query)
    cols = ["request_id", "instance_uuid", "action", "start_time"]
    headers = ["Request ID", "Server ID", "Action", "Start Time"]
    if args.long:
        cols += ["message", "project_id", "user_id", "updated_at"]
        headers += ["Message", "Project ID", "User ID", "Updated At"]
    return columns.table(actions, cols, headers=headers)


@utils.arg("server", metavar="<server>", help="Server (name or ID; a deleted one by ID).")
@utils.arg("request_id", metavar="<request-id>", help="The request ID of the action.")
@utils.output("show")
def do_server_event_show(client, args):
    """Show one action of a server with its events.

    Events are shown to non-admins from compute API 2.51; their host
    and traceback to admins only.

    Example: occli server event show vm1 req-3c6e4b10-6f7d-4c0e-9f0a-0d6f2b1e7a55
    """
    server = _server(client, args.server)
    action = client.instance_action.get(server, args.request_id)
    return columns.show(action, formatters={"events": EventsColumn})
