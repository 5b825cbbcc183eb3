"""``/os-services``, ``/os-hypervisors`` and ``/os-availability-zone``.

``PUT /os-services/{id}`` follows nova's ``ServiceController.update``:
before 2.53 ``{id}`` is an action (``enable``, ``disable``,
``disable-log-reason``, from 2.11 ``force-down``) and the body names
``host`` and ``binary``; from 2.53 ``{id}`` is the service uuid and the
body sets ``status`` and/or ``forced_down``.
"""

import json

from occli.localcloud import common as clock
from occli.localcloud import validation
from occli.localcloud.app import Response
from occli.localcloud.common import fits_integer
from occli.localcloud.compute import aggregates
from occli.localcloud.compute import hosts
from occli.localcloud.compute import scheduler
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import schemas

UPDATE_POLICY = "os_compute_api:os-services:update"
# webob's HTTPBadRequest explanation (nova's text when it passes its own
# message as webob's ``detail``)
BAD_REQUEST_DEFAULT = (
    "The server could not comply with the request since "
    "it is either malformed or otherwise incorrect."
)
UUID_FOR_ID_MIN_VERSION = "2.53"
CPU_INFO = {
    "arch": "x86_64",
    "model": "Nehalem",
    "vendor": "Intel",
    "features": ["pge", "clflush"],
    "topology": {"cores": 4, "threads": 2, "sockets": 2},
}
_LEGACY_ACTIONS = ("enable", "disable", "disable-log-reason")


def register(service):
    service.api("GET", "/os-services", list_services)
    # admin only: the handler checks it (role=None: no project role first)
    service.api("PUT", "/os-services/{service_id}", update_service, role=None)
    service.api("DELETE", "/os-services/{service_id}", delete_service, role=None)
    service.api("GET", "/os-hypervisors", list_hypervisors)
    service.api("GET", "/os-hypervisors/detail", list_hypervisors_detail)
    service.api("GET", "/os-hypervisors/statistics", hypervisor_statistics, max_version="2.87")
    service.api("GET", "/os-hypervisors/{hypervisor_id}", show_hypervisor)
    service.api(
        "GET", "/os-hypervisors/{hypervisor_id}/uptime", hypervisor_uptime, max_version="2.87"
    )
    service.api(
        "GET", "/os-hypervisors/{hypervisor_id}/search", search_hypervisors, max_version="2.52"
    )
    service.api(
        "GET", "/os-hypervisors/{hypervisor_id}/servers", hypervisor_servers, max_version="2.52"
    )
    service.api("GET", "/os-availability-zone", list_zones)
    service.api("GET", "/os-availability-zone/detail", list_zones_detail)


def _heartbeat():
    return clock.iso_naive_micro(clock.utcnow())


# -- os-services ----------------------------------------------------------------


def _service_view(req, row):
    body = {
        "id": row["uuid"] if req.microversion >= "2.53" else row["id"],
        "binary": row["binary"],
        "host": row["host"],
        "zone": aggregates.service_zone(req.db, row),
        "status": "disabled" if row["disabled"] else "enabled",
        "state": "down" if row["forced_down"] else "up",
        "updated_at": _heartbeat(),
        "disabled_reason": row["disabled_reason"],
    }
    if req.microversion >= "2.11":
        body["forced_down"] = bool(row["forced_down"])
    return body


def list_services(req):
    common.require_admin(req, "os_compute_api:os-services:list")
    rows = hosts.services(req.db, req.arg("binary"), req.arg("host"))
    return Response(200, {"services": [_service_view(req, r) for r in rows]})


def delete_service(req):
    """``DELETE /os-services/{service_id}`` (an integer id before 2.53, a
    uuid from 2.53): 204; 409 while its host has servers."""
    common.require_admin(req, "os_compute_api:os-services:delete")
    ident = req.params["service_id"]
    if req.microversion >= UUID_FOR_ID_MIN_VERSION:
        if not validation.is_uuid(ident):
            raise common.bad_request("Invalid uuid %s" % ident)
        row = _service_or_404(req, "uuid", ident)
    else:
        try:
            number = int(ident)
        except ValueError:
            raise common.bad_request("Invalid input received: id must be an integer") from None
        row = _service_or_404(req, "id", number)
    hosts.delete_service(req.db, row)
    return Response(204)


def _service_or_404(req, column, ident):
    row = None
    if column == "uuid" or fits_integer(ident):
        row = hosts.find_service(req.db, column, ident)
    if row is None:
        raise common.not_found("Service %s not found." % ident)
    return row


def _to_bool(value):
    """oslo ``bool_from_string`` of a value the schema's enum let through."""
    return validation.bool_from_string(value)


