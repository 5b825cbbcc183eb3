"""Stack event commands (Heat), with OSC's names, options and columns
(``heatclient/osc/v1/event.py``); ``--follow`` and ``--log`` print
heatclient's log lines."""

import argparse
import time

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.orchestration import template_utils
from occli.v2.orchestration.commands import stack_wait


@utils.arg("stack", metavar="<stack>", help="Name or ID of the stack.")
@utils.arg("--resource", metavar="<resource>", help="Only this resource's events.")
@utils.arg(
    "--filter", metavar="<key=value>", action="append", help="Filter on the events (repeatable)."
)
@utils.arg("--limit", metavar="<limit>", type=utils.positive_int, help="At most this many.")
@utils.arg("--marker", metavar="<id>", help="Only events after this event ID.")
@utils.arg(
    "--nested-depth",
    metavar="<depth>",
    type=utils.non_negative_int,
    help="Depth of nested stacks whose events are listed too (not with --resource).",
)
@utils.arg(
    "--sort",
    metavar="<key>[:<direction>]",
    action="append",
    help="Sort by a key and direction (asc or desc; repeatable); ':desc' alone: newest first.",
)
@utils.arg("--log", action="store_true", help="Print heatclient's log lines instead of a table.")
@utils.arg(
    "--follow",
    action="store_true",
    help="Print new events as log lines until interrupted (Ctrl-C).",
)
@utils.arg("--poll", metavar="<seconds>", type=utils.seconds, default=5, help=argparse.SUPPRESS)
@utils.option_names(filter="--filter")
@utils.output("list")
def do_stack_event_list(client, args):
    """List a stack's events (oldest first).

    Example: occli stack event list --follow app
    """
    if args.resource and args.nested_depth:
        raise exceptions.ValidationError("--nested-depth cannot be specified with --resource")
    kwargs = {
        "filters": template_utils.format_parameters(args.filter, param="filter"),
        "sort_dir": "asc",
        "nested_depth": args.nested_depth,
    }
    if args.sort:
        keys = [s.split(":")[0] for s in args.sort if not s.startswith(":")]
        if keys:
            kwargs["sort_keys"] = keys
        if ":" in args.sort[0]:
            kwargs["sort_dir"] = args.sort[0].split(":")[1]
    if args.follow:
        return _follow(client, args, kwargs)
    events = client.stack_events.list(
        args.stack, resource_name=args.resource, limit=args.limit, marker=args.marker, **kwargs
    )
    if args.log:
        if events:
            utils.stdout(args).write(stack_wait.EventLog().lines(events) + "\n")
        return (), ()
    cols = ["id", "resource_status", "resource_status_reason", "event_time"]
    cols.append("physical_resource_id")
    if events and "resource_name" in events[0]:
        cols = ["resource_name"] + cols + ["logical_resource_id"]
    else:
        cols = ["logical_resource_id"] + cols
    if args.nested_depth:
        cols.append("stack_name")
    rows = [dict(e.to_dict(), stack_name=_stack_name(e)) for e in events]
    return columns.table(rows, cols)


def _stack_name(event):
    for link in event.to_dict().get("links") or ():
        if link.get("rel") == "stack" and link.get("href"):
            return str(link["href"]).rstrip("/").split("/")[-2]
    return None


def _follow(client, args, kwargs, sleep=time.sleep):
    """Print each new event as a log line, polling every ``--poll``
    seconds, until Ctrl-C."""
    out = utils.stdout(args)
    log = stack_wait.EventLog()
    marker = args.marker
    ident = client.stacks.get(args.stack, resolve_outputs=False).identifier
    try:
        while True:
            events = client.stack_events.list(
                ident, resource_name=args.resource, marker=marker, **kwargs
            )
            if events:
                marker = events[-1].id
                out.write(log.lines(events) + "\n")
                out.flush()
            sleep(args.poll)
    except KeyboardInterrupt:
        return (), ()


@utils.arg("stack", metavar="<stack>", help="Name or ID of the stack.")
@utils.arg("resource", metavar="<resource>", help="Name of the resource the event belongs to.")
@utils.arg("event", metavar="<event>", help="ID of the event.")
@utils.output("show")
def do_stack_event_show(client, args):
    """Show an event.

    Example: occli stack event show app server 474bfdf0-a450-46ec-a78a-0c7faa404073
    """
    event = client.stack_events.get(args.stack, args.resource, args.event)
    info = event.to_dict()
    return columns.show(info, list(info))
