"""``/servers/{id}/os-instance-actions``: a server's actions and their
events, and :func:`recording`, which records them for every route that
acts on a server (wrapped by ``ComputeService.api``).

Views follow nova's ``InstanceActionsController``: ``updated_at`` from
2.58, events for non-admins from 2.51 (without ``traceback``), ``hostId``
from 2.62 (``host`` for admins), ``details`` for admins from 2.84; from
2.21 a deleted server's actions stay readable (by its project and admins).
"""

import datetime
import json
import re

from occli.localcloud import common as cloud_common
from occli.localcloud.app import Response
from occli.localcloud.app import as_response
from occli.localcloud.compute import instance_actions
from occli.localcloud.compute import server_rows
from occli.localcloud.compute.api import common

LIST_PARAMS_V258 = ("limit", "marker", "changes-since")
LIST_PARAMS_V266 = LIST_PARAMS_V258 + ("changes-before",)

# server action (the body's key) → nova's instance action; the others
# (console output, network info injection, …) record none, as in nova
SERVER_ACTIONS = {
    "os-start": "start",
    "os-stop": "stop",
    "reboot": "reboot",
    "pause": "pause",
    "unpause": "unpause",
    "suspend": "suspend",
    "resume": "resume",
    "lock": "lock",
    "unlock": "unlock",
    "rebuild": "rebuild",
    "resize": "resize",
    "confirmResize": "confirmResize",
    "revertResize": "revertResize",
    "createImage": "createImage",
    "createBackup": "createBackup",
    "trigger_crash_dump": "trigger_crash_dump",
    "shelve": "shelve",
    "shelveOffload": "shelveOffload",
    "unshelve": "unshelve",
    "rescue": "rescue",
    "unrescue": "unrescue",
    "changePassword": "changePassword",
    "os-resetState": "resetState",
    "migrate": "migrate",
    "os-migrateLive": "live-migration",
    "evacuate": "evacuate",
    "restore": "restore",
    "forceDelete": "delete",
}
# (method, route pattern with every {param} as {}) → nova's action; "/action"
# routes are looked up in SERVER_ACTIONS by the body's key. A create records
# its instances' actions itself, with each chunk of them (servers.create)
ROUTE_ACTIONS = {
    ("DELETE", "/servers/{}"): "delete",
    ("DELETE", "/os-volumes_boot/{}"): "delete",
    ("POST", "/servers/{}/action"): None,
    ("POST", "/os-volumes_boot/{}/action"): None,
    ("POST", "/servers/{}/os-volume_attachments"): "attach_volume",
    ("PUT", "/servers/{}/os-volume_attachments/{}"): "swap_volume",
    ("DELETE", "/servers/{}/os-volume_attachments/{}"): "detach_volume",
    ("POST", "/servers/{}/os-interface"): "attach_interface",
    ("DELETE", "/servers/{}/os-interface/{}"): "detach_interface",
    ("POST", "/servers/{}/migrations/{}/action"): "live_migration_force_complete",
    ("DELETE", "/servers/{}/migrations/{}"): "live_migration_cancel",
}
_PARAM = re.compile(r"\{[^}]*\}")


def register(service):
    service.api("GET", "/servers/{server_id}/os-instance-actions", list_actions)
    service.api("GET", "/servers/{server_id}/os-instance-actions/{request_id}", show_action)


# -- recording -------------------------------------------------------------------


def recording(method, pattern, handler):
    """``handler`` recording nova's instance action when it succeeds, if
    the route (``pattern`` without the API prefix) is one nova records."""
    key = (method, _PARAM.sub("{}", pattern))
    if key not in ROUTE_ACTIONS:
        return handler
    fixed = ROUTE_ACTIONS[key]

    def recorded(req):
        before = _host_before(req) if "{}" in key[1] else None
        result = as_response(handler(req), handler)
        if 200 <= result.status < 300:
            _record(req, fixed, before)
        return result

    recorded.__name__ = handler.__name__
    recorded.__doc__ = handler.__doc__
    return recorded


def _server_id(req):
    if "server_id" in req.params:
        return req.params["server_id"]
    params = [v for k, v in req.params.items() if k != "project_id"]
    return params[0] if params else None


def _host_before(req):
    return server_rows.host(req.db, _server_id(req))


