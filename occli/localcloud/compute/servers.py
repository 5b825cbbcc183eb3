"""Servers: the ``servers`` table and nova's compute API rules over it
(create, update, delete, listing), the lifecycle layer above
:mod:`.server_rows`.

Every read of a server goes through :func:`get` or :func:`select`, which
advance its lazy state (:class:`~.states.Progress`); writes go through
:func:`.server_rows.save`. Other modules read the table, and write it only
through here, :mod:`.server_rows` or :mod:`.actions`.
"""

import json
import sqlite3

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.compute import aggregates
from occli.localcloud.compute import build
from occli.localcloud.compute import flavors
from occli.localcloud.compute import instance_actions
from occli.localcloud.compute import networks
from occli.localcloud.compute import quotas
from occli.localcloud.compute import scheduler
from occli.localcloud.compute import server_filters
from occli.localcloud.compute import server_groups
from occli.localcloud.compute import server_rows
from occli.localcloud.compute import states
from occli.localcloud.compute import values
from occli.localcloud.compute import volume_attach

#: instances one write transaction of a create makes (see :func:`create`):
#: ~0.2 ms each with their ports, so a chunk holds the write lock ~5 ms
CREATE_CHUNK = 25
# rows read by one ``IN (...)``: SQLite allows 32766 variables (999 before
# 3.32), so a page (at most 1000 servers) is one query
_BATCH = 32000 if sqlite3.sqlite_version_info >= (3, 32) else 900

# a soft-deleted server reclaimed as it is read gives back what a delete does
states.on_release(networks.release)
states.on_release(volume_attach.release)


# -- the table ------------------------------------------------------------------


def zone_of(db, server):
    """The availability zone a server is in (its host's, else the stored)."""
    if server["host"]:
        return aggregates.host_zone(db, server["host"])
    return server["availability_zone"]


def get(db, caller, server_id, progress):
    """The live server ``caller`` may see, advanced to now; NotFound
    otherwise (another project's server is not found, except for admins)."""
    row = db.execute("SELECT * FROM servers WHERE id = ? AND deleted = 0", (server_id,)).fetchone()
    if row is None or (row["project_id"] != caller.project_id and not caller.is_admin):
        raise errors.NotFound("Instance %s could not be found." % server_id)
    server = progress.advance([dict(row)])[0]
    if server["deleted"]:
        # a soft-deleted server reclaimed as it was read (see soft_delete)
        raise errors.NotFound("Instance %s could not be found." % server_id)
    return server


# -- create, update, delete ---------------------------------------------------------


def create(store, caller, config, images, request, request_id):
    """Nova's ``compute_api.create``: check ``request`` (a
    :class:`~.build.BuildRequest`), schedule and insert its instances,
    recording each one's ``create`` action for ``request_id``.

    Returns the new rows. When any instance cannot be placed, all of them
    are created unplaced and end in ERROR with a NoValidHost fault.

    No write lock is held for the whole plan, nor for the counting and
    the placement (tens of ms once a project has thousands of servers):
    the checks that may write (the default security group made, deleted
    servers' ports reaped) are a short write transaction; the quota count,
    the other checks and the placement read one snapshot (nova's API and
    scheduler take no lock either); the instances are then made
    :data:`CREATE_CHUNK` at a time, each chunk one write transaction of
    inserts only, so other requests write between the chunks (the store's
    writers take turns; nova creates its build requests one by one). Once
    a chunk's rows are in, the quotas are counted again (nova's quota
    recheck) in a read: of two creates side by side the later count sees
    both, so they never exceed the quotas. When a recheck fails, as when
    anything of a chunk fails, what the create made is removed (nova's
    ``_cleanup_build_artifacts``) and the error raised.
    """
    with store.transaction() as db:
        plan = _check(db, caller, images, request)
    with store.read() as db:
        _place(db, caller, config, request, plan, store)
    created = []
    try:
        for start in range(0, plan.count, CREATE_CHUNK):
            rows = _records(caller, request, plan, start)
            with store.transaction() as db:
                created += _make(db, caller, config, plan, request_id, rows)
            with store.read() as db:
                _recheck(db, caller, config, plan)
    except BaseException:
        if created:
            with store.transaction() as db:
                _discard(db, plan, created)
        raise
    return created


