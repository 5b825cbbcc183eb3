"""Compute hosts: ``/os-services``, ``/os-hypervisors``, ``/os-availability-zone``.

The cloud has one ``controller`` host (nova-scheduler, nova-conductor, zone
``internal``) and ``config.compute_hosts`` compute hosts ``host1``…``hostN``
(nova-compute plus one hypervisor node each, named like the host).

``PUT /os-services/{id}`` follows nova's ``ServiceController.update``: before
2.53 ``{id}`` is an action (``enable``, ``disable``, ``disable-log-reason``,
from 2.11 ``force-down``) and the body names ``host`` and ``binary``; from
2.53 ``{id}`` is the service uuid and the body sets ``status`` and/or
``forced_down``. Only nova-compute services can be updated. The scheduler
reads ``disabled``/``forced_down`` directly (``ComputeFilter``).
"""

import json

from occli.localcloud import common
from occli.localcloud.compute import (aggregates, base, scheduler, schemas,
                                      servers)

CONTROLLER = "controller"
INTERNAL_ZONE = "internal"
CONTROL_BINARIES = ("nova-scheduler", "nova-conductor")
COMPUTE_BINARY = "nova-compute"

# Each node's size: the scheduler's inventory (see scheduler.py) and what
# os-hypervisors reports. 64 vCPUs x 16.0 = 1024 schedulable vCPUs, 256 GiB
# RAM (less 512 MB reserved) x 1.5, 2 TiB disk x 1.0 per host.
NODE_VCPUS = 64
NODE_MEMORY_MB = 262144
NODE_LOCAL_GB = 2048
# The sizes seeded before the scheduler existed (migrated to the above).
_OLD_NODE_SIZE = (16, 32768, 500)
CPU_INFO = {"arch": "x86_64", "model": "Nehalem", "vendor": "Intel",
            "features": ["pge", "clflush"],
            "topology": {"cores": 4, "threads": 2, "sockets": 2}}

MIGRATIONS = [
    """
    CREATE TABLE compute_services (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        uuid TEXT NOT NULL UNIQUE,
        binary TEXT NOT NULL,
        host TEXT NOT NULL,
        disabled INTEGER NOT NULL DEFAULT 0,
        disabled_reason TEXT,
        forced_down INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        UNIQUE (binary, host)
    );
    CREATE TABLE compute_nodes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        uuid TEXT NOT NULL UNIQUE,
        host TEXT NOT NULL UNIQUE,
        hypervisor_hostname TEXT NOT NULL,
        host_ip TEXT NOT NULL,
        vcpus INTEGER NOT NULL,
        memory_mb INTEGER NOT NULL,
        local_gb INTEGER NOT NULL,
        created_at TEXT NOT NULL
    );
    """,
    # the nodes became the scheduler's inventory: grow the old default size
    "UPDATE compute_nodes SET vcpus = %d, memory_mb = %d, local_gb = %d"
    " WHERE vcpus = %d AND memory_mb = %d AND local_gb = %d"
    % ((NODE_VCPUS, NODE_MEMORY_MB, NODE_LOCAL_GB) + _OLD_NODE_SIZE),
]


def seed(db, config):
    now = common.iso_naive_micro(common.utcnow())
    rows = [(b, CONTROLLER) for b in CONTROL_BINARIES]
    rows += [(COMPUTE_BINARY, "host%d" % i)
             for i in range(1, config.compute_hosts + 1)]
    for binary, host in rows:
        db.execute(
            "INSERT OR IGNORE INTO compute_services (uuid, binary, host,"
            " created_at) VALUES (?, ?, ?, ?)",
            (common.new_uuid(), binary, host, now))
    for i in range(1, config.compute_hosts + 1):
        db.execute(
            "INSERT OR IGNORE INTO compute_nodes (uuid, host,"
            " hypervisor_hostname, host_ip, vcpus, memory_mb, local_gb,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (common.new_uuid(), "host%d" % i, "host%d" % i,
             "192.168.122.%d" % (10 + i), NODE_VCPUS, NODE_MEMORY_MB,
             NODE_LOCAL_GB, now))