def update_service(req):
    """``PUT /os-services/{service_id}`` (an action name before 2.53)."""
    body = schemas.validate(schemas.service_update(req.microversion), req.json())
    if req.microversion >= UUID_FOR_ID_MIN_VERSION:
        return _update_by_uuid(req, req.params["service_id"], body)
    return _update_by_action(req, req.params["service_id"], body)


def _update_by_action(req, action, body):
    common.require_admin(req, UPDATE_POLICY)
    actions = _LEGACY_ACTIONS + (("force-down",) if req.microversion >= "2.11" else ())
    if action not in actions:
        raise common.not_found("Unknown action")
    host, binary = body["host"], body["binary"]
    if action == "force-down":
        if "forced_down" not in body:
            raise common.bad_request("Missing forced_down field")
        forced_down = _to_bool(body["forced_down"])
        changes: dict[str, object] = {"forced_down": int(forced_down)}
        reply = {"host": host, "binary": binary, "forced_down": forced_down}
    else:
        reason = None
        if action == "disable-log-reason":
            if "disabled_reason" not in body:
                raise common.bad_request("Missing disabled reason field")
            reason = body["disabled_reason"]
        status = "enabled" if action == "enable" else "disabled"
        changes = {"disabled": int(status == "disabled"), "disabled_reason": reason}
        reply = {"host": host, "binary": binary, "status": status}
        if reason:
            reply["disabled_reason"] = reason
    hosts.update_host_service(req.db, host, binary, changes)
    return Response(200, {"service": reply})


def _update_by_uuid(req, ident, body):
    if not validation.is_uuid(ident):
        raise common.bad_request("Invalid uuid %s" % ident)
    common.require_admin(req, UPDATE_POLICY)
    row = hosts.service_by_uuid(req.db, ident)
    hosts.check_updatable(row["binary"])
    changes: dict[str, object] = {}
    status = body.get("status")
    if status == "enabled":
        if body.get("disabled_reason"):
            raise common.bad_request(
                "Specifying 'disabled_reason' with status 'enabled' is invalid."
            )
        changes.update(disabled=0, disabled_reason=None)
    elif status == "disabled":
        changes.update(disabled=1, disabled_reason=body.get("disabled_reason"))
    # as in nova, a disabled_reason without a status is ignored
    if "forced_down" in body:
        changes["forced_down"] = int(_to_bool(body["forced_down"]))
    if not changes:
        raise common.bad_request(
            "No updates were requested. Fields 'status' or 'forced_down' should be specified."
        )
    row = hosts.update_service(req.db, row, changes)
    return Response(200, {"service": _service_view(req, row)})


# -- os-hypervisors -------------------------------------------------------------


def _hypervisor_view(req, row, detail, with_servers=False):
    new_ids = req.microversion >= "2.53"
    body = {
        "id": row["uuid"] if new_ids else row["id"],
        "hypervisor_hostname": row["hypervisor_hostname"],
        "state": "down" if row["forced_down"] else "up",
        "status": "disabled" if row["disabled"] else "enabled",
    }
    if detail:
        body.update(
            {
                "hypervisor_type": "QEMU",
                "hypervisor_version": 8002000,
                "host_ip": row["host_ip"],
                "service": {
                    "host": row["host"],
                    "id": row["service_uuid"] if new_ids else row["service_id"],
                    "disabled_reason": row["disabled_reason"],
                },
            }
        )
        if req.microversion >= "2.88":
            body["uptime"] = hosts.uptime(req.db, row)
        else:
            body.update(scheduler.node_usage(req.db, row))
            body["cpu_info"] = CPU_INFO if req.microversion >= "2.28" else json.dumps(CPU_INFO)
    if with_servers:
        hosted = hosts.servers_of_host(req.db, row["host"])
        # from 2.75 the list is there even when it is empty
        if hosted or req.microversion >= "2.75":
            body["servers"] = hosted
    return body


def _with_servers(req):
    """nova's ``with_servers`` query parameter (2.53): one of the schema's
    boolean spellings."""
    if req.microversion < "2.53":
        return False
    value = req.arg("with_servers")
    if value is None:
        return False
    if value not in schemas.boolean["enum"]:
        raise common.bad_request(
            "Invalid input for query parameters with_servers. Value: %s. "
            "%r is not one of %r" % (value, value, schemas.boolean["enum"])
        )
    return _to_bool(value)


# nova's hypervisors index/show query schemas from 2.53 (no other parameter)
_LIST_PARAMS = ("limit", "marker", "hypervisor_hostname_pattern", "with_servers")


