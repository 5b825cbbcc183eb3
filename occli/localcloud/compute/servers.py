"""Servers: the ``servers`` table and nova's compute API rules over it
(create, update, delete, lock checks, listing).

Every read of a server goes through :func:`get` or :func:`select`, which
advance its lazy state (:class:`~.states.Progress`); writes go through
:func:`save`. Other modules read the table, and write it only through here
or :mod:`.actions`.
"""

import json

from occli.localcloud import common, errors
from occli.localcloud.compute import (
    aggregates,
    build,
    flavors,
    networks,
    quotas,
    scheduler,
    server_filters,
    states,
)

_COLUMNS = None


# -- the table ------------------------------------------------------------------

def instance_name(seq):
    return "instance-%08x" % seq


def servers_on_host(db, host):
    """How many (not deleted) servers run on compute host ``host``."""
    return db.execute("SELECT COUNT(*) FROM servers WHERE host = ?"
                      " AND deleted = 0", (host,)).fetchone()[0]


def zone_of(db, server):
    """The availability zone a server is in (its host's, else the stored)."""
    if server["host"]:
        return aggregates.host_zone(db, server["host"])
    return server["availability_zone"]


def _columns(db):
    global _COLUMNS
    if _COLUMNS is None:
        _COLUMNS = [r["name"] for r in db.execute("PRAGMA table_info(servers)")
                    if r["name"] != "seq"]
    return _COLUMNS


def save(db, server):
    """Write every column of ``server`` (a dict from :func:`get`) back."""
    columns = _columns(db)
    db.execute("UPDATE servers SET %s WHERE seq = ?"
               % ", ".join("%s = ?" % c for c in columns),
               [server[c] for c in columns] + [server["seq"]])


def touch(server):
    server["updated_at"] = common.iso_naive_micro(common.utcnow())


def get(db, caller, server_id, progress):
    """The live server ``caller`` may see, advanced to now; NotFound
    otherwise (another project's server is not found, except for admins)."""
    row = db.execute("SELECT * FROM servers WHERE id = ? AND deleted = 0",
                     (server_id,)).fetchone()
    if row is None or (row["project_id"] != caller.project_id
                       and not caller.is_admin):
        raise errors.NotFound("Instance %s could not be found." % server_id)
    return progress.advance([dict(row)])[0]


def check_lock(caller, server):
    """Nova's ``check_instance_lock``: 409 for non-admins on a locked server."""
    if server["locked_by"] is not None and not caller.is_admin:
        raise errors.Conflict("Instance %s is locked" % server["id"])


# -- create, update, delete ---------------------------------------------------------

def create(db, caller, config, images, request):
    """Nova's ``compute_api.create``: check ``request`` (a
    :class:`~.build.BuildRequest`), schedule and insert its instances.

    Returns the new rows. When any instance cannot be placed, all of them
    are created unplaced and end in ERROR with a NoValidHost fault.
    """
    flavor, image_ref, mappings, volume_backed = build.disks(db, images,
                                                             request)
    quotas.check_metadata(request.metadata)
    quotas.check_personality(request.personality)
    key = build.keypair(db, caller.user_id, request.key_name)
    ports = networks.requested_ports(db, request.networks, request.max_count)
    zone, forced_host = build.requested_zone(db, caller,
                                             request.availability_zone)
    build.check_requested_host(db, caller, request.requested_host)
    count = quotas.instance_count(db, config, caller.project_id,
                                  request.min_count, request.max_count)
    plan = build.Plan(flavor, image_ref, mappings, key, zone,
                      build.reservation_id(), count)
    new_ids = [common.new_uuid() for _ in range(count)]
    spec = scheduler.RequestSpec(
        scheduler.resources(flavors.snapshot(flavor), volume_backed),
        zone=zone, forced_host=forced_host,
        requested_host=request.requested_host,
        hints=request.scheduler_hints)
    # None: NoValidHost, and the conductor fails every instance of the
    # request (they get no host, no ports, vm_state error and a fault)
    destinations = scheduler.select_destinations(db, spec, new_ids)
    created = []
    for index, new_id in enumerate(new_ids):
        host = destinations[index] if destinations else None
        host_zone = aggregates.host_zone(db, host) if host else zone
        row = build.record(caller, request, plan, index, new_id, host,
                           host_zone)
        _insert(db, row, ports if host else [])
        created.append(row)
    return created


def _insert(db, row, ports):
    columns = list(row)
    cursor = db.execute(
        "INSERT INTO servers (%s) VALUES (%s)"
        % (", ".join(columns), ", ".join("?" * len(columns))),
        [row[c] for c in columns])
    row["seq"] = cursor.lastrowid
    row["ports"] = json.dumps(networks.assign(row["seq"], row["id"], ports))
    db.execute("UPDATE servers SET ports = ? WHERE seq = ?",
               (row["ports"], row["seq"]))


def update(db, server, changes):
    """Set ``changes`` (columns: ``name``, ``description``, ``access_ipv4``,
    ``access_ipv6``, ``hostname``, ``auto_disk_config``) and save."""
    server.update(changes)
    touch(server)
    save(db, server)
    return server


def delete(db, caller, server):
    """Delete ``server`` (not locked, unless the caller is an admin); the
    row stays with ``vm_state`` ``deleted``."""
    check_lock(caller, server)
    now = common.iso_naive_micro(common.utcnow())
    server.update({"vm_state": "deleted", "task_state": None,
                   "power_state": states.NOSTATE, "pending": None,
                   "task_started_at": None, "deleted": 1, "deleted_at": now,
                   "terminated_at": now, "updated_at": now})
    save(db, server)


# -- listing --------------------------------------------------------------------

def select(db, caller, progress, projects, search, sort_keys=(),
           sort_dirs=(), marker=None):
    """The servers of ``projects`` (None: all) matching ``search`` (see
    :func:`.server_filters.predicates`), advanced to now and sorted by
    ``sort_keys``/``sort_dirs`` (checked after the progress is persisted,
    as nova's DB layer checks them); the ``marker`` server is included even
    when filtered out (see :func:`_with_marker`)."""
    preds, include_deleted = server_filters.predicates(
        search, lambda server: zone_of(db, server))
    sql, args = "SELECT * FROM servers WHERE 1 = 1", []
    if not include_deleted:
        sql += " AND deleted = 0"
    if projects is not None:
        sql += " AND project_id = ?"
        args.append(projects[0])
    servers = progress.advance([dict(r) for r in
                                db.execute(sql, args).fetchall()])
    servers = [s for s in servers if all(p(s) for p in preds)]
    servers = _with_marker(db, servers, projects, marker)
    order = server_filters.sort_order(list(sort_keys), list(sort_dirs),
                                      caller.is_admin)
    return server_filters.sort(servers, order)


def _with_marker(db, servers, projects, marker):
    """Add the ``marker`` server when the filters left it out.

    Nova looks the marker up with ``read_deleted='yes'`` and without the
    list's filters, then pages on from its sort position; so a marker that
    was deleted since the previous page still works. Paging then skips the
    marker itself. Unlike nova, whose lookup is elevated to every project,
    the marker must be a server of the listed ``projects`` (None: all):
    another project's id is ``marker [..] not found`` like an unknown one,
    not an oracle for its existence and creation time.
    """
    if marker is None or any(s["id"] == marker for s in servers):
        return servers
    sql, args = "SELECT * FROM servers WHERE id = ?", [marker]
    if projects is not None:
        sql += " AND project_id = ?"
        args.append(projects[0])
    row = db.execute(sql, args).fetchone()
    return servers if row is None else servers + [dict(row)]
