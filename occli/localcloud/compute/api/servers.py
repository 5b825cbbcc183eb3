"""``/servers`` and its twin ``/os-volumes_boot``: list (filters, sorting,
paging), show, create, update and delete.

Handlers turn the request into plain values — a search dict for lists, a
:class:`~occli.localcloud.compute.build.BuildRequest` for a create — call
the rules in :mod:`occli.localcloud.compute.servers` and render
:func:`.server_views.view`. Reads run in a read transaction; the lazy
progress they compute is persisted by the rules in a short write. A create
runs outside any transaction: the rules make its servers in short write
transactions of their own.
"""

import datetime

from occli.localcloud import validation
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.compute import block_devices
from occli.localcloud.compute import build
from occli.localcloud.compute import servers
from occli.localcloud.compute import shelve
from occli.localcloud.compute import soft_delete
from occli.localcloud.compute import states
from occli.localcloud.compute import values
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import schemas
from occli.localcloud.compute.api import server_list_query
from occli.localcloud.compute.api.server_views import Views
from occli.localcloud.compute.api.server_views import view

# /os-volumes_boot is served by nova 2.1-2.102 and gone (404) from 2.103.
VOLUMES_BOOT_MAX_VERSION = "2.102"

LIST_PARAMS = frozenset(
    [
        "user_id",
        "project_id",
        "tenant_id",
        "launch_index",
        "image_ref",
        "image",
        "kernel_id",
        "ramdisk_id",
        "hostname",
        "key_name",
        "power_state",
        "vm_state",
        "task_state",
        "host",
        "node",
        "flavor",
        "reservation_id",
        "launched_at",
        "terminated_at",
        "availability_zone",
        "name",
        "display_name",
        "description",
        "display_description",
        "locked_by",
        "uuid",
        "root_device_name",
        "config_drive",
        "access_ip_v4",
        "access_ip_v6",
        "auto_disk_config",
        "progress",
        "sort_key",
        "sort_dir",
        "all_tenants",
        "soft_deleted",
        "deleted",
        "status",
        "changes-since",
        "ip",
        "ip6",
        "created_at",
        "block_device_mapping",
        "services",
        "metadata",
        "system_metadata",
        "info_cache",
        "security_groups",
        "pci_devices",
        "limit",
        "marker",
        "tags",
        "tags-any",
        "not-tags",
        "not-tags-any",
        "changes-before",
        "locked",
        "pinned_availability_zone",
    ]
)

# PUT /servers/{id}: request field → column
_UPDATABLE = (
    ("name", "name"),
    ("description", "description"),
    ("accessIPv4", "access_ipv4"),
    ("accessIPv6", "access_ipv6"),
    ("hostname", "hostname"),
)


def register(service):
    for prefix, high in (("/servers", None), ("/os-volumes_boot", VOLUMES_BOOT_MAX_VERSION)):
        service.api("GET", prefix, list_servers, max_version=high)
        service.api("GET", prefix + "/detail", list_servers_detail, max_version=high)
        # a create opens its own short write transactions (servers.create)
        service.api("POST", prefix, create_server, max_version=high, mode=None)
        service.api("GET", prefix + "/{server_id}", show_server, max_version=high)
        service.api("PUT", prefix + "/{server_id}", update_server, max_version=high)
        service.api("DELETE", prefix + "/{server_id}", delete_server, max_version=high)


def load(req):
    """The ``{server_id}`` server the caller may see (404 otherwise)."""
    return servers.get(req.db, common.caller(req), req.params["server_id"], common.progress(req))


# -- list -------------------------------------------------------------------------


def _parse_time(value, name):
    """A naive UTC datetime; text that is no ISO 8601 time fails nova's
    query schema (its ``date-time`` format), a time whose offset leaves
    years 1-9999 nova's parsing."""
    try:
        parsed = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise common.bad_request(
            "Invalid input for query parameters %s. Value: %s. '%s' is not a 'date-time'"
            % (name, value, value)
        ) from None
    try:
        if parsed.tzinfo is not None:
            parsed = parsed.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    except (ValueError, OverflowError):
        raise common.bad_request("Invalid filter field: %s." % name) from None
    return parsed


