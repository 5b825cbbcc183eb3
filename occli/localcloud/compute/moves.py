"""Moving servers between hosts: cold and live migration, evacuation, and
the migration records of resizes, as nova's compute API rules.

Each move checks what nova's API checks (policy, lock, state, hosts), asks
the scheduler for a destination (the source host left out) and starts two
lazy plans of the same length: the server's (task states, then its new
host) and its migration record's (statuses, see :mod:`.migration_records`).
``Timing`` gives their lengths. When no host fits, nova's API still
accepts the request and the record ends in ``error``, the server back as
it was (an evacuated one in ERROR with nova's NoValidHost fault).
"""

import dataclasses
import json

from occli.localcloud import common as clock
from occli.localcloud import errors
from occli.localcloud.compute import actions
from occli.localcloud.compute import build
from occli.localcloud.compute import hosts
from occli.localcloud.compute import migration_records as records
from occli.localcloud.compute import scheduler
from occli.localcloud.compute import server_groups
from occli.localcloud.compute import server_rows
from occli.localcloud.compute import states

_MIGRATE_POLICY = "os_compute_api:os-migrate-server:migrate"
_LIVE_POLICY = "os_compute_api:os-migrate-server:migrate_live"
EVACUATE_POLICY = "os_compute_api:os-evacuate"
SERVER_MIGRATIONS_POLICY = "os_compute_api:servers:migrations:%s"
_RESIZE_TASKS = ["resize_prep", "resize_migrating", "resize_migrated", "resize_finish"]
_REBUILD_TASKS = ["rebuilding", "rebuild_block_device_mapping", "rebuild_spawning"]


@dataclasses.dataclass(frozen=True)
class Timing:
    """Seconds a move takes: ``build_time`` (cold moves, evacuations, the
    first steps of a live migration) and ``live_migration_time`` (how long
    a live migration runs; 0: as long as a build)."""

    build_time: float = 0.0
    live_migration_time: float = 0.0

    def cold(self, end="finished"):
        b = self.build_time
        return [[0, "pre-migrating"], [b / 4, "migrating"], [b / 2, "post-migrating"]], b, end

    def live(self, end="completed"):
        b = self.build_time
        steps = [[0, "queued"], [b / 3, "preparing"], [2 * b / 3, "running"]]
        return steps, max(b, self.live_migration_time), end

    def evacuation(self, end="done"):
        b = self.build_time
        return [[0, "accepted"], [b / 3, "pre-migrating"]], b, end

    def failed(self, first):
        return [[0, first]], self.build_time, "error"


def _start(db, server, tasks, end, duration, progress=False, fault=None, failure=None):
    """Start ``server``'s plan, lasting ``duration`` seconds, and save it."""
    states.start(
        server, tasks, end, progress=progress, fault=fault, failure=failure, duration=duration
    )
    server_rows.touch(server)
    server_rows.save(db, server)


def _check_source_up(db, server):
    """Nova's ``check_instance_host(check_is_up=True)``."""
    actions.check_host(server)
    service = hosts.compute_service(db, server["host"])
    if service is None or service["forced_down"]:
        raise errors.Conflict("Service is unavailable at this time.")


def _check_known_host(db, host):
    if host not in hosts.compute_hosts(db):
        raise errors.BadRequest("Compute host %s could not be found." % host)


def _group(db, caller, server):
    """The scheduler's view of the server's group (the server itself left
    out of its members' hosts), or None."""
    uuids = server_groups.groups_of(db, server["id"])
    if not uuids:
        return None
    group = server_groups.placement(db, server_groups.get(db, caller, uuids[0]))
    if server["host"]:
        group["hosts"][server["host"]] -= 1
    return group