def _check(db, caller, images, request):
    """The checks of a create before its quota count, in nova's order (some
    write: a project's default security group is made on first use): a
    :class:`~.build.Plan` of ``request.max_count`` instances."""
    flavors.check_visible(db, caller, request.flavor_ref)
    flavor, image_ref, mappings, volume_backed = build.disks(db, caller, images, request)
    if request.auto_disk_config is None:
        request.auto_disk_config = build.image_disk_config(db, caller, images, image_ref)
    flavors.check_zero_disk(caller, flavor, volume_backed)
    quotas.check_metadata(request.metadata, db, caller.project_id)
    quotas.check_personality(request.personality, db, caller.project_id)
    key = build.keypair(db, caller.user_id, request.key_name)
    groups = networks.security_groups(db, caller, request.security_groups)
    ports = networks.requested_ports(db, caller, request.networks, request.max_count)
    zone, forced_host = build.requested_zone(db, caller, request.availability_zone)
    build.check_requested_host(db, caller, request.requested_host)
    plan = build.Plan(
        flavor, image_ref, mappings, key, zone, build.reservation_id(), request.max_count
    )
    plan.volume_backed, plan.forced_host = volume_backed, forced_host
    plan.ports, plan.security_groups = ports, groups
    return plan


def _place(db, caller, config, request, plan, store):
    """The rest of a create's checks, in nova's order, on a read snapshot
    (``store``: the cloud's, for the volumes' lazy progress):
    the quota count (``plan.count``), the volumes, the server group; then
    the placement of every instance (``plan.destinations``)."""
    plan.count = quotas.instance_count(
        db,
        config,
        caller.project_id,
        request.min_count,
        request.max_count,
        plan.flavor,
        caller.user_id,
    )
    volume_attach.check_mappings(db, caller, config, plan.mappings, bool(request.image_ref), store)
    group = server_groups.from_hints(db, caller, request.scheduler_hints)
    if group is not None:
        server_groups.check_members(db, caller, group, plan.count)
    plan.new_ids = [common.new_uuid() for _ in range(plan.count)]
    spec = scheduler.RequestSpec(
        scheduler.resources(flavors.snapshot(plan.flavor), plan.volume_backed),
        zone=plan.zone,
        forced_host=plan.forced_host,
        requested_host=request.requested_host,
        hints=request.scheduler_hints,
        group=server_groups.placement(db, group) if group is not None else None,
    )
    # None: NoValidHost, and the conductor fails every instance of the
    # request (they get no host, no ports, vm_state error and a fault)
    plan.destinations = scheduler.select_destinations(db, spec, plan.new_ids)
    plan.host_zones = aggregates.host_zones(db)
    plan.server_group = group


def _recheck(db, caller, config, plan):
    """Nova's quota recheck once a chunk's rows are in: the project's
    instances, cores and RAM, and the server group's members."""
    quotas.recheck(db, config, caller.project_id, plan.flavor, plan.count, caller.user_id)
    if plan.server_group is not None:
        server_groups.check_members(db, caller, plan.server_group, 0)


def _records(caller, request, plan, start):
    """The rows of instances ``start`` to ``start + CREATE_CHUNK`` of
    ``plan``, built before their write transaction (Python work that need
    not hold the write lock)."""
    rows = []
    for index in range(start, min(start + CREATE_CHUNK, plan.count)):
        host = plan.destinations[index] if plan.destinations else None
        host_zone = plan.host_zones.get(host, aggregates.DEFAULT_ZONE) if host else plan.zone
        rows.append(
            build.record(caller, request, plan, index, plan.new_ids[index], host, host_zone)
        )
    return rows


def _make(db, caller, config, plan, request_id, rows):
    """Insert ``rows`` (:func:`_records`) with their ports, volumes, group
    membership and ``create`` actions."""
    made = []
    for row in rows:
        _insert(db, row)
        if row["host"]:
            networks.allocate(db, caller, row, plan.ports, plan.security_groups)
            db.execute(
                "UPDATE servers SET ports = ?, security_groups = ? WHERE seq = ?",
                (row["ports"], row["security_groups"], row["seq"]),
            )
            volume_attach.build(db, caller, config, row, plan.mappings)
        made.append(row)
    server_rows.keep_boot_roles(db, caller.roles, made)
    group = plan.server_group
    if group is not None:  # members from the start, ERROR ones too (nova)
        server_groups.add_members(db, group, [row["id"] for row in made])
    now = common.utcnow().timestamp()
    for row in made:
        pending = json.loads(row["pending"]) if row["pending"] else None
        length = 0.0 if pending is None else pending.get("duration", config.build_time)
        instance_actions.record(
            db,
            row,
            "create",
            request_id,
            caller.user_id,
            caller.project_id,
            # an instance the scheduler could not place is never built
            events=None if row["host"] else (),
            duration=max(0.0, row["task_started_at"] + length - now) if pending else 0.0,
        )
    return made