def _hypervisors(req, detail):
    with_servers = _with_servers(req)
    if req.microversion >= "2.53":
        common.reject_extra_params(req, _LIST_PARAMS)
    common.require_admin(
        req, "os_compute_api:os-hypervisors:%s" % ("list-detail" if detail else "list")
    )
    version = req.microversion
    pattern = req.arg("hypervisor_hostname_pattern") if version >= "2.53" else None
    next_links = None
    if pattern is not None:
        if req.arg("limit") is not None or req.arg("marker") is not None:
            # nova means "Paging over hypervisors with the
            # hypervisor_hostname_pattern query parameter is not
            # supported." but passes it where webob expects a detail, so
            # its answer is webob's default text
            raise common.bad_request(BAD_REQUEST_DEFAULT)
        rows = hosts.nodes(req.db, pattern)
    else:
        rows = hosts.nodes(req.db)
        if version >= "2.33":
            key = "uuid" if version >= "2.53" else "id"
            rows, next_links = common.paginate(
                req,
                rows,
                lambda r: r[key],
                "os-hypervisors/detail" if detail else "os-hypervisors",
            )
    body = {"hypervisors": [_hypervisor_view(req, r, detail, with_servers) for r in rows]}
    if next_links:
        body["hypervisors_links"] = next_links
    return Response(200, body)


def list_hypervisors(req):
    return _hypervisors(req, detail=False)


def list_hypervisors_detail(req):
    return _hypervisors(req, detail=True)


def _node(req):
    """The node of ``{hypervisor_id}``, after nova's ``_validate_id``: a
    uuid from 2.53 (400), an integer before (404)."""
    ident = req.params["hypervisor_id"]
    if req.microversion >= "2.53":
        if not validation.is_uuid(ident):
            raise common.bad_request("Invalid uuid %s" % ident)
        return hosts.node(req.db, "uuid", ident)
    return hosts.node(req.db, "id", ident)


def show_hypervisor(req):
    with_servers = _with_servers(req)
    if req.microversion >= "2.53":
        common.reject_extra_params(req, ("with_servers",))
    common.require_admin(req, "os_compute_api:os-hypervisors:show")
    return Response(200, {"hypervisor": _hypervisor_view(req, _node(req), True, with_servers)})


def hypervisor_uptime(req):
    """``GET /os-hypervisors/{id}/uptime`` (until 2.87; then in show)."""
    common.require_admin(req, "os_compute_api:os-hypervisors:uptime")
    row = _node(req)
    uptime = hosts.uptime(req.db, row)
    if uptime is None:
        raise common.bad_request(
            "Compute service of %s is unavailable at this time." % row["host"]
        )
    body = _hypervisor_view(req, row, False)
    body["uptime"] = uptime
    return Response(200, {"hypervisor": body})


def hypervisor_statistics(req):
    """``GET /os-hypervisors/statistics`` (until 2.87)."""
    common.require_admin(req, "os_compute_api:os-hypervisors:statistics")
    return Response(200, {"hypervisor_statistics": scheduler.statistics(req.db)})


def search_hypervisors(req):
    """``GET /os-hypervisors/{pattern}/search`` (until 2.52)."""
    common.require_admin(req, "os_compute_api:os-hypervisors:search")
    rows = hosts.nodes(req.db, req.params["hypervisor_id"])
    return Response(200, {"hypervisors": [_hypervisor_view(req, r, False) for r in rows]})


def hypervisor_servers(req):
    """``GET /os-hypervisors/{pattern}/servers`` (until 2.52): the
    matching nodes, each with its servers (when it has any)."""
    common.require_admin(req, "os_compute_api:os-hypervisors:servers")
    rows = hosts.nodes(req.db, req.params["hypervisor_id"])
    return Response(200, {"hypervisors": [_hypervisor_view(req, r, False, True) for r in rows]})


# -- os-availability-zone ---------------------------------------------------------


def list_zones(req):
    return Response(
        200,
        {
            "availabilityZoneInfo": [
                {"zoneName": name, "zoneState": {"available": available}, "hosts": None}
                for name, available, _ in aggregates.zones(req.db, include_internal=False)
            ]
        },
    )


def list_zones_detail(req):
    common.require_admin(req, "os_compute_api:os-availability-zone:detail")
    now = _heartbeat()
    info = []
    for name, available, members in aggregates.zones(req.db, include_internal=True):
        if members is not None:
            members = {
                host: {
                    r["binary"]: {
                        "available": not r["forced_down"],
                        "active": not r["disabled"],
                        "updated_at": now,
                    }
                    for r in rows
                }
                for host, rows in members.items()
            }
        info.append({"zoneName": name, "zoneState": {"available": available}, "hosts": members})
    return Response(200, {"availabilityZoneInfo": info})
