"""Stack events: Heat's event controller (``heat/api/openstack/v1/events.py``):
a stack's events (``limit``, ``marker``, ``sort_dir``, ``nested_depth``,
resource filters; the stack's own transitions are events whose resource
is the stack), a resource's events and one event."""

from occli.localcloud import errors
from occli.localcloud.app import Response
from occli.localcloud.orchestration.api import common
from occli.localcloud.orchestration.api import stack_common as sc
from occli.localcloud.orchestration.engine import formats
from occli.localcloud.orchestration.engine import stacks as stack_rows

EVENTS = sc.STACK + "/events"
RESOURCE_EVENTS = sc.STACK + "/resources/{resource_name}/events"
# the keys of a listed event (events.py summary_keys)
SUMMARY_KEYS = (
    "event_identity",
    "event_time",
    "resource_name",
    "resource_status",
    "resource_status_reason",
    "physical_resource_id",
)
_FILTERS = ("resource_status", "resource_action", "resource_name", "resource_type")


def register(service):
    service.route("GET", EVENTS, list_events)
    service.route("GET", RESOURCE_EVENTS, list_resource_events)
    service.route("GET", RESOURCE_EVENTS + "/{event_id}", show_event)


def view_event(req, event, keys=None):
    """``events.format_event``: the identity as ``id`` and ``links`` (self,
    resource, stack, and root_stack for a nested stack's event),
    ``resource_status`` joined with the action."""
    result = {}
    for key, value in event.items():
        if keys and key not in keys:
            continue
        if key == "event_identity":
            resource = formats.parent_path(value)
            result["id"] = value["path"].rsplit("/", 1)[-1]
            result["links"] = [
                sc.make_link(req, value),
                sc.make_link(req, resource, "resource"),
                sc.make_link(req, formats.parent_path(resource), "stack"),
            ]
        elif key in ("stack_identity", "stack_name", "resource_action"):
            continue
        elif key == "resource_status" and "resource_action" in event:
            result[key] = "_".join((event["resource_action"] or "", value or ""))
        elif key == "resource_name":
            result["logical_resource_id"] = value
            result[key] = value
        else:
            result[key] = value
    root = event.get("root_stack_id")
    if root:
        result["links"].append(sc.make_link(req, root, "root_stack"))
    return result


def _formatted(req, stack_row, rows, root):
    """Each event row in Heat's keys, under its own stack's identity."""
    out = []
    for row in rows:
        if row["stack_id"] == stack_row["id"]:
            ident = formats.stack_identity(stack_row)
        else:
            ident = formats.identity(row["project_id"], row["stack_name"], row["stack_id"])
        out.append(formats.format_event(row, ident, root_stack=root))
    return out


def _events(req, resource_name=None):
    row = sc.identified_stack(req, req.db, show_deleted=True)
    params = sc.allowed(
        req,
        {
            "limit": "single",
            "marker": "single",
            "sort_dir": "single",
            "sort_keys": "multi",
            "nested_depth": "single",
        },
    )
    found = sc.allowed(req, dict.fromkeys(_FILTERS, "mixed"))
    filters = {k: v if isinstance(v, list) else [v] for k, v in found.items()}
    if resource_name is not None:
        filters.pop("resource_name", None)
    limit = sc.sql_limit(sc.extract_int("limit", params.get("limit")))
    depth = min(
        sc.extract_int("nested_depth", params.get("nested_depth")) or 0, sc.MAX_NESTED_DEPTH
    )
    rows = stack_rows.events(
        req.db,
        row["id"],
        resource_name=resource_name,
        limit=limit,
        marker=params.get("marker"),
        # Heat's _events_paginate_query: newest first unless sort_dir says
        sort_dir=sc.sort_dir(req) or "desc",
        nested_depth=depth,
        filters=filters or None,
    )
    root = formats.stack_identity(row) if depth else None
    return _formatted(req, row, rows, root)


def list_events(req):
    """``GET …/events``: the stack's events, summary keys only."""
    events = [view_event(req, e, SUMMARY_KEYS) for e in _events(req)]
    return Response(200, {"events": events})


def list_resource_events(req):
    """``GET …/resources/{name}/events``: 404 when it has none (Heat's)."""
    name = req.params["resource_name"]
    events = [view_event(req, e, SUMMARY_KEYS) for e in _events(req, name)]
    if not events:
        raise common.error(404, "No events found for resource %s" % name, "HTTPNotFound")
    return Response(200, {"events": events})


def show_event(req):
    """``GET …/resources/{name}/events/{id}``: every key of the event."""
    row = sc.identified_stack(req, req.db, show_deleted=True)
    event_id = req.params["event_id"]
    try:
        event = stack_rows.event(req.db, row["id"], req.params["resource_name"], event_id)
    except errors.NotFound:
        raise common.error(404, "No event %s found" % event_id, "HTTPNotFound") from None
    formatted = formats.format_event(event, formats.stack_identity(row))
    return Response(200, {"event": view_event(req, formatted)})