def _destination(db, caller, server, requested=None, forced=None):
    """The host the scheduler picks for ``server`` (its current host left
    out, its pinned zone and its group's policy kept), or None
    (NoValidHost)."""
    flavor = json.loads(server["flavor"])
    spec = scheduler.RequestSpec(
        scheduler.resources(flavor, not server["image_ref"]),
        zone=None if forced else server["pinned_availability_zone"],
        forced_host=forced,
        requested_host=requested,
        group=_group(db, caller, server),
    )
    candidates = [s for s in scheduler.host_states(db) if s.host != server["host"]]
    chosen = scheduler.select_host(candidates, spec)
    return chosen.host if chosen else None


def _host_ip(db, host):
    row = db.execute("SELECT host_ip FROM compute_nodes WHERE host = ?", (host,)).fetchone()
    return row["host_ip"] if row else None


# -- resize and cold migration -------------------------------------------------


def migrate(db, caller, server, timing, host=None):
    """Nova's cold migration (``resize`` keeping the flavor): to ``host``
    (2.56) or where the scheduler says; the server ends in VERIFY_RESIZE on
    its new host. Returns the migration record."""
    caller.require_admin(_MIGRATE_POLICY + (":host" if host else ""))
    server_rows.check_lock(caller, server)
    server_rows.check_state(server, "migrate", ("active", "stopped"))
    _check_source_up(db, server)
    if host is not None:
        if host == server["host"]:
            raise errors.BadRequest("Cannot migrate to the host where the server exists.")
        _check_known_host(db, host)
    dest = _destination(db, caller, server, requested=host)
    flavor = server["flavor"]
    if dest is None:
        record = records.create(
            db,
            caller,
            server,
            records.MIGRATION,
            server["host"],
            None,
            flavor,
            flavor,
            timing.failed("pre-migrating"),
        )
        _start(
            db,
            server,
            ["resize_prep"],
            {},
            timing.build_time,
            failure="No valid host was found. No valid host found for cold migrate",
        )
        return record
    record = records.create(
        db,
        caller,
        server,
        records.MIGRATION,
        server["host"],
        dest,
        flavor,
        flavor,
        timing.cold(),
        dest_ip=_host_ip(db, dest),
    )
    _start(
        db,
        server,
        _RESIZE_TASKS,
        {
            "vm_state": "resized",
            "power_state": server["power_state"],
            "host": dest,
            "node": dest,
            "old_flavor": flavor,
        },
        timing.build_time,
        progress=True,
    )
    return record


def _set_duration(db, server, duration, **end):
    """Give ``server``'s pending plan a length (and more end values)."""
    plan = json.loads(server["pending"])
    plan["duration"] = duration
    plan["end"].update(end)
    server["pending"] = json.dumps(plan)
    server_rows.save(db, server)


def record_resize(db, caller, server, timing, same_host=False):
    """Place a resize just started (by :func:`.actions.resize`) and record
    it. As nova's scheduler: another host with room for the new flavor
    (the server's own is left out unless ``same_host``, nova's
    ``allow_resize_to_same_host``, where it stays if it fits); with none,
    nova's conductor fails with NoValidHost, the server left as it was and
    the record in ``error``."""
    new_flavor = json.loads(server["pending"])["end"]["flavor"]
    dest = _resize_destination(db, caller, server, json.loads(new_flavor), same_host)
    if dest is None:
        _start(
            db,
            server,
            ["resize_prep"],
            {},
            timing.build_time,
            failure="No valid host was found. No valid host found for resize",
        )
        return records.create(
            db,
            caller,
            server,
            records.RESIZE,
            server["host"],
            None,
            server["flavor"],
            new_flavor,
            timing.failed("pre-migrating"),
        )
    _set_duration(db, server, timing.build_time, host=dest, node=dest)
    return records.create(
        db,
        caller,
        server,
        records.RESIZE,
        server["host"],
        dest,
        server["flavor"],
        new_flavor,
        timing.cold(),
        dest_ip=_host_ip(db, dest),
    )