def _discard(db, plan, rows):
    """Remove what a failed create made: ports and volumes released (the
    volumes it made deleted), group memberships, actions and rows gone, as
    nova drops the build requests of a create that fails."""
    kept = {m.get("volume_id") for m in plan.mappings if m.get("source_type") == "volume"}
    for row in rows:
        networks.release(db, row)
        attached = volume_attach.items(row)
        for item in attached:
            item["delete_on_termination"] = item["delete_on_termination"] or item["id"] not in kept
        row["volumes"] = json.dumps(attached)
        volume_attach.release(db, row)
    ids = [row["id"] for row in rows]
    server_groups.remove_members(db, ids)
    instance_actions.forget(db, ids)
    server_rows.forget_boot_roles(db, ids)
    db.executemany("DELETE FROM servers WHERE id = ?", [(i,) for i in ids])


def _insert(db, row):
    columns = list(row)
    cursor = db.execute(
        "INSERT INTO servers (%s) VALUES (%s)"
        % (", ".join(columns), ", ".join("?" * len(columns))),
        [row[c] for c in columns],
    )
    row["seq"] = cursor.lastrowid


def update(db, server, changes):
    """Set ``changes`` (columns: ``name``, ``description``, ``access_ipv4``,
    ``access_ipv6``, ``hostname``, ``auto_disk_config``) and save."""
    server.update(changes)
    if "access_ipv6" in changes:
        server["access_ipv6"] = values.ipv6(changes["access_ipv6"])
    server_rows.touch(server)
    server_rows.save(db, server)
    return server


def delete(db, caller, server):
    """Delete ``server`` (not locked, unless the caller is an admin); the
    row stays with ``vm_state`` ``deleted``."""
    server_rows.check_lock(caller, server)
    networks.release(db, server)
    volume_attach.release(db, server)
    now = common.iso_naive_micro(common.utcnow())
    server.update(
        {
            "vm_state": "deleted",
            "task_state": None,
            "power_state": states.NOSTATE,
            "pending": None,
            "task_started_at": None,
            "deleted": 1,
            "deleted_at": now,
            "terminated_at": now,
            "updated_at": now,
        }
    )
    server_rows.save(db, server)


# -- listing --------------------------------------------------------------------


def select(db, caller, progress, projects, search, sort_keys=(), sort_dirs=()):
    """The servers of ``projects`` (None: all) matching ``search`` (see
    :func:`.server_filters.predicates`), sorted by ``sort_keys``/
    ``sort_dirs``: a :class:`Listing`, whose :meth:`~Listing.page` reads
    one page. The servers whose state is moving are advanced to now (and
    the progress persisted) first; the sort is checked after that, as
    nova's DB layer checks it."""
    return Listing(db, caller, progress, projects, search, sort_keys, sort_dirs)