def _record(req, fixed, host_before):
    body = req.json(required=False) if fixed is None or fixed == "swap_volume" else None
    name = fixed
    if fixed is None:
        key = next(iter(body)) if isinstance(body, dict) and len(body) == 1 else ""
        name = SERVER_ACTIONS.get(key)
    elif fixed == "swap_volume":
        # a PUT changing only delete_on_termination (2.85) swaps nothing
        attachment = (body or {}).get("volumeAttachment") if isinstance(body, dict) else None
        path_ids = [v for k, v in req.params.items() if k not in ("project_id", "server_id")]
        if not isinstance(attachment, dict) or attachment.get("volumeId") in path_ids:
            return
    if name is None:
        return
    server = server_rows.stored(req.db, _server_id(req))
    if server is None:
        return
    events = None
    failure = json.loads(server["pending"]).get("failure") if server["pending"] else None
    if failure is not None and name in instance_actions.FAILED_EVENTS:
        events = instance_actions.FAILED_EVENTS[name]
        if name == "unshelve" and not server["image_ref"]:
            events = events[1:]
    elif name == "unshelve" and not server["image_ref"]:
        events = instance_actions.EVENTS["unshelve"][1:]
    elif name == "unshelve" and host_before:
        events = instance_actions.UNSHELVE_IN_PLACE_EVENTS
    if name == "shelve" and not server["image_ref"]:
        # nova offloads a volume-backed server instead of shelving it
        events = instance_actions.EVENTS["shelveOffload"]
    instance_actions.record(
        req.db,
        server,
        name,
        req.request_id,
        req.context.user_id,
        req.context.project_id,
        events=events,
        duration=_duration(req, server),
        host=server["host"] or host_before,
        failure=failure,
    )


def _duration(req, server):
    """Seconds until the server's current operation completes (0: none)."""
    if not server.get("pending"):
        return 0.0
    total = float(json.loads(server["pending"]).get("duration", req.cloud.config.build_time))
    return max(0.0, server["task_started_at"] + total - cloud_common.utcnow().timestamp())


# -- the API ---------------------------------------------------------------------


def _server(req):
    return instance_actions.server_row(
        req.db, common.caller(req), req.params["server_id"], req.microversion >= "2.21"
    )


def _query_error(name, value, reason):
    return common.bad_request(
        "Invalid input for query parameters %s. Value: %s. %s" % (name, value, reason)
    )


def _time(req, name):
    value = req.arg(name)
    if value is None:
        return None
    try:
        parsed = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=datetime.timezone.utc)
        parsed.astimezone(datetime.timezone.utc)
    except (ValueError, OverflowError):
        raise _query_error(name, value, "%r is not a 'date-time'" % value) from None
    return parsed


def _paging(req):
    """``(limit, marker, since, before)`` of a 2.58+ list (nova's query
    schema, then its changes-since/before check)."""
    allowed = LIST_PARAMS_V266 if req.microversion >= "2.66" else LIST_PARAMS_V258
    for name, values in req.query.items():
        if name not in allowed:
            raise common.bad_request(
                "Additional properties are not allowed ('%s' was unexpected)" % name
            )
        if len(values) > 1:
            # nova's single_param: one value only
            raise _query_error(name, values, "%r is too long" % (values,))
    limit = req.arg("limit")
    if limit is not None:
        if limit == "":
            raise _query_error("limit", limit, "'' should be non-empty")
        if not re.fullmatch(r"[0-9]*", limit):
            raise _query_error("limit", limit, "%r does not match '^[0-9]*$'" % limit)
        limit = min(int(limit), common.MAX_LIMIT)
    else:
        limit = common.MAX_LIMIT
    since, before = _time(req, "changes-since"), _time(req, "changes-before")
    if since is not None and before is not None and before < since:
        raise common.bad_request(
            "The value of changes-since must be less than or equal to changes-before."
        )
    return limit, req.arg("marker"), since, before


_ACTION_KEYS = ("action", "instance_uuid", "request_id", "user_id", "project_id", "start_time")


def _action_view(req, found):
    body = {key: found[key] for key in _ACTION_KEYS}
    body["message"] = found["message"]
    if req.microversion >= "2.58":
        body["updated_at"] = found["updated_at"]
    return body


def list_actions(req):
    server = _server(req)
    if req.microversion >= "2.58":
        limit, marker, since, before = _paging(req)
        found = instance_actions.actions(req.db, server["id"], limit, marker, since, before)
    else:
        found = instance_actions.actions(req.db, server["id"])
    body = {"instanceActions": [_action_view(req, a) for a in found]}
    if req.microversion >= "2.58":
        links = common.next_links(
            req,
            found,
            limit,
            lambda a: a["request_id"],
            "servers/%s/os-instance-actions" % server["id"],
        )
        if links:
            body["links"] = links
    return Response(200, body)


def show_action(req):
    if req.microversion >= "2.102":
        for name in req.query:
            raise common.bad_request(
                "Additional properties are not allowed ('%s' was unexpected)" % name
            )
    server = _server(req)
    found = instance_actions.action(req.db, server["id"], req.params["request_id"])
    body = _action_view(req, found)
    admin = req.context.is_admin
    if admin or req.microversion >= "2.51":
        body["events"] = [_event_view(req, e, found, server, admin) for e in found["events"]]
    return Response(200, {"instanceAction": body})


def _event_view(req, event, found, server, admin):
    version = req.microversion
    view = {key: event[key] for key in ("event", "start_time", "finish_time", "result")}
    if admin:
        view["traceback"] = event["traceback"]
        if version >= "2.62":
            view["host"] = event["host"]
    if version >= "2.62":
        view["hostId"] = common.host_id(found["project_id"] or server["project_id"], event["host"])
    if admin and version >= "2.84":
        view["details"] = event["details"]
    return view