def _resize_destination(db, caller, server, flavor, same_host):
    """The host for ``server`` resized to ``flavor`` (its pinned zone and
    group kept), or None (NoValidHost)."""
    wanted = scheduler.resources(flavor, not server["image_ref"])
    spec = scheduler.RequestSpec(
        wanted, zone=server["pinned_availability_zone"], group=_group(db, caller, server)
    )
    candidates = scheduler.host_states(db)
    if same_host:
        for own in candidates:
            if own.host == server["host"]:
                # its usage counts the new flavor (the resize's plan); nova
                # holds the old one there and asks room for the new one
                old = scheduler.server_resources(server)
                own.consume({rc: old[rc] - wanted[rc] for rc in wanted}, server["id"])
                if scheduler.select_host([own], spec) is not None:
                    return server["host"]
    others = [s for s in candidates if s.host != server["host"]]
    chosen = scheduler.select_host(others, spec)
    return chosen.host if chosen else None


def confirmed(db, server):
    """A confirmed resize or migration: its record goes ``confirmed`` (the
    source host's resources are freed)."""
    record = records.latest(db, server["id"], ("finished",))
    if record is not None:
        records.set_status(db, record, "confirmed")


def reverting(db, server, timing):
    """A revert just started (by :func:`.actions.revert_resize`): the
    record goes ``reverting`` then ``reverted`` and the server back to its
    source host."""
    record = records.latest(db, server["id"], ("finished",))
    if record is None:
        return
    records.set_status(
        db, record, "reverting", ([[0, "reverting"]], timing.build_time, "reverted")
    )
    source = record["source_compute"]
    _set_duration(db, server, timing.build_time, host=source, node=source)


# -- live migration ------------------------------------------------------------


def live_migrate(db, caller, server, timing, host=None, force=False, async_=True):
    """Nova's ``live_migrate`` to ``host`` (forced: past the filters) or
    where the scheduler says. Before 2.34 (``async_`` False) the
    conductor's checks answer 400; afterwards the request is accepted and
    the record ends in ``error``. Returns the record."""
    caller.require_admin(_LIVE_POLICY + (":host" if host else ""))
    server_rows.check_lock(caller, server)
    server_rows.check_state(server, "os-migrateLive", ("active", "paused"))
    if host is not None:
        _check_known_host(db, host)
    flavor = server["flavor"]
    failure = None
    if host is not None and host == server["host"]:
        failure = "Unable to migrate instance (%s) to current host (%s)." % (server["id"], host)
        dest = None
    elif force and host:
        dest = _destination(db, caller, server, forced=host)
    else:
        dest = _destination(db, caller, server, requested=host)
    if dest is None:
        failure = failure or scheduler.NO_VALID_HOST
        if not async_:
            raise errors.BadRequest(failure)
        record = records.create(
            db,
            caller,
            server,
            records.LIVE,
            server["host"],
            None,
            flavor,
            flavor,
            timing.failed("queued"),
        )
        _start(db, server, ["migrating"], {}, timing.build_time, failure=failure)
        return record
    steps, duration, end = timing.live()
    record = records.create(
        db,
        caller,
        server,
        records.LIVE,
        server["host"],
        dest,
        flavor,
        flavor,
        (steps, duration, end),
    )
    _start(db, server, ["migrating"], {"host": dest, "node": dest}, duration)
    return record


def _instance_migration(db, server, migration_id, not_found=errors.NotFound):
    record = records.get(db, migration_id)
    if record is None or record["instance_uuid"] != server["id"]:
        raise not_found("Migration %s not found for instance %s" % (migration_id, server["id"]))
    return record


def _invalid_migration_state(record, server, method):
    return errors.BadRequest(
        "Migration %s state of instance %s is %s. Cannot %s while the migration is in this "
        "state." % (record["id"], server["id"], record["status"], method)
    )