def register(service):
    service.api("GET", "/os-services", list_services)
    service.api("PUT", "/os-services/{service_id}", update_service)
    service.api("GET", "/os-hypervisors", list_hypervisors)
    service.api("GET", "/os-hypervisors/detail", list_hypervisors_detail)
    service.api("GET", "/os-hypervisors/{hypervisor_id}", show_hypervisor)
    service.api("GET", "/os-availability-zone", list_zones)
    service.api("GET", "/os-availability-zone/detail", list_zones_detail)


def compute_hosts(db):
    """Names of all compute hosts, in creation order."""
    return [r["host"] for r in db.execute(
        "SELECT host FROM compute_services WHERE binary = ? ORDER BY id",
        (COMPUTE_BINARY,))]


def compute_service(db, host):
    return db.execute(
        "SELECT * FROM compute_services WHERE binary = ? AND host = ?",
        (COMPUTE_BINARY, host)).fetchone()


def host_status(db, host):
    """Nova's ``host_status`` of a server on ``host`` (2.16)."""
    if not host:
        return ""
    svc = compute_service(db, host)
    if svc is None or svc["forced_down"]:
        return "DOWN"
    return "MAINTENANCE" if svc["disabled"] else "UP"


def _zone(db, row):
    if row["binary"] == COMPUTE_BINARY:
        return aggregates.host_zone(db, row["host"])
    return INTERNAL_ZONE


def _heartbeat():
    return common.iso_naive_micro(common.utcnow())


def _service_view(req, row):
    body = {
        "id": row["uuid"] if req.microversion >= "2.53" else row["id"],
        "binary": row["binary"],
        "host": row["host"],
        "zone": _zone(req.db, row),
        "status": "disabled" if row["disabled"] else "enabled",
        "state": "down" if row["forced_down"] else "up",
        "updated_at": _heartbeat(),
        "disabled_reason": row["disabled_reason"],
    }
    if req.microversion >= "2.11":
        body["forced_down"] = bool(row["forced_down"])
    return body


def list_services(req):
    base.require_admin(req, "os_compute_api:os-services:list")
    sql, args = "SELECT * FROM compute_services WHERE 1 = 1", []
    for param in ("binary", "host"):
        value = req.arg(param)
        if value is not None:
            sql += " AND %s = ?" % param
            args.append(value)
    rows = req.db.execute(sql + " ORDER BY id", args).fetchall()
    return {"services": [_service_view(req, r) for r in rows]}


# -- PUT /os-services/{id} ----------------------------------------------------

UPDATE_POLICY = "os_compute_api:os-services:update"
UUID_FOR_ID_MIN_VERSION = "2.53"
# nova parameter_types.fqdn (the services table's host), service schemas
_HOST = {"type": "string", "minLength": 1, "maxLength": 255,
         "pattern": "^[a-zA-Z0-9-._]*$"}
_BINARY = {"type": "string", "minLength": 1, "maxLength": 255}
_REASON = {"type": "string", "minLength": 1, "maxLength": 255}
_LEGACY_ACTIONS = ("enable", "disable", "disable-log-reason")


def update_schema(version):
    """nova ``service_update`` (2.1-2.10), ``_v211`` (up to 2.52), 2.53."""
    if version >= UUID_FOR_ID_MIN_VERSION:
        return {"type": "object",
                "properties": {"status": {"type": "string",
                                          "enum": ["enabled", "disabled"]},
                               "disabled_reason": _REASON,
                               "forced_down": schemas.boolean},
                "additionalProperties": False}
    props = {"host": _HOST, "binary": _BINARY, "disabled_reason": _REASON}
    if version >= "2.11":
        props["forced_down"] = schemas.boolean
    return {"type": "object", "properties": props,
            "required": ["host", "binary"], "additionalProperties": False}


def _to_bool(value):
    """oslo ``bool_from_string`` of a value the schema's enum let through."""
    if isinstance(value, bool):
        return value
    return value.strip().lower() in ("1", "t", "true", "on", "y", "yes")


def _only_compute(binary):
    if binary != COMPUTE_BINARY:
        raise base.bad_request(
            "Updating a %s service is not supported. Only nova-compute "
            "services can be updated." % binary)


