"""Servers: ``/servers`` and its twin ``/os-volumes_boot`` (list, show,
create, update, delete), the server view and the server table.

Other modules read the table through :func:`load` (visibility, 404 and lazy
state progress) and write it back with :func:`save`. Reads (GET) run in a
read transaction: the progress they compute is persisted by
:func:`_persist_progress` in a short write of its own.
"""

import base64
import binascii
import datetime
import hashlib
import json
import re
import secrets
import string

from occli.localcloud import common
from occli.localcloud.app import HTTPError, Response
from occli.localcloud.compute import (aggregates, base, block_devices,
                                      flavors, hosts, keypairs, networks,
                                      scheduler, schemas, states)

# /os-volumes_boot is served by nova 2.1-2.102 and gone (404) from 2.103.
VOLUMES_BOOT_MAX_VERSION = "2.102"

MAX_METADATA_ITEMS = 128
MAX_PERSONALITY_FILES = 5
MAX_PERSONALITY_PATH = 255
MAX_PERSONALITY_BYTES = 10240
GIB = 1024 ** 3

MIGRATIONS = [
    """
    CREATE TABLE servers (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        project_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        description TEXT,
        hostname TEXT NOT NULL,
        host TEXT,
        node TEXT,
        availability_zone TEXT,
        pinned_availability_zone TEXT,
        flavor TEXT NOT NULL,
        old_flavor TEXT,
        image_ref TEXT NOT NULL DEFAULT '',
        key_name TEXT,
        key_data TEXT,
        user_data TEXT,
        config_drive TEXT NOT NULL DEFAULT '',
        access_ipv4 TEXT,
        access_ipv6 TEXT,
        auto_disk_config INTEGER NOT NULL DEFAULT 1,
        metadata TEXT NOT NULL DEFAULT '{}',
        tags TEXT NOT NULL DEFAULT '[]',
        security_groups TEXT NOT NULL DEFAULT '[]',
        volumes TEXT NOT NULL DEFAULT '[]',
        ports TEXT NOT NULL DEFAULT '[]',
        scheduler_hints TEXT NOT NULL DEFAULT '{}',
        trusted_certs TEXT,
        vm_state TEXT NOT NULL,
        task_state TEXT,
        power_state INTEGER NOT NULL DEFAULT 0,
        progress INTEGER NOT NULL DEFAULT 0,
        locked_by TEXT,
        locked_reason TEXT,
        reservation_id TEXT NOT NULL,
        launch_index INTEGER NOT NULL DEFAULT 0,
        root_device_name TEXT,
        fault TEXT,
        pending TEXT,
        task_started_at REAL,
        launched_at TEXT,
        terminated_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT,
        deleted INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX servers_project ON servers (project_id, deleted);
    CREATE INDEX servers_host ON servers (host, deleted);
    """,
]

_COLUMNS = None

LIST_PARAMS = frozenset([
    "user_id", "project_id", "tenant_id", "launch_index", "image_ref",
    "image", "kernel_id", "ramdisk_id", "hostname", "key_name",
    "power_state", "vm_state", "task_state", "host", "node", "flavor",
    "reservation_id", "launched_at", "terminated_at", "availability_zone",
    "name", "display_name", "description", "display_description",
    "locked_by", "uuid", "root_device_name", "config_drive", "access_ip_v4",
    "access_ip_v6", "auto_disk_config", "progress", "sort_key", "sort_dir",
    "all_tenants", "soft_deleted", "deleted", "status", "changes-since",
    "ip", "ip6", "created_at", "block_device_mapping", "services",
    "metadata", "system_metadata", "info_cache", "security_groups",
    "pci_devices", "limit", "marker", "tags", "tags-any", "not-tags",
    "not-tags-any", "changes-before", "locked", "pinned_availability_zone"])

_SORT_KEYS = {
    "created_at": "created_at", "updated_at": "updated_at",
    "display_name": "name", "uuid": "id", "launched_at": "launched_at",
    "terminated_at": "terminated_at", "host": "host", "node": "node",
    "vm_state": "vm_state", "task_state": "task_state",
    "power_state": "power_state", "availability_zone": "availability_zone",
    "display_description": "description", "key_name": "key_name",
    "config_drive": "config_drive", "image_ref": "image_ref",
    "hostname": "hostname", "user_id": "user_id", "project_id": "project_id",
    "progress": "progress", "launch_index": "launch_index",
    "reservation_id": "reservation_id", "access_ip_v4": "access_ipv4",
    "access_ip_v6": "access_ipv6", "auto_disk_config": "auto_disk_config",
    "root_device_name": "root_device_name", "locked": "locked_by",
    "locked_by": "locked_by"}
_ADMIN_SORT_KEYS = ("host", "node")


