"""``/os-services``, ``/os-hypervisors`` and ``/os-availability-zone``.

``PUT /os-services/{id}`` follows nova's ``ServiceController.update``:
before 2.53 ``{id}`` is an action (``enable``, ``disable``,
``disable-log-reason``, from 2.11 ``force-down``) and the body names
``host`` and ``binary``; from 2.53 ``{id}`` is the service uuid and the
body sets ``status`` and/or ``forced_down``.
"""

import json

from occli.localcloud import common as clock
from occli.localcloud.compute import hosts, values
from occli.localcloud.compute.api import common, schemas

UPDATE_POLICY = "os_compute_api:os-services:update"
UUID_FOR_ID_MIN_VERSION = "2.53"
CPU_INFO = {"arch": "x86_64", "model": "Nehalem", "vendor": "Intel",
            "features": ["pge", "clflush"],
            "topology": {"cores": 4, "threads": 2, "sockets": 2}}
_LEGACY_ACTIONS = ("enable", "disable", "disable-log-reason")


def register(service):
    service.api("GET", "/os-services", list_services)
    # admin only: the handler checks it (role=None: no project role first)
    service.api("PUT", "/os-services/{service_id}", update_service, role=None)
    service.api("GET", "/os-hypervisors", list_hypervisors)
    service.api("GET", "/os-hypervisors/detail", list_hypervisors_detail)
    service.api("GET", "/os-hypervisors/{hypervisor_id}", show_hypervisor)
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
        "zone": hosts.service_zone(req.db, row),
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
    return {"services": [_service_view(req, r) for r in rows]}


def _to_bool(value):
    """oslo ``bool_from_string`` of a value the schema's enum let through."""
    if isinstance(value, bool):
        return value
    return value.strip().lower() in ("1", "t", "true", "on", "y", "yes")


def update_service(req):
    """``PUT /os-services/{service_id}`` (an action name before 2.53)."""
    body = schemas.validate(schemas.service_update(req.microversion),
                            req.json())
    if req.microversion >= UUID_FOR_ID_MIN_VERSION:
        return _update_by_uuid(req, req.params["service_id"], body)
    return _update_by_action(req, req.params["service_id"], body)


def _update_by_action(req, action, body):
    common.require_admin(req, UPDATE_POLICY)
    actions = _LEGACY_ACTIONS + (("force-down",)
                                 if req.microversion >= "2.11" else ())
    if action not in actions:
        raise common.not_found("Unknown action")
    host, binary = body["host"], body["binary"]
    if action == "force-down":
        if "forced_down" not in body:
            raise common.bad_request("Missing forced_down field")
        forced_down = _to_bool(body["forced_down"])
        changes = {"forced_down": int(forced_down)}
        reply = {"host": host, "binary": binary, "forced_down": forced_down}
    else:
        reason = None
        if action == "disable-log-reason":
            if "disabled_reason" not in body:
                raise common.bad_request("Missing disabled reason field")
            reason = body["disabled_reason"]
        status = "enabled" if action == "enable" else "disabled"
        changes = {"disabled": int(status == "disabled"),
                   "disabled_reason": reason}
        reply = {"host": host, "binary": binary, "status": status}
        if reason:
            reply["disabled_reason"] = reason
    hosts.update_host_service(req.db, host, binary, changes)
    return {"service": reply}


def _update_by_uuid(req, ident, body):
    if not values.is_uuid(ident):
        raise common.bad_request("Invalid uuid %s" % ident)
    common.require_admin(req, UPDATE_POLICY)
    row = hosts.service_by_uuid(req.db, ident)
    hosts.check_updatable(row["binary"])
    changes = {}
    status = body.get("status")
    if status == "enabled":
        if body.get("disabled_reason"):
            raise common.bad_request("Specifying 'disabled_reason' with "
                                     "status 'enabled' is invalid.")
        changes.update(disabled=0, disabled_reason=None)
    elif status == "disabled":
        changes.update(disabled=1,
                       disabled_reason=body.get("disabled_reason"))
    # as in nova, a disabled_reason without a status is ignored
    if "forced_down" in body:
        changes["forced_down"] = int(_to_bool(body["forced_down"]))
    if not changes:
        raise common.bad_request("No updates were requested. Fields 'status' "
                                 "or 'forced_down' should be specified.")
    row = hosts.update_service(req.db, row, changes)
    return {"service": _service_view(req, row)}