def _strict_bool(value):
    """oslo's ``bool_from_string(strict=True)``, as nova reads ``locked``."""
    try:
        return validation.bool_from_string(value, strict=True)
    except ValueError as exc:
        raise common.bad_request(str(exc)) from None


def _last_segment(ref):
    """``image``/``flavor`` filters may be URLs: their last segment."""
    return ref.rstrip("/").rsplit("/", 1)[-1]


def _search(req):
    """Nova's search options from the query, as far as the microversion and
    the caller's role allow them (see ``server_filters.predicates``)."""
    version, admin = req.microversion, req.context.is_admin
    arg, search = req.arg, {}
    for name in ("name", "reservation_id", "ip", "ip6"):
        if arg(name) is not None:
            search[name] = arg(name)
    statuses = [v.upper() for v in req.query.get("status", [])]
    if statuses:
        unknown = [s for s in statuses if s not in states.STATUSES]
        if unknown and version >= "2.38":
            raise common.bad_request("Invalid status value")
        if "DELETED" in statuses and not admin:
            raise HTTPError(403, "Only administrators may list deleted instances")
        search["status"] = statuses
    for name in ("image", "flavor"):
        if arg(name) is not None:
            search[name] = _last_segment(arg(name))
    since = arg("changes-since")
    if since is not None:
        search["changes-since"] = since = _parse_time(since, "changes-since")
    before = arg("changes-before") if version >= "2.66" else None
    if before is not None:
        search["changes-before"] = before = _parse_time(before, "changes-before")
        if since is not None and since > before:
            raise common.bad_request(
                "The value of changes-since must be less than or equal to changes-before."
            )
    if version >= "2.26":
        for name in ("tags", "tags-any", "not-tags", "not-tags-any"):
            if arg(name) is not None:
                search[name] = set(arg(name).split(","))
    if version >= "2.73" and arg("locked") is not None:
        search["locked"] = _strict_bool(arg("locked"))
    if admin or version >= "2.83":
        # nova's filters non-admins may use from 2.83 (the others are
        # patterns searched in the stored value's text)
        for name in (
            "availability_zone",
            "config_drive",
            "key_name",
            "created_at",
            "launched_at",
            "terminated_at",
            "power_state",
            "task_state",
            "vm_state",
            "progress",
            "user_id",
        ):
            if arg(name) is not None:
                search[name] = arg(name)
    if admin:
        for name in ("host", "node"):
            if arg(name) is not None:
                search[name] = arg(name)
        deleted = arg("deleted")
        if deleted is not None:
            # nova: anything but a true value lists the non-deleted ones
            search["deleted"] = validation.bool_from_string(deleted)
    if search.get("vm_state") == "deleted":
        if not admin:
            raise HTTPError(403, "Only administrators may list deleted instances")
        search["deleted"] = True
    return search


def _projects(req):
    """The project ids listed, or None for every project (admin)."""
    value = req.arg("all_tenants")
    if value is None:
        return [req.context.project_id]
    if value != "" and not common.bool_param(value, "all_tenants"):
        return [req.context.project_id]
    common.require_admin(req, "os_compute_api:servers:index:get_all_tenants")
    wanted = req.arg("project_id") or req.arg("tenant_id")
    return [wanted] if wanted else None


def _list(req, detail):
    server_list_query.check(req)
    if req.microversion >= "2.75":
        # nova's query schema: additionalProperties false beside a '^_' pattern
        for name in req.query:
            if name not in LIST_PARAMS and not name.startswith("_"):
                raise common.bad_request("'%s' does not match any of the regexes: '^_'" % name)
    projects = _projects(req)
    search = _search(req)
    listing = servers.select(
        req.db,
        common.caller(req),
        common.progress(req),
        projects,
        search,
        req.query.get("sort_key", []),
        req.query.get("sort_dir", []),
    )
    limit = common.parse_limit(req)
    found = listing.page(req.arg("marker"), limit)
    next_links = common.next_links(
        req, found, limit, lambda s: s["id"], "servers/detail" if detail else "servers"
    )
    if detail:
        render = Views(req, "detail")
        items = [render(s) for s in found]
    else:
        items = [
            {"id": s["id"], "name": s["name"], "links": common.links(req, "servers", s["id"])}
            for s in found
        ]
    body = {"servers": items}
    if next_links:
        body["servers_links"] = next_links
    return Response(200, body)