def register(service):
    for prefix, high in (("/servers", None),
                         ("/os-volumes_boot", VOLUMES_BOOT_MAX_VERSION)):
        service.api("GET", prefix, list_servers, max_version=high)
        service.api("GET", prefix + "/detail", list_servers_detail,
                    max_version=high)
        service.api("POST", prefix, create_server, max_version=high)
        service.api("GET", prefix + "/{server_id}", show_server,
                    max_version=high)
        service.api("PUT", prefix + "/{server_id}", update_server,
                    max_version=high)
        service.api("DELETE", prefix + "/{server_id}", delete_server,
                    max_version=high)


# -- table access ---------------------------------------------------------

def servers_on_host(db, host):
    """How many (not deleted) servers run on compute host ``host``."""
    return db.execute("SELECT COUNT(*) FROM servers WHERE host = ?"
                      " AND deleted = 0", (host,)).fetchone()[0]


def servers_of_host(db, host):
    """``[{"name": <instance name>, "uuid": …}]`` of the servers on ``host``."""
    return [{"name": instance_name(r["seq"]), "uuid": r["id"]}
            for r in db.execute("SELECT seq, id FROM servers WHERE host = ?"
                                " AND deleted = 0 ORDER BY seq", (host,))]


def host_usage(db, host):
    """Resources the servers on ``host`` use: count, vcpus, ram, disk, busy."""
    usage = {"count": 0, "vcpus": 0, "ram": 0, "disk": 0, "busy": 0}
    for row in db.execute("SELECT flavor, image_ref, task_state FROM servers"
                          " WHERE host = ? AND deleted = 0", (host,)):
        wanted = scheduler.server_resources(row)
        usage["count"] += 1
        usage["vcpus"] += wanted["VCPU"]
        usage["ram"] += wanted["MEMORY_MB"]
        usage["disk"] += wanted["DISK_GB"]
        usage["busy"] += row["task_state"] is not None
    return usage


def instance_name(seq):
    return "instance-%08x" % seq


def _columns(db):
    global _COLUMNS
    if _COLUMNS is None:
        _COLUMNS = [r["name"] for r in db.execute("PRAGMA table_info(servers)")
                    if r["name"] != "seq"]
    return _COLUMNS


def save(db, server):
    """Write every column of ``server`` (a dict from :func:`load`) back."""
    columns = _columns(db)
    db.execute("UPDATE servers SET %s WHERE seq = ?"
               % ", ".join("%s = ?" % c for c in columns),
               [server[c] for c in columns] + [server["seq"]])


def touch(server):
    server["updated_at"] = common.iso_naive_micro(common.utcnow())


def refresh(req, server):
    """Advance the lazy state machine of ``server`` and persist changes."""
    return refresh_all(req, [server])[0]


def refresh_all(req, servers):
    """:func:`refresh` for many servers, persisted in one short write."""
    advanced = []
    for server in servers:
        before = dict(server)
        if states.advance(server, req.cloud.config.build_time):
            advanced.append((before, server))
    _persist_progress(req, advanced)
    return servers


def _persist_progress(req, advanced):
    """Write ``[(as read, advanced)]`` servers in a write transaction (the
    request's own for a write request, else a short one).

    Optimistic: a row whose plan changed since it was read (an operation
    started, ended or the server was deleted meanwhile) is left alone; the
    request still answers from the values it computed.
    """
    if not advanced:
        return
    with req.cloud.store.transaction() as db:
        for before, after in advanced:
            changed = [c for c in after if after[c] != before[c]]
            db.execute(
                "UPDATE servers SET %s WHERE seq = ? AND pending IS ?"
                " AND task_started_at IS ?"
                % ", ".join("%s = ?" % c for c in changed),
                [after[c] for c in changed]
                + [before["seq"], before["pending"],
                   before["task_started_at"]])


def load(req, server_id):
    """The server the caller may see, advanced to now; 404 otherwise."""
    row = req.db.execute("SELECT * FROM servers WHERE id = ? AND deleted = 0",
                         (server_id,)).fetchone()
    if row is None or (row["project_id"] != req.context.project_id
                       and not req.context.is_admin):
        raise base.not_found("Instance %s could not be found." % server_id)
    return refresh(req, dict(row))


# -- view -----------------------------------------------------------------

def _dt(text):
    return datetime.datetime.fromisoformat(text)


def _host_id(server):
    if not server["host"]:
        return ""
    return hashlib.sha224(
        (server["project_id"] + server["host"]).encode()).hexdigest()


def _image_view(req, server):
    if not server["image_ref"]:
        return ""
    return {"id": server["image_ref"],
            "links": base.bookmark(req, "images", server["image_ref"])}


def _flavor_view(req, server):
    flavor = json.loads(server["flavor"])
    if req.microversion < "2.47":
        return {"id": flavor["id"],
                "links": base.bookmark(req, "flavors", flavor["id"])}
    return {key: flavor[key] for key in ("vcpus", "ram", "disk", "ephemeral",
                                         "swap", "original_name",
                                         "extra_specs")}


def _fault_view(req, server):
    fault = json.loads(server["fault"])
    body = {"code": fault["code"], "created": fault["created"],
            "message": fault["message"]}
    if fault.get("details") and (fault["code"] != 500
                                 or req.context.is_admin):
        body["details"] = fault["details"]
    return body