# -- os-hypervisors -------------------------------------------------------------

def _hypervisor_view(req, row, detail, with_servers):
    new_ids = req.microversion >= "2.53"
    body = {
        "id": row["uuid"] if new_ids else row["id"],
        "hypervisor_hostname": row["hypervisor_hostname"],
        "state": "down" if row["forced_down"] else "up",
        "status": "disabled" if row["disabled"] else "enabled",
    }
    if detail:
        body.update({
            "hypervisor_type": "QEMU",
            "hypervisor_version": 8002000,
            "host_ip": row["host_ip"],
            "service": {"host": row["host"],
                        "id": row["service_uuid"] if new_ids
                        else row["service_id"],
                        "disabled_reason": row["disabled_reason"]},
        })
        if req.microversion >= "2.88":
            body["uptime"] = None
        else:
            body.update(hosts.node_usage(req.db, row))
            body["cpu_info"] = (CPU_INFO if req.microversion >= "2.28"
                                else json.dumps(CPU_INFO))
    if with_servers:
        hosted = hosts.servers_of_host(req.db, row["host"])
        if hosted:
            body["servers"] = hosted
    return body


def _with_servers(req):
    return req.microversion >= "2.53" and common.bool_param(
        req.arg("with_servers", "false"), "with_servers")


def _hypervisors(req, detail):
    common.require_admin(req, "os_compute_api:os-hypervisors:list")
    version = req.microversion
    with_servers = _with_servers(req)
    pattern = (req.arg("hypervisor_hostname_pattern")
               if version >= "2.53" else None)
    next_links = None
    if pattern is not None:
        if req.arg("limit") is not None or req.arg("marker") is not None:
            raise common.bad_request(
                "Paging over hypervisors with the "
                "hypervisor_hostname_pattern query parameter is not "
                "supported.")
        rows = hosts.nodes(req.db, pattern)
    else:
        rows = hosts.nodes(req.db)
        if version >= "2.33":
            key = "uuid" if version >= "2.53" else "id"
            rows, next_links = common.paginate(
                req, rows, lambda r: r[key],
                "os-hypervisors/detail" if detail else "os-hypervisors")
    body = {"hypervisors": [_hypervisor_view(req, r, detail, with_servers)
                            for r in rows]}
    if next_links:
        body["hypervisors_links"] = next_links
    return body


def list_hypervisors(req):
    return _hypervisors(req, detail=False)


def list_hypervisors_detail(req):
    return _hypervisors(req, detail=True)


def show_hypervisor(req):
    common.require_admin(req, "os_compute_api:os-hypervisors:show")
    ident = req.params["hypervisor_id"]
    column = "uuid" if req.microversion >= "2.53" else "id"
    # nova HypervisorsController._validate_id: a uuid is required from 2.53
    if column == "uuid" and not values.is_uuid(ident):
        raise common.bad_request("Invalid uuid %s" % ident)
    row = hosts.node(req.db, column, ident)
    return {"hypervisor": _hypervisor_view(req, row, True,
                                           _with_servers(req))}


# -- os-availability-zone ---------------------------------------------------------

def list_zones(req):
    return {"availabilityZoneInfo": [
        {"zoneName": name, "zoneState": {"available": available},
         "hosts": None}
        for name, available, _ in hosts.zones(req.db, include_internal=False)]}


def list_zones_detail(req):
    common.require_admin(req, "os_compute_api:os-availability-zone:detail")
    now = _heartbeat()
    info = []
    for name, available, members in hosts.zones(req.db,
                                                 include_internal=True):
        if members is not None:
            members = {host: {r["binary"]: {"available": not r["forced_down"],
                                            "active": not r["disabled"],
                                            "updated_at": now}
                              for r in rows}
                       for host, rows in members.items()}
        info.append({"zoneName": name, "zoneState": {"available": available},
                     "hosts": members})
    return {"availabilityZoneInfo": info}