def _save(db, row_id, **columns):
    sets = ", ".join("%s = ?" % name for name in columns)
    db.execute("UPDATE compute_services SET %s WHERE id = ?" % sets,
               list(columns.values()) + [row_id])


def update_service(req):
    """``PUT /os-services/{service_id}`` (an action name before 2.53)."""
    body = schemas.validate(update_schema(req.microversion), req.json())
    if req.microversion >= UUID_FOR_ID_MIN_VERSION:
        return _update_by_uuid(req, req.params["service_id"], body)
    return _update_by_action(req, req.params["service_id"], body)


def _update_by_action(req, action, body):
    base.require_admin(req, UPDATE_POLICY)
    actions = _LEGACY_ACTIONS + (("force-down",)
                                 if req.microversion >= "2.11" else ())
    if action not in actions:
        raise base.not_found("Unknown action")
    host, binary = body["host"], body["binary"]
    if action == "force-down":
        if "forced_down" not in body:
            raise base.bad_request("Missing forced_down field")
        forced_down = _to_bool(body["forced_down"])
        changes = {"forced_down": int(forced_down)}
        reply = {"host": host, "binary": binary, "forced_down": forced_down}
    else:
        reason = None
        if action == "disable-log-reason":
            if "disabled_reason" not in body:
                raise base.bad_request("Missing disabled reason field")
            reason = body["disabled_reason"]
        status = "enabled" if action == "enable" else "disabled"
        changes = {"disabled": int(status == "disabled"),
                   "disabled_reason": reason}
        reply = {"host": host, "binary": binary, "status": status}
        if reason:
            reply["disabled_reason"] = reason
    _only_compute(binary)
    row = compute_service(req.db, host)
    if row is None:
        # nova looks the host up in the cell mappings first
        raise base.not_found("Host '%s' is not mapped to any cell" % host)
    _save(req.db, row["id"], **changes)
    return {"service": reply}


def _update_by_uuid(req, ident, body):
    if not base.is_uuid(ident):
        raise base.bad_request("Invalid uuid %s" % ident)
    base.require_admin(req, UPDATE_POLICY)
    row = req.db.execute("SELECT * FROM compute_services WHERE uuid = ?",
                         (ident,)).fetchone()
    if row is None:
        raise base.not_found("Service %s could not be found." % ident)
    _only_compute(row["binary"])
    changes = {}
    status = body.get("status")
    if status == "enabled":
        if body.get("disabled_reason"):
            raise base.bad_request("Specifying 'disabled_reason' with status "
                                   "'enabled' is invalid.")
        changes.update(disabled=0, disabled_reason=None)
    elif status == "disabled":
        changes.update(disabled=1,
                       disabled_reason=body.get("disabled_reason"))
    # as in nova, a disabled_reason without a status is ignored
    if "forced_down" in body:
        changes["forced_down"] = int(_to_bool(body["forced_down"]))
    if not changes:
        raise base.bad_request("No updates were requested. Fields 'status' "
                               "or 'forced_down' should be specified.")
    _save(req.db, row["id"], **changes)
    row = req.db.execute("SELECT * FROM compute_services WHERE id = ?",
                         (row["id"],)).fetchone()
    return {"service": _service_view(req, row)}


def _node_rows(db):
    return db.execute(
        "SELECT n.*, s.id AS service_id, s.uuid AS service_uuid,"
        " s.disabled, s.disabled_reason, s.forced_down"
        " FROM compute_nodes n JOIN compute_services s"
        " ON s.host = n.host AND s.binary = ? ORDER BY n.id",
        (COMPUTE_BINARY,)).fetchall()


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
            body.update(_statistics(req, row))
    if with_servers:
        hosted = servers.servers_of_host(req.db, row["host"])
        if hosted:
            body["servers"] = [{"name": s["name"], "uuid": s["uuid"]}
                               for s in hosted]
    return body