def zone_of(db, server):
    """The availability zone a server is in (its host's, else the stored)."""
    if server["host"]:
        return aggregates.host_zone(db, server["host"])
    return server["availability_zone"]


def view(req, server, mode="show"):
    """Nova's server representation; ``mode``: show, detail, update, rebuild.

    Before 2.75 update and rebuild answer a reduced representation.
    """
    version = req.microversion
    admin = req.context.is_admin
    full = mode in ("show", "detail") or version >= "2.75"
    status = states.status(server["vm_state"], server["task_state"])
    ports = json.loads(server["ports"])
    body = {
        "id": server["id"],
        "name": server["name"],
        "status": status,
        "tenant_id": server["project_id"],
        "user_id": server["user_id"],
        "metadata": json.loads(server["metadata"]),
        "hostId": _host_id(server),
        "image": _image_view(req, server),
        "flavor": _flavor_view(req, server),
        "created": common.iso_z(_dt(server["created_at"])),
        "updated": common.iso_z(_dt(server["updated_at"])),
        "addresses": ({} if server["vm_state"] == "building"
                      else networks.addresses_view(ports, extended=full)),
        "accessIPv4": server["access_ipv4"] or "",
        "accessIPv6": server["access_ipv6"] or "",
        "links": base.links(req, "servers", server["id"]),
        "OS-DCF:diskConfig": "AUTO" if server["auto_disk_config"]
        else "MANUAL",
    }
    if status in states.PROGRESS_STATUSES:
        body["progress"] = server["progress"]
    if version >= "2.9":
        body["locked"] = server["locked_by"] is not None
    if version >= "2.73":
        body["locked_reason"] = server["locked_reason"]
    if version >= "2.19":
        body["description"] = server["description"]
    if version >= "2.26":
        body["tags"] = json.loads(server["tags"])
    if version >= "2.63":
        certs = server["trusted_certs"]
        body["trusted_image_certificates"] = json.loads(certs) if certs else None
    if version >= "2.96":
        body["pinned_availability_zone"] = server["pinned_availability_zone"]
    if full:
        body.update(_full_attributes(req, server, mode))
    elif mode == "rebuild" and version >= "2.54":
        body["key_name"] = server["key_name"]
    if admin and full and version >= "2.16":
        body["host_status"] = hosts.host_status(req.db, server["host"])
    if mode != "detail" and version >= "2.71":
        body["server_groups"] = []
    if status in states.FAULT_STATUSES and server["fault"]:
        body["fault"] = _fault_view(req, server)
    return body


def _full_attributes(req, server, mode):
    version = req.microversion
    launched, terminated = server["launched_at"], server["terminated_at"]
    volumes = []
    for volume in json.loads(server["volumes"]):
        item = {"id": volume["id"]}
        if version >= "2.3":
            item["delete_on_termination"] = volume["delete_on_termination"]
        volumes.append(item)
    body = {
        "OS-EXT-AZ:availability_zone": zone_of(req.db, server) or "",
        "config_drive": server["config_drive"],
        "key_name": server["key_name"],
        "OS-SRV-USG:launched_at": launched,
        "OS-SRV-USG:terminated_at": terminated,
        "OS-EXT-STS:task_state": server["task_state"],
        "OS-EXT-STS:vm_state": server["vm_state"],
        "OS-EXT-STS:power_state": server["power_state"],
        "os-extended-volumes:volumes_attached": volumes,
    }
    # nova's _add_security_grps reads the groups from the server's neutron
    # ports: a server without ports (networks "none") has no such key
    if json.loads(server["ports"]):
        body["security_groups"] = json.loads(server["security_groups"])
    if req.context.is_admin:
        body.update({
            "OS-EXT-SRV-ATTR:host": server["host"],
            "OS-EXT-SRV-ATTR:instance_name": instance_name(server["seq"]),
            "OS-EXT-SRV-ATTR:hypervisor_hostname": server["node"],
        })
        if version >= "2.3":
            body.update({
                "OS-EXT-SRV-ATTR:hostname": server["hostname"],
                "OS-EXT-SRV-ATTR:reservation_id": server["reservation_id"],
                "OS-EXT-SRV-ATTR:launch_index": server["launch_index"],
                "OS-EXT-SRV-ATTR:kernel_id": "",
                "OS-EXT-SRV-ATTR:ramdisk_id": "",
                "OS-EXT-SRV-ATTR:root_device_name":
                    server["root_device_name"],
            })
            if mode != "rebuild":
                body["OS-EXT-SRV-ATTR:user_data"] = server["user_data"]
    elif version >= "2.90":
        body["OS-EXT-SRV-ATTR:hostname"] = server["hostname"]
    return body


# -- list -----------------------------------------------------------------

