"""Cinder's services (``cinder/api/v3/services.py``, ``contrib/hosts.py``):
the local cloud's scheduler, volume and backup services, always up, with
what an admin sets on them (disabled and its reason, frozen) kept in
``volume_services``."""

import sqlite3
from collections.abc import Mapping
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.volume import rows

SCHEDULER = "cinder-scheduler"
VOLUME = "cinder-volume"
BACKUP = "cinder-backup"
HOST = "localcloud"
BACKEND = HOST + "@lvm"
# (binary, host, topic) of each service, as devstack's single node runs them
SERVICES = (
    (SCHEDULER, HOST, "cinder-scheduler"),
    (VOLUME, BACKEND, "cinder-volume"),
    (BACKUP, HOST, "cinder-backup"),
)
# cinder/api/schemas/services.py enable_and_disable / disable_log_reason
_HOST = {
    "type": ["string", "null"],
    "minLength": 1,
    "maxLength": 255,
    "pattern": r"^[a-zA-Z0-9-._#@:/+\[\]]*$",
}
_BINARY = {"type": "string", "minLength": 1, "maxLength": 255}
ENABLE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "binary": _BINARY,
        "host": _HOST,
        "cluster": {"type": ["string", "null"]},
        "service": _BINARY,
    },
    "anyOf": [{"required": ["binary"]}, {"required": ["service"]}],
    "additionalProperties": False,
}
DISABLE_REASON: dict[str, Any] = {
    **ENABLE,
    "properties": {
        **ENABLE["properties"],
        "disabled_reason": {"type": "string", "minLength": 1, "maxLength": 255},
    },
}
FREEZE: dict[str, Any] = {
    "type": "object",
    "properties": {"cluster": {"type": ["string", "null"]}, "host": _HOST},
    "additionalProperties": False,
}

# cinder/api/schemas/services.py failover_host
FAILOVER: dict[str, Any] = {
    "type": "object",
    "properties": {
        "host": {"type": ["string", "null"], "minLength": 1, "maxLength": 255,
                 "pattern": r"^[a-zA-Z0-9-._#@:/+\[\]]*$"},
        "backend_id": {"type": ["string", "null"]},
        "cluster": {"type": ["string", "null"]},
    },
    "additionalProperties": False,
}  # fmt: skip


def _state(db: sqlite3.Connection) -> dict[tuple[str, str], dict[str, Any]]:
    return {(r["binary"], r["host"]): dict(r) for r in db.execute("SELECT * FROM volume_services")}


def listing(db: sqlite3.Connection, host: str | None = None, binary: str | None = None) -> list:
    """Every service as Cinder's ``Service`` objects read (``disabled``,
    ``disabled_reason``, ``frozen``, ``updated_at``), filtered by exact
    ``host`` and ``binary``."""
    state = _state(db)
    now = common.iso_naive_micro(common.utcnow())
    found = []
    for svc_binary, svc_host, topic in SERVICES:
        if host is not None and host != svc_host:
            continue
        if binary is not None and binary != svc_binary:
            continue
        row = state.get((svc_binary, svc_host), {})
        found.append(
            {
                "binary": svc_binary,
                "host": svc_host,
                "topic": topic,
                "zone": rows.ZONE,
                "disabled": bool(row.get("disabled", 0)),
                "disabled_reason": row.get("disabled_reason"),
                "frozen": bool(row.get("frozen", 0)),
                "updated_at": row.get("modified_at") or now,
            }
        )
    return found


def get(db: sqlite3.Connection, host: str, binary: str) -> dict[str, Any]:
    """The service; 404 ``ServiceNotFound`` (recorded in
    tests/fixtures/volume/realcloud/cinder-29-admin.json)."""
    found = listing(db, host, binary)
    if not found:
        raise errors.NotFound("Service %s could not be found on host %s." % (binary, host))
    return found[0]


def _save(db: sqlite3.Connection, service: dict[str, Any]) -> None:
    db.execute(
        "INSERT OR REPLACE INTO volume_services (binary, host, disabled, disabled_reason, frozen,"
        " modified_at) VALUES (?, ?, ?, ?, ?, ?)",
        (
            service["binary"],
            service["host"],
            int(service["disabled"]),
            service["disabled_reason"],
            int(service["frozen"]),
            common.iso_naive_micro(common.utcnow()),
        ),
    )


def set_disabled(
    db: sqlite3.Connection, host: str, binary: str, disabled: bool, reason: str | None = None
) -> dict[str, Any]:
    """Enable or disable the service (a reason kept only when given, as
    Cinder's ``disable_log_reason``; enabling clears it)."""
    service = get(db, host, binary)
    service["disabled"] = disabled
    if not disabled:
        service["disabled_reason"] = None
    elif reason:
        service["disabled_reason"] = reason
    _save(db, service)
    return service


def set_frozen(db: sqlite3.Connection, host: str, frozen: bool) -> None:
    """Freeze or thaw the volume backend on ``host`` (Cinder's
    ``freeze_host``/``thaw_host``: 400 ``ServiceNotFound`` as
    ``InvalidInput`` for another host)."""
    found = listing(db, host, VOLUME)
    if not found:
        raise errors.BadRequest("Invalid input received: Service %s could not be found." % host)
    service = found[0]
    service["frozen"] = frozen
    _save(db, service)