def abort(db, caller, server, migration_id, allow_queued):
    """Nova's ``live_migrate_abort``: a running live migration (queued or
    preparing too from 2.65) is cancelled; the server stays where it is."""
    caller.require_admin(SERVER_MIGRATIONS_POLICY % "delete")
    server_rows.check_lock(caller, server)
    server_rows.check_state(server, "abort live migration", None, ("migrating",))
    record = _instance_migration(db, server, migration_id)
    allowed = ("running", "queued", "preparing") if allow_queued else ("running",)
    if record["status"] not in allowed:
        raise _invalid_migration_state(record, server, "abort live migration")
    records.set_status(db, record, "cancelled")
    server.update(pending=None, task_state=None, task_started_at=None)
    server_rows.touch(server)
    server_rows.save(db, server)


def force_complete(db, caller, server, migration_id):
    """Nova's ``live_migrate_force_complete``: a running live migration
    ends now."""
    caller.require_admin(SERVER_MIGRATIONS_POLICY % "force_complete")
    server_rows.check_lock(caller, server)
    server_rows.check_state(server, "force_complete", ("active",), ("migrating",))
    record = _instance_migration(db, server, migration_id, errors.BadRequest)
    if record["status"] != "running":
        raise _invalid_migration_state(record, server, "force complete")
    records.settle(db, records.finish_now(db, record))
    # the server's plan ends now too
    plan = json.loads(server["pending"])
    plan["duration"] = max(0.0, clock.utcnow().timestamp() - server["task_started_at"])
    server["pending"] = json.dumps(plan)
    states.advance(server, plan["duration"])
    server_rows.save(db, server)


# -- evacuation ----------------------------------------------------------------


def check_evacuate_host(db, server, host):
    """The evacuate API's own checks of ``host`` (404 unknown, 400 same)."""
    if host is None:
        return
    if host not in hosts.compute_hosts(db):
        raise errors.NotFound("Compute host %s not found." % host)
    if host == server["host"]:
        raise errors.BadRequest("The target host can't be the same one.")


def evacuate(db, caller, server, timing, host=None, force=False, stopped=False):
    """Nova's ``evacuate``: only from a host whose compute service is down
    (forced down here); the server is rebuilt on ``host`` or where the
    scheduler says, stopped there from 2.95 (``stopped``). Returns the
    record."""
    caller.require_admin(EVACUATE_POLICY)
    check_evacuate_host(db, server, host)
    server_rows.check_state(server, "evacuate", ("active", "stopped", "error"))
    actions.check_host(server)
    service = hosts.compute_service(db, server["host"])
    if service is not None and not service["forced_down"]:
        raise errors.BadRequest("Compute service of %s is still in use." % server["host"])
    flavor = server["flavor"]
    dest = _destination(db, caller, server, forced=host) if force else None
    if not force:
        dest = _destination(db, caller, server, requested=host)
    if dest is None:
        record = records.create(
            db,
            caller,
            server,
            records.EVACUATION,
            server["host"],
            host,
            flavor,
            flavor,
            timing.failed("accepted"),
        )
        # nova's conductor: the rebuild fails, the server in ERROR with the fault
        _start(
            db,
            server,
            ["rebuilding"],
            {"vm_state": "error"},
            timing.build_time,
            fault=scheduler.no_valid_host_fault(),
            failure=scheduler.NO_VALID_HOST,
        )
        return record
    record = records.create(
        db,
        caller,
        server,
        records.EVACUATION,
        server["host"],
        dest,
        flavor,
        flavor,
        timing.evacuation(),
    )
    if stopped or server["vm_state"] == "stopped":
        vm_state, power_state = "stopped", states.SHUTDOWN
    else:
        vm_state, power_state = "active", states.RUNNING
    _start(
        db,
        server,
        _REBUILD_TASKS,
        {
            "vm_state": vm_state,
            "power_state": power_state,
            "host": dest,
            "node": dest,
            "launched_at": states.LAUNCH_NOW,
        },
        timing.build_time,
        progress=True,
    )
    return record


def new_password(given=None):
    """The evacuated server's admin password (given, else generated)."""
    return given if given is not None else build.new_admin_password()