def _parse_time(value, name):
    try:
        parsed = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
        if parsed.tzinfo is not None:
            parsed = parsed.astimezone(datetime.timezone.utc).replace(
                tzinfo=None)
    except (ValueError, OverflowError):
        # OverflowError: an offset moving the time out of years 1-9999
        raise base.bad_request("Invalid filter field: %s." % name) from None
    return parsed


def _regex(pattern):
    """A predicate: is ``pattern`` found in a text (nova's REGEXP filters)?

    RE2 matches in linear time, so no pattern can stall the cloud (Python's
    backtracking ``re`` took a minute for ``^a{10}(a+)+$``). A pattern RE2
    cannot parse (invalid, or with backreferences or lookarounds) matches
    literally, as invalid patterns always have here.
    """
    import re2  # the local cloud's dependency, imported only when filtering

    options = re2.Options()
    options.log_errors = False
    try:
        compiled = re2.compile(pattern, options=options)
    except re2.error:
        return lambda text: pattern in text
    return lambda text: compiled.search(text) is not None


def _filters(req):
    """``[predicate(server)]`` from the query; may widen to deleted servers."""
    version, admin = req.microversion, req.context.is_admin
    preds = []
    include_deleted = False

    def arg(name):
        return req.arg(name)

    name = arg("name")
    if name is not None:
        found = _regex(name)
        preds.append(lambda s: found(s["name"]))
    statuses = [v.upper() for v in req.query.get("status", [])]
    if statuses:
        unknown = [s for s in statuses if s not in states.STATUSES]
        if unknown and version >= "2.38":
            raise base.bad_request("Invalid status value")
        if "DELETED" in statuses:
            if not admin:
                raise HTTPError(403, "Only administrators may list deleted "
                                     "instances")
            include_deleted = True
        preds.append(lambda s: states.status(s["vm_state"], s["task_state"])
                     in statuses)
    for param, column in (("image", "image_ref"),
                          ("reservation_id", "reservation_id")):
        value = arg(param)
        if value is not None:
            if param == "image":
                value = value.rstrip("/").rsplit("/", 1)[-1]
            preds.append(lambda s, c=column, v=value: s[c] == v)
    flavor = arg("flavor")
    if flavor is not None:
        flavor = flavor.rstrip("/").rsplit("/", 1)[-1]
        preds.append(lambda s: json.loads(s["flavor"])["id"] == flavor)
    for param in ("ip", "ip6"):
        value = arg(param)
        if value is not None:
            found = _regex(value)
            version_of = 4 if param == "ip" else 6
            preds.append(lambda s, found=found, ver=version_of: ver == 4
                         and any(found(p["addr"])
                                 for p in json.loads(s["ports"])))
    since = arg("changes-since")
    if since is not None:
        since = _parse_time(since, "changes-since")
        include_deleted = True
        preds.append(lambda s: _dt(s["updated_at"]) >= since)
    before = arg("changes-before") if version >= "2.66" else None
    if before is not None:
        before = _parse_time(before, "changes-before")
        include_deleted = True
        preds.append(lambda s: _dt(s["updated_at"]) <= before)
        if since is not None and since > before:
            raise base.bad_request("The value of changes-since must be less "
                                   "than or equal to changes-before.")
    if version >= "2.26":
        preds.extend(_tag_filters(req))
    if version >= "2.73" and arg("locked") is not None:
        locked = base.bool_param(arg("locked"), "locked")
        preds.append(lambda s: (s["locked_by"] is not None) == locked)
    extended = admin or version >= "2.83"
    if extended:
        for param, column in (("availability_zone", None),
                              ("key_name", "key_name"),
                              ("user_id", "user_id"),
                              ("vm_state", "vm_state"),
                              ("task_state", "task_state")):
            value = arg(param)
            if value is None:
                continue
            if column is None:
                preds.append(lambda s, v=value: zone_of(req.db, s) == v)
            else:
                preds.append(lambda s, c=column, v=value: s[c] == v)
    if admin:
        for param in ("host", "node"):
            value = arg(param)
            if value is not None:
                preds.append(lambda s, c=param, v=value: s[c] == v)
        deleted = arg("deleted")
        if deleted is not None and base.bool_param(deleted, "deleted"):
            include_deleted = True
            preds.append(lambda s: bool(s["deleted"]))
    return preds, include_deleted


def _tag_filters(req):
    preds = []
    for param, wanted_all, negate in (("tags", True, False),
                                      ("tags-any", False, False),
                                      ("not-tags", True, True),
                                      ("not-tags-any", False, True)):
        value = req.arg(param)
        if value is None:
            continue
        wanted = set(value.split(","))

        def pred(s, wanted=wanted, wanted_all=wanted_all, negate=negate):
            tags = set(json.loads(s["tags"]))
            hit = wanted <= tags if wanted_all else bool(wanted & tags)
            return hit != negate
        preds.append(pred)
    return preds


def _projects(req):
    """The project ids listed, or None for every project (admin)."""
    value = req.arg("all_tenants")
    if value is None:
        return [req.context.project_id]
    if value != "" and not base.bool_param(value, "all_tenants"):
        return [req.context.project_id]
    if not req.context.is_admin:
        raise base.forbidden_by_policy(
            "os_compute_api:servers:index:get_all_tenants")
    wanted = req.arg("project_id") or req.arg("tenant_id")
    return [wanted] if wanted else None


