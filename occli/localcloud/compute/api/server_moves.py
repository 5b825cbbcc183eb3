"""Moves of servers: the ``migrate``, ``os-migrateLive`` and ``evacuate``
actions (dispatched by :mod:`.server_actions`), ``/servers/{id}/migrations``
(2.22-2.24: list, show, abort, force complete) and ``/os-migrations``; their
schemas, gates and views. The rules are in
:mod:`occli.localcloud.compute.moves`."""

import datetime
import json
import re
from typing import Any

from occli.localcloud import common as clock
from occli.localcloud import validation
from occli.localcloud.app import Response
from occli.localcloud.compute import migration_records as records
from occli.localcloud.compute import moves
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import schemas
from occli.localcloud.compute.api.servers import load

MIGRATIONS_INDEX_POLICY = "os_compute_api:os-migrations:index"

# nova's parameter_types.fqdn (a service's host name)
_fqdn = {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[a-zA-Z0-9-._]*$"}
_host = dict(_fqdn, type=["string", "null"])
_migrate = schemas.one_member(
    "migrate",
    {
        "type": ["object", "null"],
        "properties": {"host": _host},
        "additionalProperties": False,
    },
)
_BOOLEAN_VALUES: list = schemas.boolean["enum"]  # type: ignore[assignment, index]
_block_migration_auto = dict(schemas.boolean, enum=[*_BOOLEAN_VALUES, "auto"])


def _live_schema(version):
    """Nova's ``migrate_live`` schemas (2.0, 2.25, 2.30, 2.68)."""
    properties = {"block_migration": schemas.boolean, "host": _host}
    required = ["block_migration", "host"]
    if version < "2.25":
        properties["disk_over_commit"] = schemas.boolean
        required.append("disk_over_commit")
    else:
        properties["block_migration"] = _block_migration_auto
    if version.within("2.30", "2.67"):
        properties["force"] = schemas.boolean
    return schemas.one_member(
        "os-migrateLive",
        {
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": False,
        },
    )


def _evacuate_schema(version):
    """Nova's ``evacuate`` schemas (2.0, 2.14, 2.29, 2.68)."""
    body: dict[str, Any] = {
        "type": "object",
        "properties": {"host": _fqdn, "adminPass": schemas.admin_password},
        "additionalProperties": False,
    }
    if version < "2.14":
        body["properties"]["onSharedStorage"] = schemas.boolean
        body["required"] = ["onSharedStorage"]
    if version.within("2.29", "2.67"):
        body["properties"]["force"] = schemas.boolean
    return schemas.one_member("evacuate", body)


_force_complete = schemas.one_member("force_complete", {"type": "null"})


def _bool(value):
    """oslo's ``bool_from_string`` of a value the schema let through."""
    return validation.bool_from_string(value)


def timing(req):
    config = req.cloud.config
    return moves.Timing(config.build_time, config.live_migration_time)


# -- the actions ---------------------------------------------------------------


def migrate(req, server, value):
    host = None
    if req.microversion >= "2.56":
        schemas.validate(_migrate, {"migrate": value})
        host = (value or {}).get("host")
    moves.migrate(req.db, common.caller(req), server, timing(req), host)
    return Response(202)


def live_migrate(req, server, value):
    version = req.microversion
    data = schemas.validate(_live_schema(version), {"os-migrateLive": value})["os-migrateLive"]
    host = data["host"]
    force = False
    if version.within("2.30", "2.67"):
        force = _bool(data.get("force", False))
        if force and not host:
            raise common.bad_request("Can't force to a non-provided destination")
    moves.live_migrate(
        req.db,
        common.caller(req),
        server,
        timing(req),
        host,
        force=force,
        async_=version >= "2.34",
    )
    return Response(202)


def evacuate(req, server, value):
    version = req.microversion
    data = schemas.validate(_evacuate_schema(version), {"evacuate": value})["evacuate"]
    common.caller(req).require_admin(moves.EVACUATE_POLICY)
    host = data.get("host")
    force = False
    if version.within("2.29", "2.67"):
        force = _bool(data.get("force", False))
        if force and not host:
            raise common.bad_request("Can't force to a non-provided destination")
    shared = version < "2.14" and _bool(data["onSharedStorage"])
    if shared and "adminPass" in data:
        raise common.bad_request("admin password can't be changed on existing disk")
    password = None if shared else moves.new_password(data.get("adminPass"))
    moves.evacuate(
        req.db,
        common.caller(req),
        server,
        timing(req),
        host,
        force=force,
        stopped=version >= "2.95",
    )
    if version < "2.14":
        return Response(200, {"adminPass": password})
    return Response(200)


def resized(req, server):
    """After a resize started: its migration record."""
    moves.record_resize(
        req.db,
        common.caller(req),
        server,
        timing(req),
        same_host=req.cloud.config.allow_resize_to_same_host,
    )


def confirmed(req, server):
    """After a resize or migration was confirmed."""
    moves.confirmed(req.db, server)


def reverting(req, server):
    """After a revert started: the server goes back to its source host."""
    moves.reverting(req.db, server, timing(req))


# -- /servers/{id}/migrations ----------------------------------------------------


def register(service):
    base = "/servers/{server_id}/migrations"
    service.api("GET", base, list_server_migrations, min_version="2.23")
    service.api("GET", base + "/{migration_id}", show_server_migration, min_version="2.23")
    service.api("DELETE", base + "/{migration_id}", abort_migration, min_version="2.24", role=None)
    service.api(
        "POST",
        base + "/{migration_id}/action",
        migration_action,
        min_version="2.22",
        role=None,
    )
    service.api("GET", "/os-migrations", list_migrations)


def _server_migration_view(req, record, server):
    """Nova's ``server_migrations.output`` (memory figures from the flavor,
    as far as the migration got)."""
    total = json.loads(record["new_flavor"])["ram"] * 1024 * 1024
    done = {"queued": 0, "preparing": 0}.get(record["status"], total // 2)
    body = {
        "created_at": record["created_at"],
        "dest_compute": record["dest_compute"],
        "dest_host": record["dest_host"],
        "dest_node": record["dest_node"],
        "disk_processed_bytes": 0,
        "disk_remaining_bytes": 0,
        "disk_total_bytes": 0,
        "id": record["id"],
        "memory_processed_bytes": done,
        "memory_remaining_bytes": total - done,
        "memory_total_bytes": total,
        "server_uuid": record["instance_uuid"],
        "source_compute": record["source_compute"],
        "source_node": record["source_node"],
        "status": record["status"],
        "updated_at": record["updated_at"],
    }
    if req.microversion >= "2.59":
        body["uuid"] = record["uuid"]
    if req.microversion >= "2.80":
        body["user_id"] = record["user_id"]
        body["project_id"] = record["project_id"]
    return body


def list_server_migrations(req):
    server = load(req)
    common.require_admin(req, moves.SERVER_MIGRATIONS_POLICY % "index")
    found = [
        r
        for r in records.of_instance(req.db, server["id"], records.LIVE)
        if r["status"] in records.LIVE_IN_PROGRESS
    ]
    return Response(200, {"migrations": [_server_migration_view(req, r, server) for r in found]})


def show_server_migration(req):
    server = load(req)
    common.require_admin(req, moves.SERVER_MIGRATIONS_POLICY % "show")
    ident, uuid = req.params["migration_id"], server["id"]
    record = records.get(req.db, ident)
    if record is None or record["instance_uuid"] != uuid:
        raise common.not_found(
            "In-progress live migration %s is not found for server %s." % (ident, uuid)
        )
    if record["migration_type"] != records.LIVE:
        raise common.not_found("Migration %s for server %s is not live-migration." % (ident, uuid))
    if record["status"] not in records.LIVE_IN_PROGRESS:
        raise common.not_found(
            "Live migration %s for server %s is not in progress." % (ident, uuid)
        )
    return Response(200, {"migration": _server_migration_view(req, record, server)})


def abort_migration(req):
    server = load(req)
    moves.abort(
        req.db,
        common.caller(req),
        server,
        req.params["migration_id"],
        allow_queued=req.microversion >= "2.65",
    )
    return Response(202)


def migration_action(req):
    body = req.json()
    server = load(req)
    if isinstance(body, dict) and len(body) == 1 and "force_complete" not in body:
        raise common.bad_request("There is no such action: %s" % next(iter(body)))
    schemas.validate(_force_complete, body)
    moves.force_complete(req.db, common.caller(req), server, req.params["migration_id"])
    return Response(202)


# -- /os-migrations ----------------------------------------------------------------

_FILTERS = ("hidden", "host", "instance_uuid", "source_compute", "status", "migration_type")
_DIGITS = re.compile(r"^[0-9]*$")


def _allowed_params(version):
    allowed = set(_FILTERS)
    if version >= "2.59":
        allowed |= {"limit", "marker", "changes-since"}
    if version >= "2.66":
        allowed.add("changes-before")
    if version >= "2.80":
        allowed |= {"user_id", "project_id"}
    return allowed


def _query_error(name, value, message):
    return common.bad_request(
        "Invalid input for query parameters %s. Value: %s. %s" % (name, value, message)
    )


def _time_param(req, name):
    value = req.arg(name)
    try:
        parsed = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise _query_error(name, value, "'%s' is not a 'date-time'" % value) from None
    if parsed.tzinfo is None:
        raise _query_error(name, value, "'%s' is not a 'date-time'" % value)
    return clock.iso_naive_micro(parsed)


def _search(req):
    """The filters of a list request, checked as nova's query schemas."""
    version = req.microversion
    allowed = _allowed_params(version)
    if version >= "2.59":
        for name in req.query:
            if name not in allowed:
                raise common.bad_request(
                    "Additional properties are not allowed ('%s' was unexpected)" % name
                )
    filters = {name: req.arg(name) for name in allowed & set(req.query) if name in _FILTERS}
    filters.pop("hidden", None)
    if version >= "2.80":
        for name in ("user_id", "project_id"):
            if req.arg(name) is not None:
                filters[name] = req.arg(name)
    for name in ("changes-since", "changes-before"):
        if name in allowed and req.arg(name) is not None:
            filters[name] = _time_param(req, name)
    since, before = filters.get("changes-since"), filters.get("changes-before")
    if since and before and before < since:
        raise common.bad_request(
            "The value of changes-since must be less than or equal to changes-before."
        )
    return filters


def _migration_view(req, record):
    version = req.microversion
    body = {"id": record["id"]}
    if version >= "2.59":
        body["uuid"] = record["uuid"]
    for key in (
        "source_compute",
        "dest_compute",
        "source_node",
        "dest_node",
        "dest_host",
        "old_instance_type_id",
        "new_instance_type_id",
        "instance_uuid",
        "status",
    ):
        body[key] = record[key]
    if version >= "2.23":
        body["migration_type"] = record["migration_type"]
    if version >= "2.80":
        body["user_id"] = record["user_id"]
        body["project_id"] = record["project_id"]
    body["created_at"] = record["created_at"]
    body["updated_at"] = record["updated_at"]
    if (
        version >= "2.23"
        and record["migration_type"] == records.LIVE
        and record["status"] in records.LIVE_IN_PROGRESS
    ):
        body["links"] = common.links(
            req, "servers/%s/migrations" % record["instance_uuid"], record["id"]
        )
    return body


def list_migrations(req):
    common.require_admin(req, MIGRATIONS_INDEX_POLICY)
    version = req.microversion
    filters = _search(req)
    found = records.search(req.db, filters)
    if version < "2.59":
        return Response(200, {"migrations": [_migration_view(req, r) for r in found]})
    raw_limit = req.arg("limit")
    if raw_limit is not None and not _DIGITS.match(raw_limit):
        raise _query_error("limit", raw_limit, "'%s' does not match '^[0-9]*$'" % raw_limit)
    found.sort(key=lambda r: (r["created_at"], r["id"]), reverse=True)
    page, links = common.paginate(
        req,
        found,
        lambda r: r["uuid"],
        "os-migrations",
        marker_message="Marker %s could not be found.",
    )
    body = {"migrations": [_migration_view(req, r) for r in page]}
    if links:
        body["migrations_links"] = links
    return Response(200, body)