def _statistics(req, row):
    usage = servers.host_usage(req.db, row["host"])
    cpu_info = CPU_INFO if req.microversion >= "2.28" else json.dumps(CPU_INFO)
    free_disk = row["local_gb"] - usage["disk"]
    return {
        "vcpus": row["vcpus"],
        "memory_mb": row["memory_mb"],
        "local_gb": row["local_gb"],
        "vcpus_used": usage["vcpus"],
        "memory_mb_used": usage["ram"] + scheduler.RESERVED_HOST_MEMORY_MB,
        "local_gb_used": usage["disk"],
        "free_ram_mb": (row["memory_mb"] - usage["ram"]
                        - scheduler.RESERVED_HOST_MEMORY_MB),
        "free_disk_gb": free_disk,
        "current_workload": usage["busy"],
        "running_vms": usage["count"],
        "disk_available_least": free_disk,
        "cpu_info": cpu_info,
    }


def _hypervisors(req, detail):
    base.require_admin(req, "os_compute_api:os-hypervisors:list")
    version = req.microversion
    rows = _node_rows(req.db)
    with_servers = False
    pattern = None
    if version >= "2.53":
        with_servers = base.bool_param(req.arg("with_servers", "false"),
                                       "with_servers")
        pattern = req.arg("hypervisor_hostname_pattern")
    if pattern is not None:
        if req.arg("limit") is not None or req.arg("marker") is not None:
            raise base.bad_request(
                "Paging over hypervisors with the "
                "hypervisor_hostname_pattern query parameter is not "
                "supported.")
        rows = [r for r in rows if pattern in r["hypervisor_hostname"]]
        if not rows:
            raise base.not_found("No hypervisor matching '%s' could be found."
                                 % pattern)
        next_links = None
    elif version >= "2.33":
        key = "uuid" if version >= "2.53" else "id"
        rows, next_links = base.paginate(
            req, rows, lambda r: r[key],
            "os-hypervisors/detail" if detail else "os-hypervisors",
            marker_message="marker [%s] not found")
    else:
        next_links = None
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
    base.require_admin(req, "os_compute_api:os-hypervisors:show")
    ident = req.params["hypervisor_id"]
    column = "uuid" if req.microversion >= "2.53" else "id"
    # nova HypervisorsController._validate_id: a uuid is required from 2.53
    if column == "uuid" and not base.is_uuid(ident):
        raise base.bad_request("Invalid uuid %s" % ident)
    for row in _node_rows(req.db):
        if str(row[column]) == ident:
            with_servers = (req.microversion >= "2.53" and base.bool_param(
                req.arg("with_servers", "false"), "with_servers"))
            return {"hypervisor": _hypervisor_view(req, row, True,
                                                   with_servers)}
    raise base.not_found("Hypervisor with ID %s could not be found." % ident)


def _zones(db, include_internal):
    """``[(zone, available, {host: [enabled service rows]})]``: nova's
    ``get_availability_zones`` — a zone is available when it has an enabled
    service, else listed as not available — available zones first (each
    group by name; nova's order comes from sets). As in nova's verbose
    listing, disabled services are left out of ``hosts``."""
    enabled, disabled = {}, set()
    for row in db.execute("SELECT * FROM compute_services ORDER BY id"):
        zone = _zone(db, row)
        if zone == INTERNAL_ZONE and not include_internal:
            continue
        if row["disabled"]:
            disabled.add(zone)
        else:
            enabled.setdefault(zone, {}).setdefault(row["host"], []).append(
                row)
    return ([(name, True, enabled[name]) for name in sorted(enabled)]
            + [(name, False, None)
               for name in sorted(disabled - set(enabled))])


def list_zones(req):
    return {"availabilityZoneInfo": [
        {"zoneName": name, "zoneState": {"available": available},
         "hosts": None}
        for name, available, _ in _zones(req.db, include_internal=False)]}


def list_zones_detail(req):
    base.require_admin(req, "os_compute_api:os-availability-zone:detail")
    now = _heartbeat()
    info = []
    for name, available, hosts in _zones(req.db, include_internal=True):
        if hosts is not None:
            hosts = {host: {r["binary"]: {"available": not r["forced_down"],
                                          "active": not r["disabled"],
                                          "updated_at": now}
                            for r in rows}
                     for host, rows in hosts.items()}
        info.append({"zoneName": name, "zoneState": {"available": available},
                     "hosts": hosts})
    return {"availabilityZoneInfo": info}