def _sort(req, servers):
    keys = req.query.get("sort_key", [])
    dirs = req.query.get("sort_dir", [])
    if not keys:
        keys, dirs = ["created_at"], dirs or ["desc"]
    order = []
    for index, key in enumerate(keys):
        column = _SORT_KEYS.get(key)
        if column is None:
            raise base.bad_request("Invalid sort_key %s" % key)
        if key in _ADMIN_SORT_KEYS and not req.context.is_admin:
            raise HTTPError(403, "Only administrators can sort servers by %s"
                            % key)
        direction = dirs[index] if index < len(dirs) else (
            dirs[0] if dirs else "desc")
        if direction not in ("asc", "desc"):
            raise base.bad_request("Invalid sort_dir %s" % direction)
        order.append((column, direction))
    order.append(("seq", order[0][1]))
    for column, direction in reversed(order):
        servers.sort(key=lambda s, c=column: (s[c] is not None, s[c]),
                     reverse=direction == "desc")
    return servers


def _with_marker(req, servers, projects):
    """Add the ``?marker=`` server when the filters left it out.

    Nova looks the marker up with ``read_deleted='yes'`` and without the
    list's filters, then pages on from its sort position; so a marker that
    was deleted since the previous page still works. Paging then skips the
    marker itself. Unlike nova, whose lookup is elevated to every project,
    the marker must be a server of the listed ``projects`` (None: all):
    another project's id is ``marker [..] not found`` like an unknown one,
    not an oracle for its existence and creation time.
    """
    marker = req.arg("marker")
    if marker is None or any(s["id"] == marker for s in servers):
        return servers
    sql, args = "SELECT * FROM servers WHERE id = ?", [marker]
    if projects is not None:
        sql += " AND project_id = ?"
        args.append(projects[0])
    row = req.db.execute(sql, args).fetchone()
    return servers if row is None else servers + [dict(row)]


def _list(req, detail):
    if req.microversion >= "2.75":
        base.reject_unknown_params(req, LIST_PARAMS)
    projects = _projects(req)
    preds, include_deleted = _filters(req)
    sql, args = "SELECT * FROM servers WHERE 1 = 1", []
    if not include_deleted:
        sql += " AND deleted = 0"
    if projects is not None:
        sql += " AND project_id = ?"
        args.append(projects[0])
    servers = refresh_all(req, [dict(r) for r in
                                req.db.execute(sql, args).fetchall()])
    servers = [s for s in servers if all(p(s) for p in preds)]
    servers = _with_marker(req, servers, projects)
    servers, next_links = base.paginate(
        req, _sort(req, servers), lambda s: s["id"],
        "servers/detail" if detail else "servers")
    if detail:
        items = [view(req, s, "detail") for s in servers]
    else:
        items = [{"id": s["id"], "name": s["name"],
                  "links": base.links(req, "servers", s["id"])}
                 for s in servers]
    body = {"servers": items}
    if next_links:
        body["servers_links"] = next_links
    return body


def list_servers(req):
    return _list(req, detail=False)


def list_servers_detail(req):
    return _list(req, detail=True)


def show_server(req):
    return {"server": view(req, load(req, req.params["server_id"]))}


# -- create ---------------------------------------------------------------

def _truthy(value):
    return value in (True, "True", "TRUE", "true", "1", "ON", "On", "on",
                     "YES", "Yes", "yes")


def resolve_flavor(db, ref, message="Invalid flavorRef provided."):
    flavor_id = str(ref).rstrip("/").rsplit("/", 1)[-1]
    row = flavors.get_flavor(db, flavor_id)
    if row is None:
        raise base.bad_request(message)
    return row


def find_image(req, image_id):
    """The image dict from the image service (None: unknown or no service)."""
    if req.cloud.image is None:
        return None
    return req.cloud.image.get_image(req.db, image_id)


def resolve_image(req, image_id):
    """The image dict of ``image_id``; 400 unless it exists and is active."""
    image = find_image(req, image_id)
    if image is None:
        raise base.bad_request("Can not find requested image")
    if image.get("status", "active") != "active":
        raise base.bad_request("Image %s is not active." % image_id)
    return image


def check_image_fits(image, flavor):
    """Nova's flavor-vs-image disk and memory checks (400)."""
    disk_bytes = flavor["root_gb"] * GIB
    if flavor["root_gb"]:
        if (image.get("min_disk") or 0) > flavor["root_gb"]:
            raise base.bad_request(
                "Flavor's disk is too small for requested image. Flavor disk "
                "is %d bytes, minimum required by image is %d bytes."
                % (disk_bytes, image["min_disk"] * GIB))
        if (image.get("size") or 0) > disk_bytes:
            raise base.bad_request(
                "Flavor's disk is too small for requested image. Flavor disk "
                "is %d bytes, image is %d bytes." % (disk_bytes, image["size"]))
    check_image_memory(image, flavor)