def list_servers(req):
    return _list(req, detail=False)


def list_servers_detail(req):
    return _list(req, detail=True)


def show_server(req):
    return Response(200, {"server": view(req, load(req))})


# -- create, update, delete ---------------------------------------------------------


def _build_request(req, body):
    """The create body as a BuildRequest (nova's API layer: counts and the
    block device mappings' first stage)."""
    server, version = body["server"], req.microversion
    # nova: min_count defaults to 1 and max_count defaults to min_count;
    # after the comparison the compute API reads 0 (a string the schema
    # lets through) as 1 and as min_count
    min_count = int(server.get("min_count", 1))
    max_count = int(server.get("max_count", min_count))
    if min_count > max_count:
        raise common.bad_request("min_count must be <= max_count")
    min_count = min_count or 1
    max_count = max_count or min_count
    mappings, legacy = block_devices.from_request(server)
    requested_host = None
    if version >= "2.74" and ("host" in server or "hypervisor_hostname" in server):
        requested_host = server.get("host") or server.get("hypervisor_hostname")
    return build.BuildRequest(
        name=server["name"],
        flavor_ref=server["flavorRef"],
        image_ref=server.get("imageRef") or "",
        block_devices=mappings,
        legacy_bdm=legacy,
        min_count=min_count,
        max_count=max_count,
        metadata=server.get("metadata", {}),
        personality=server.get("personality", []),
        key_name=server.get("key_name"),
        networks=server.get("networks"),
        availability_zone=server.get("availability_zone"),
        requested_host=requested_host,
        security_groups=(server.get("security_groups") or [{"name": "default"}]),
        scheduler_hints=body.get("os:scheduler_hints", body.get("OS-SCH-HNT:scheduler_hints", {})),
        description=(server.get("description") if version >= "2.19" else server["name"]),
        hostname=server.get("hostname"),
        user_data=server.get("user_data"),
        config_drive=values.truthy(server.get("config_drive")),
        access_ipv4=server.get("accessIPv4"),
        access_ipv6=server.get("accessIPv6"),
        auto_disk_config={"AUTO": True, "MANUAL": False}.get(server.get("OS-DCF:diskConfig")),
        tags=server.get("tags", []),
        trusted_certs=server.get("trusted_image_certificates"),
    )


def create_server(req):
    body = schemas.validate(schemas.server_create(req.microversion), req.json())
    request = _build_request(req, body)
    server = body["server"]
    created = servers.create(
        req.cloud.store,
        common.caller(req),
        req.cloud.config,
        common.images(req),
        request,
        req.request_id,
    )
    first = created[0]
    if values.truthy(server.get("return_reservation_id", False)):
        return Response(202, {"reservation_id": first["reservation_id"]})
    links = common.links(req, "servers", first["id"])
    return Response(
        202,
        {
            "server": {
                "id": first["id"],
                "links": links,
                "OS-DCF:diskConfig": "AUTO" if first["auto_disk_config"] else "MANUAL",
                "security_groups": request.security_groups,
                "adminPass": server.get("adminPass") or build.new_admin_password(),
            }
        },
        headers={"Location": links[0]["href"]},
    )


def update_server(req):
    body = schemas.validate(schemas.server_update(req.microversion), req.json())["server"]
    server = load(req)
    changes = {column: body[field] for field, column in _UPDATABLE if field in body}
    if "OS-DCF:diskConfig" in body:
        changes["auto_disk_config"] = int(body["OS-DCF:diskConfig"] == "AUTO")
    servers.update(req.db, server, changes)
    return Response(200, {"server": view(req, server, "update")})


def delete_server(req):
    server = load(req)
    shelved = server["vm_state"] in ("shelved", "shelved_offloaded")
    soft_delete.delete(
        req.db, common.caller(req), server, req.cloud.config.reclaim_instance_interval
    )
    if shelved:
        # nova deletes a shelved server's snapshot with it
        shelve.forget_image(req.db, common.images(req), server)
    return Response(204)