def failover(db: sqlite3.Connection, host: str | None, cluster: str | None) -> None:
    """``failover_host`` of the volume backend on ``host`` (or in
    ``cluster``, none here): Cinder's 400s (cinder/volume/api.py
    ``_replication_db_change``), the local backend not being replicated."""
    backend = host.split("#")[0] if host else None
    found = listing(db, backend, VOLUME) if backend else []
    if not found:
        where = "host=%s" % host if host else "cluster=%s" % cluster
        raise errors.BadRequest("Invalid input received: No service found with %s" % where)
    raise errors.BadRequest(
        "Invalid input received: No service could be changed: replication_status in %s must be"
        " ['enabled', 'failed-over'] and must be up to failover." % [found[0]["host"]]
    )


API = "cinder-api"
# cinder/common/constants.py LOG_BINARIES
LOG_BINARIES = (SCHEDULER, VOLUME, BACKUP, API)
# cinder/utils.py LOG_LEVELS
LOG_LEVELS = ("INFO", "WARNING", "ERROR", "DEBUG")
# the loggers each process holds (a subset of the modules that log: Cinder
# lists every oslo logger of the process), at Cinder's default INFO
LOGGERS = {
    API: ("cinder", "cinder.api", "cinder.api.openstack.wsgi", "cinder.volume.api"),
    SCHEDULER: ("cinder", "cinder.scheduler.manager", "cinder.scheduler.host_manager"),
    VOLUME: ("cinder", "cinder.volume.manager", "cinder.volume.drivers.lvm"),
    BACKUP: ("cinder", "cinder.backup.manager", "cinder.backup.drivers.swift"),
}
# cinder/api/schemas/services.py set_log / get_log
_LOG_PROPERTIES = {
    "binary": {"type": "string", "enum": [*LOG_BINARIES, "", "*"]},
    "server": {"type": ["string", "null"]},
    "prefix": {"type": ["string", "null"]},
}
GET_LOG: dict[str, Any] = {
    "type": "object",
    "properties": _LOG_PROPERTIES,
    "additionalProperties": False,
}
SET_LOG: dict[str, Any] = {
    **GET_LOG,
    "properties": {**_LOG_PROPERTIES, "level": {"type": ["string", "null"]}},
}


def _log_targets(body: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(host, binary)`` of the processes a set-log/get-log reaches
    (Cinder's ``_log_params_binaries_services``: every binary for none,
    ``*`` or ``""``; ``server``: one host; the API process is this one)."""
    binary, server = body.get("binary"), body.get("server")
    binaries = LOG_BINARIES if binary in ("*", None, "") else (binary,)
    targets = [(HOST, API)] if API in binaries and server in (None, "", HOST) else []
    if binary != API:
        targets += [
            (svc[1], svc[0])
            for svc in SERVICES
            if svc[0] in binaries and server in (None, "", svc[1])
        ]
    return targets


def set_log(db: sqlite3.Connection, body: Mapping[str, Any]) -> None:
    """Set the level of the reached processes' loggers named with the
    ``prefix`` (cinder/utils.py ``set_log_levels``); 400 for a level that is
    not one of Cinder's (its ``level`` format check)."""
    level = body.get("level") or ""
    if level.upper() not in LOG_LEVELS:
        raise errors.BadRequest("Invalid input received: %s is not a valid log level." % level)
    prefix = body.get("prefix") or ""
    for _host, binary in _log_targets(body):
        for logger in LOGGERS[binary]:
            if logger.startswith(prefix):
                db.execute(
                    "INSERT OR REPLACE INTO volume_log_levels (binary, logger, level)"
                    " VALUES (?, ?, ?)",
                    (binary, logger, level.upper()),
                )


def get_log(db: sqlite3.Connection, body: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The levels of the reached processes' loggers named with the
    ``prefix`` (cinder/utils.py ``get_log_levels``)."""
    prefix = body.get("prefix") or ""
    stored = {
        (r["binary"], r["logger"]): r["level"]
        for r in db.execute("SELECT * FROM volume_log_levels")
    }
    return [
        {
            "host": host,
            "binary": binary,
            "levels": {
                logger: stored.get((binary, logger), "INFO")
                for logger in LOGGERS[binary]
                if logger.startswith(prefix)
            },
        }
        for host, binary in _log_targets(body)
    ]


def usage_by_project(db: sqlite3.Connection) -> dict[str, dict[str, int]]:
    """What each project has on the volume backend (``os-hosts/{host}``:
    Cinder's ``volume_data_get_for_project`` and its snapshots'), in the
    order of the projects' first volume."""
    usage: dict[str, dict[str, int]] = {}
    for row in db.execute(
        "SELECT project_id, COUNT(*) AS n, COALESCE(SUM(size), 0) AS gb FROM volumes"
        " GROUP BY project_id ORDER BY MIN(seq)"
    ):
        usage[row["project_id"]] = {
            "volume_count": row["n"],
            "total_volume_gb": row["gb"],
            "snapshot_count": 0,
            "total_snapshot_gb": 0,
        }
    for row in db.execute(
        "SELECT project_id, COUNT(*) AS n, COALESCE(SUM(size), 0) AS gb FROM volume_snapshots"
        " GROUP BY project_id"
    ):
        if row["project_id"] in usage:
            usage[row["project_id"]]["snapshot_count"] = row["n"]
            usage[row["project_id"]]["total_snapshot_gb"] = row["gb"]
    return usage