def check_image_memory(image, flavor):
    """Nova's ``FlavorMemoryTooSmall`` (also for volume-backed servers)."""
    if (image.get("min_ram") or 0) > flavor["memory_mb"]:
        raise base.bad_request("Flavor's memory is too small for requested "
                               "image.")


def check_personality(files):
    """Nova's injected-file quota checks (403) and content decoding (400)."""
    if len(files) > MAX_PERSONALITY_FILES:
        raise HTTPError(403, "Personality file limit exceeded")
    for item in files:
        path = item.get("path", "")
        try:
            contents = base64.b64decode(item.get("contents", ""),
                                        validate=True)
        except (binascii.Error, ValueError):
            raise base.bad_request("Personality content for %s cannot be "
                                   "decoded" % path)
        if len(path) > MAX_PERSONALITY_PATH:
            raise HTTPError(403, "Personality file path exceeds maximum %d"
                            % MAX_PERSONALITY_PATH)
        if len(contents) > MAX_PERSONALITY_BYTES:
            raise HTTPError(403, "Personality file content exceeds maximum %d"
                            % MAX_PERSONALITY_BYTES)


def check_metadata_quota(metadata):
    if len(metadata) > MAX_METADATA_ITEMS:
        raise HTTPError(403, "Maximum number of metadata items exceeds %d"
                        % MAX_METADATA_ITEMS)


def sanitize_hostname(name, default):
    """Nova's ``utils.sanitize_hostname``."""
    hostname = name.encode("latin-1", "ignore").decode("latin-1")
    hostname = re.sub(r"[ _\.]", "-", hostname)
    hostname = re.sub(r"[^\w.-]+", "", hostname)
    hostname = hostname.lower().strip(".-")[:63]
    return hostname or default


def _networks(req, server, count):
    """The ports (``[{"network", "addr"?}]``) the request asks for."""
    requested = server.get("networks")
    if requested is None or requested == "auto":
        return [{"network": networks.PRIVATE_NETWORK_NAME}]
    if requested == "none":
        return []
    ports = []
    for item in requested:
        if item.get("port"):
            raise base.bad_request("Port id %s could not be found."
                                   % item["port"])
        net = item.get("uuid")
        if net is None:
            raise base.bad_request("Bad network format: missing 'uuid'")
        if not base.is_uuid(net):
            raise base.bad_request("Bad networks format: network uuid is "
                                   "not in proper format (%s)" % net)
        if net != networks.PRIVATE_NETWORK_ID:
            raise base.bad_request("Network %s could not be found." % net)
        port = {"network": networks.PRIVATE_NETWORK_NAME}
        fixed = item.get("fixed_ip")
        if fixed is not None:
            if count > 1:
                raise base.bad_request("max_count cannot be greater than 1 "
                                       "if an fixed_ip is specified.")
            if not networks.in_subnet(fixed):
                raise base.bad_request(
                    "Fixed IP address %s is not valid for network %s."
                    % (fixed, net))
            if _address_in_use(req.db, fixed):
                raise base.bad_request(
                    "Fixed IP address %s is already in use." % fixed)
            port["addr"] = fixed
        ports.append(port)
    return ports


def _address_in_use(db, address):
    for row in db.execute("SELECT ports FROM servers WHERE deleted = 0"
                          " AND ports LIKE ?", ('%"' + address + '"%',)):
        if any(p["addr"] == address for p in json.loads(row["ports"])):
            return True
    return False


def _parse_zone(req, zone_request):
    """nova's ``_handle_availability_zone``: ``zone[:host[:node]]`` or
    ``zone::node`` → ``(zone or None, forced host or None)``; forcing a
    host is admin-only. The zone must be available (nova's 400) unless a
    host is forced, as nova skips that check then."""
    if not zone_request:
        return None, None
    parts = zone_request.split(":")
    if len(parts) > 3:
        raise base.bad_request("Invalid input received: Unable to parse "
                               "availability_zone")
    zone = parts[0] or None
    # the local cloud's nodes are named like their hosts
    forced = (parts[1] if len(parts) > 1 else "") or (
        parts[2] if len(parts) > 2 else "") or None
    if forced and not req.context.is_admin:
        raise base.forbidden_by_policy(
            "os_compute_api:servers:create:forced_host")
    if zone and not forced and zone not in scheduler.available_zones(req.db):
        raise base.bad_request("The requested availability zone is not "
                               "available")
    return zone, forced


def new_admin_password():
    """A random 12-character password, as nova generates them."""
    alphabet = string.ascii_letters + string.digits
    return "".join(secrets.choice(alphabet) for _ in range(12))


def _reservation_id():
    alphabet = string.ascii_lowercase + string.digits
    return "r-" + "".join(secrets.choice(alphabet) for _ in range(8))