class Listing:
    """The servers one list request sees, read a page at a time.

    A server with a pending operation (``pending`` set) changes as time
    passes: those are read whole, advanced and filtered in Python. Every
    other (*settled*) row is what the snapshot holds, so SQL sorts them and
    skips past the marker (keyset), and they are read in that order (their
    ``seq`` and the filtered columns only) until the page is full; only
    the rows of the page are read whole. The two are merged in the order
    :func:`.server_filters.sort` gives the whole list, so a page is what
    filtering and sorting every server and slicing after the marker gives.
    Per-host lookups (the availability zone filter) are memoised.
    """

    def __init__(self, db, caller, progress, projects, search, sort_keys, sort_dirs):
        self.db = db
        self._zones = {}
        self.preds, include_deleted = server_filters.predicates(search, self._zone_of)
        self.include_deleted = include_deleted
        self.columns = server_filters.columns(search)
        scope, args = [], []
        if not include_deleted:
            scope.append("deleted = 0")
        if projects is not None:
            scope.append("project_id = ?")
            args.append(projects[0])
        self.scope, self.scope_args = scope, args
        moving = db.execute(
            "SELECT * FROM servers WHERE %s" % " AND ".join(scope + ["pending IS NOT NULL"]), args
        ).fetchall()
        self.moving = progress.advance([dict(r) for r in moving])
        self.projects = projects
        self.order = server_filters.sort_order(list(sort_keys), list(sort_dirs), caller.is_admin)

    def _zone_of(self, server):
        host = server["host"]
        if not host:
            return server["availability_zone"]
        if host not in self._zones:
            self._zones[host] = aggregates.host_zone(self.db, host)
        return self._zones[host]

    def _matches(self, server):
        return all(p(server) for p in self.preds)

    def page(self, marker=None, limit=None):
        """At most ``limit`` (None: every) servers after the ``marker``
        server (an id; None: from the start), advanced to now, as dicts.

        As in nova the marker is looked up among every server of the
        listed projects, deleted or filtered out ones included (nova also
        looks it up with ``read_deleted='yes'`` and without the filters,
        so a marker deleted since the previous page still pages on); the
        page starts after its place in the order. Unlike nova, whose lookup
        is elevated to every project, another project's id is ``marker
        [..] not found`` like an unknown one, not an oracle for its
        existence and creation time.
        """
        position = None if marker is None else self._marker(marker)
        # a soft-deleted server reclaimed as it was read is gone unless
        # deleted servers are listed
        moving = [
            s
            for s in self.moving
            if self._matches(s) and (self.include_deleted or not s["deleted"])
        ]
        if position is not None:
            moving = _after(moving, position, self.order)
        if limit == 0:
            return []
        settled = self._settled(position, limit, {s["seq"] for s in self.moving})
        if not moving:
            return settled
        found = server_filters.sort(settled + moving, self.order)
        return found if limit is None else found[:limit]

    def _marker(self, marker):
        """The marker's place: its row as this list sees it (advanced, if
        it is listed), else as stored."""
        for server in self.moving:
            if server["id"] == marker and self._matches(server):
                return server
        sql, args = "SELECT * FROM servers WHERE id = ?", [marker]
        if self.projects is not None:
            sql += " AND project_id = ?"
            args.append(self.projects[0])
        row = self.db.execute(sql, args).fetchone()
        if row is None:
            raise errors.BadRequest("marker [%s] not found" % marker)
        return dict(row)

    def _settled(self, position, limit, moving):
        """The settled servers of the page (after ``position``), in order:
        their ``seq`` (and the filtered columns) sorted in SQL, then the
        page's rows read whole. ``moving``: the seqs read as moving (in a
        write transaction their advance may already be written: skipped)."""
        where = self.scope + ["pending IS NULL"]
        args = list(self.scope_args)
        if position is not None:
            sql, after_args = server_filters.after(self.order, position)
            where.append(sql)
            args += after_args
        # no LIMIT: the rows are read until the page is full, and SQLite
        # sorts them all faster than it keeps the first N in order
        sql = "SELECT %s FROM servers WHERE %s ORDER BY %s" % (
            ", ".join(["seq"] + self.columns),
            " AND ".join(where),
            server_filters.order_by(self.order),
        )
        seqs, preds = [], self.preds
        cursor = self.db.cursor()
        if not preds:
            cursor.row_factory = None  # the seq alone: plain tuples
        try:
            for row in cursor.execute(sql, args):
                if row[0] in moving or (preds and not all(p(row) for p in preds)):
                    continue
                seqs.append(row[0])
                if len(seqs) == limit:
                    break
        finally:
            cursor.close()
        return _rows(self.db, seqs)


def _after(servers, position, order):
    """The ``servers`` sorted after ``position`` (a server mapping) in
    ``order``; ``position``'s own server is never among them."""
    ranked = server_filters.sort(
        [s for s in servers if s["seq"] != position["seq"]] + [position], order
    )
    for index, server in enumerate(ranked):
        if server is position:
            return ranked[index + 1 :]
    return []


def _rows(db, seqs):
    """The rows ``seqs`` as dicts, in that order (read in batches)."""
    rows = {}
    for start in range(0, len(seqs), _BATCH):
        batch = seqs[start : start + _BATCH]
        cursor = db.cursor()
        cursor.row_factory = None  # plain tuples: dicts are made here
        cursor.execute(
            "SELECT * FROM servers WHERE seq IN (%s)" % ",".join("?" * len(batch)), batch
        )
        names = [d[0] for d in cursor.description]
        key = names.index("seq")
        for row in cursor:
            rows[row[key]] = dict(zip(names, row, strict=True))
    return [rows[seq] for seq in seqs]