def _instance_count(req, min_count, max_count):
    """How many servers a create makes, checked before anything is created.

    Nova's ``check_num_instances_quota`` for the instances quota
    (``config.quota_instances``, -1 unlimited): a ``max_count`` above the
    project's headroom is trimmed to it if that still covers ``min_count``,
    else 403 ``TooManyInstances``. ``config.max_servers_per_request``, the
    local cloud's own bound on the work one request does under the write
    lock, trims and refuses the same way.
    """
    config = req.cloud.config
    requested = (str(min_count) if min_count == max_count
                 else "%d-%d" % (min_count, max_count))
    if config.quota_instances >= 0:
        used = req.db.execute(
            "SELECT COUNT(*) FROM servers WHERE project_id = ?"
            " AND deleted = 0", (req.context.project_id,)).fetchone()[0]
        allowed = config.quota_instances - used
        if max_count > allowed:
            if allowed <= 0 or min_count > allowed:
                raise HTTPError(403, "Quota exceeded for instances: Requested"
                                " %s, but already used %d of %d instances"
                                % (requested, used, config.quota_instances))
            max_count = allowed
    ceiling = config.max_servers_per_request
    if max_count > ceiling:
        if min_count > ceiling:
            raise HTTPError(403, "Quota exceeded for instances: Requested %s,"
                            " but this local cloud creates at most %d servers"
                            " per request" % (requested, ceiling))
        max_count = ceiling
    return max_count


def create_server(req):
    body = schemas.validate(schemas.server_create(req.microversion),
                            req.json())
    server = body["server"]
    version = req.microversion
    db = req.db
    # nova: min_count defaults to 1 and max_count defaults to min_count;
    # after the comparison the compute API reads 0 (a string the schema
    # lets through) as 1 and as min_count
    min_count = int(server.get("min_count", 1))
    max_count = int(server.get("max_count", min_count))
    if min_count > max_count:
        raise base.bad_request("min_count must be <= max_count")
    min_count = min_count or 1
    max_count = max_count or min_count
    # nova's API layer, then the compute API (see block_devices)
    bdms, legacy_bdm = block_devices.from_request(server)
    flavor = resolve_flavor(db, server["flavorRef"])
    image_ref = server.get("imageRef") or ""
    if not image_ref and not bdms:
        raise base.bad_request("Missing imageRef attribute")
    image = resolve_image(req, image_ref) if image_ref else None
    if image is None and bdms:
        # nova's get_bdm_image_metadata: the image of the boot mapping
        boot_image = block_devices.boot_image_id(bdms, legacy_bdm)
        if boot_image is not None:
            image = find_image(req, boot_image)
            if image is None:
                raise base.bad_request("Block Device Mapping is Invalid: "
                                       "failed to get image %s." % boot_image)
    boot_from_volume = False
    if bdms:
        bdms = block_devices.transform(bdms, legacy_bdm, image_ref, flavor,
                                       max(min_count, max_count))
        boot_from_volume = block_devices.is_volume_backed(bdms)
    if image is not None:
        if boot_from_volume:
            check_image_memory(image, flavor)
            block_devices.check_volume_fits_image(bdms, image)
        else:
            check_image_fits(image, flavor)
    if bdms:
        block_devices.validate(
            bdms, flavor, image_ref,
            lambda image_id: find_image(req, image_id) is not None)
    if boot_from_volume:
        image_ref = ""
    metadata = server.get("metadata", {})
    check_metadata_quota(metadata)
    check_personality(server.get("personality", []))
    key_name = server.get("key_name")
    key = None
    if key_name is not None:
        key = keypairs.get_keypair(db, req.context.user_id, key_name)
        if key is None:
            raise base.bad_request("Invalid key_name provided.")
    ports = _networks(req, server, max_count)
    zone, forced_host = _parse_zone(req, server.get("availability_zone"))
    requested_host = None
    if version >= "2.74" and ("host" in server
                              or "hypervisor_hostname" in server):
        base.require_admin(req, "compute:servers:create:requested_destination")
        requested_host = (server.get("host")
                          or server.get("hypervisor_hostname"))
        if requested_host not in hosts.compute_hosts(db):
            raise base.bad_request("Compute host %s could not be found."
                                   % requested_host)
    security_groups = server.get("security_groups") or [{"name": "default"}]
    admin_pass = server.get("adminPass") or new_admin_password()
    reservation_id = _reservation_id()
    hints = body.get("os:scheduler_hints",
                     body.get("OS-SCH-HNT:scheduler_hints", {}))
    if version >= "2.19":
        description = server.get("description")
    else:
        description = server["name"]
    max_count = _instance_count(req, min_count, max_count)
    new_ids = [common.new_uuid() for _ in range(max_count)]
    spec = scheduler.RequestSpec(
        scheduler.resources(flavors.snapshot(flavor), boot_from_volume),
        zone=zone, forced_host=forced_host, requested_host=requested_host,
        hints=hints)
    # None: NoValidHost, and the conductor fails every instance of the
    # request (they get no host, no ports, vm_state error and a fault)
    destinations = scheduler.select_destinations(db, spec, new_ids)
    created = []
    for index, new_id in enumerate(new_ids):
        name = server["name"]
        if max_count > 1:
            name = "%s-%d" % (name, index + 1)
        host = destinations[index] if destinations else None
        if "hostname" in server and max_count == 1:
            hostname = server["hostname"]
        else:
            hostname = sanitize_hostname(name, "server-" + new_id)
        now = common.iso_naive_micro(common.utcnow())
        record = {
            "id": new_id, "project_id": req.context.project_id,
            "user_id": req.context.user_id, "name": name,
            "description": description, "hostname": hostname,
            "host": host, "node": host,
            "availability_zone": (aggregates.host_zone(db, host) if host
                                  else zone),
            "pinned_availability_zone": zone,
            "flavor": json.dumps(flavors.snapshot(flavor)),
            "image_ref": image_ref,
            "key_name": key_name,
            "key_data": key["public_key"] if key else None,
            "user_data": server.get("user_data"),
            "config_drive": "True" if _truthy(server.get("config_drive"))
            else "",
            "access_ipv4": server.get("accessIPv4"),
            "access_ipv6": server.get("accessIPv6"),
            "auto_disk_config": int(server.get("OS-DCF:diskConfig",
                                               "AUTO") == "AUTO"),
            "metadata": json.dumps(metadata),
            "tags": json.dumps(server.get("tags", [])),
            "security_groups": json.dumps(security_groups),
            # each instance gets its own volumes made from images etc.
            "volumes": json.dumps(block_devices.attached_volumes(bdms)),
            "scheduler_hints": json.dumps(hints),
            "trusted_certs": (json.dumps(server["trusted_image_certificates"])
                              if server.get("trusted_image_certificates")
                              else None),
            "vm_state": "building", "power_state": states.NOSTATE,
            "progress": 0, "reservation_id": reservation_id,
            "launch_index": index,
            "root_device_name": "/dev/vda" if host else None,
            "created_at": now, "updated_at": now,
        }
        if host:
            states.start(record, states.BUILD_TASKS,
                         {"vm_state": "active", "power_state": states.RUNNING,
                          "launched_at": states.LAUNCH_NOW}, progress=True)
        else:
            states.start(record, states.SCHEDULING_TASKS,
                         {"vm_state": "error",
                          "power_state": states.NOSTATE},
                         fault=scheduler.no_valid_host_fault())
        _insert(db, record, ports if host else [])
        created.append(record)
    if _truthy(server.get("return_reservation_id", False)):
        return Response(202, {"reservation_id": reservation_id})
    first = created[0]
    links = base.links(req, "servers", first["id"])
    return Response(202, {"server": {
        "id": first["id"], "links": links,
        "OS-DCF:diskConfig": "AUTO" if first["auto_disk_config"]
        else "MANUAL",
        "security_groups": security_groups,
        "adminPass": admin_pass,
    }}, headers={"Location": links[0]["href"]})


def _insert(db, record, ports):
    columns = list(record)
    cursor = db.execute(
        "INSERT INTO servers (%s) VALUES (%s)"
        % (", ".join(columns), ", ".join("?" * len(columns))),
        [record[c] for c in columns])
    record["seq"] = cursor.lastrowid
    assigned = []
    for index, port in enumerate(ports):
        assigned.append({
            "network": port["network"],
            "addr": port.get("addr") or networks.address_for(
                record["seq"] * 4 + index),
            "mac": networks.mac_for(record["id"], index)})
    record["ports"] = json.dumps(assigned)
    db.execute("UPDATE servers SET ports = ? WHERE seq = ?",
               (record["ports"], record["seq"]))


# -- update / delete -------------------------------------------------------

def update_server(req):
    body = schemas.validate(schemas.server_update(req.microversion),
                            req.json())["server"]
    server = load(req, req.params["server_id"])
    for field, column in (("name", "name"), ("description", "description"),
                          ("accessIPv4", "access_ipv4"),
                          ("accessIPv6", "access_ipv6"),
                          ("hostname", "hostname")):
        if field in body:
            server[column] = body[field]
    if "OS-DCF:diskConfig" in body:
        server["auto_disk_config"] = int(body["OS-DCF:diskConfig"] == "AUTO")
    touch(server)
    save(req.db, server)
    return {"server": view(req, server, "update")}


def check_lock(req, server):
    """Nova's ``check_instance_lock``: 409 for non-admins on a locked server."""
    if server["locked_by"] is not None and not req.context.is_admin:
        raise base.conflict("Instance %s is locked" % server["id"])


def delete_server(req):
    server = load(req, req.params["server_id"])
    check_lock(req, server)
    now = common.iso_naive_micro(common.utcnow())
    server.update({"vm_state": "deleted", "task_state": None,
                   "power_state": states.NOSTATE, "pending": None,
                   "task_started_at": None, "deleted": 1, "deleted_at": now,
                   "terminated_at": now, "updated_at": now})
    save(req.db, server)
    return Response(204)
