"""Compute hosts: services and hypervisor nodes, the layer below
:mod:`.aggregates` (which gives hosts their availability zones and lists
the zones) and :mod:`.scheduler` (which measures what the nodes hold, as
os-hypervisors reports it).

The cloud has one ``controller`` host (nova-scheduler, nova-conductor, zone
``internal``) and ``config.compute_hosts`` compute hosts ``host1``…``hostN``
(nova-compute plus one hypervisor node each, named like the host). Only
nova-compute services can be updated; the scheduler reads ``disabled`` and
``forced_down`` directly (``ComputeFilter``).
"""

import datetime
import sqlite3
from collections.abc import Callable
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.compute import server_rows

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

Leave = Callable[[Any, str], None]
_LEAVES: list[Leave] = []


def seed(db: sqlite3.Connection, compute_host_count: int) -> None:
    now = common.iso_naive_micro(common.utcnow())
    rows = [(b, CONTROLLER) for b in CONTROL_BINARIES]
    rows += [(COMPUTE_BINARY, "host%d" % i) for i in range(1, compute_host_count + 1)]
    for binary, host in rows:
        db.execute(
            "INSERT OR IGNORE INTO compute_services (uuid, binary, host,"
            " created_at) VALUES (?, ?, ?, ?)",
            (common.new_uuid(), binary, host, now),
        )
    for i in range(1, compute_host_count + 1):
        db.execute(
            "INSERT OR IGNORE INTO compute_nodes (uuid, host,"
            " hypervisor_hostname, host_ip, vcpus, memory_mb, local_gb,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                common.new_uuid(),
                "host%d" % i,
                "host%d" % i,
                "192.168.122.%d" % (10 + i),
                NODE_VCPUS,
                NODE_MEMORY_MB,
                NODE_LOCAL_GB,
                now,
            ),
        )


# -- services ---------------------------------------------------------------


def compute_hosts(db: sqlite3.Connection) -> list[str]:
    """Names of all compute hosts, in creation order."""
    return [
        r["host"]
        for r in db.execute(
            "SELECT host FROM compute_services WHERE binary = ? ORDER BY id", (COMPUTE_BINARY,)
        )
    ]


def compute_service(db, host):
    """The nova-compute service row of ``host``, or None."""
    return db.execute(
        "SELECT * FROM compute_services WHERE binary = ? AND host = ?", (COMPUTE_BINARY, host)
    ).fetchone()


def host_status(db, host):
    """Nova's ``host_status`` of a server on ``host`` (2.16)."""
    if not host:
        return ""
    svc = compute_service(db, host)
    if svc is None or svc["forced_down"]:
        return "DOWN"
    return "MAINTENANCE" if svc["disabled"] else "UP"


def services(db, binary=None, host=None):
    """Service rows (optionally of one binary and/or host), by id."""
    sql, args = "SELECT * FROM compute_services WHERE 1 = 1", []
    for column, value in (("binary", binary), ("host", host)):
        if value is not None:
            sql += " AND %s = ?" % column
            args.append(value)
    return db.execute(sql + " ORDER BY id", args).fetchall()


def service_by_uuid(db, ident):
    """The service row with uuid ``ident``, or NotFound."""
    row = db.execute("SELECT * FROM compute_services WHERE uuid = ?", (ident,)).fetchone()
    if row is None:
        raise errors.NotFound("Service %s could not be found." % ident)
    return row


def find_service(db: sqlite3.Connection, column: str, ident: int | str) -> sqlite3.Row | None:
    """The service row whose ``column`` (``id`` or ``uuid``) is ``ident``,
    or None (os-services names a service by id before 2.53, by uuid after)."""
    if column not in ("id", "uuid"):
        raise ValueError("no service column %r" % column)
    return db.execute("SELECT * FROM compute_services WHERE %s = ?" % column, (ident,)).fetchone()


def on_delete(leave: Leave) -> None:
    """Register ``leave(db, host)``: what a compute host whose nova-compute
    service is deleted leaves (its aggregates), run before its node goes.
    The rules that own those sit above this module, so they register
    themselves (:mod:`.aggregates` does) instead of being imported here."""
    if leave not in _LEAVES:
        _LEAVES.append(leave)


def delete_service(db, row):
    """Nova's ``ServiceController.delete``: a nova-compute service hosting
    servers is refused (409); otherwise its host leaves its aggregates (see
    :func:`on_delete`) and its hypervisor node goes with it (as
    ``service_destroy`` does). A host deleted this way comes back when the
    cloud restarts, as a nova-compute that still runs registers again when
    it starts."""
    if row["binary"] == COMPUTE_BINARY:
        if server_rows.servers_on_host(db, row["host"]):
            raise errors.Conflict(
                "Unable to delete compute service that is hosting "
                "instances. Migrate or delete the instances first."
            )
        for leave in _LEAVES:
            leave(db, row["host"])
        db.execute("DELETE FROM compute_nodes WHERE host = ?", (row["host"],))
    db.execute("DELETE FROM compute_services WHERE id = ?", (row["id"],))


def check_updatable(binary):
    """Only nova-compute services can be updated (400 otherwise)."""
    if binary != COMPUTE_BINARY:
        raise errors.BadRequest(
            "Updating a %s service is not supported. Only nova-compute "
            "services can be updated." % binary
        )


def update_service(db, row, changes):
    """Set ``changes`` (``disabled``, ``disabled_reason``, ``forced_down``)
    on the service ``row``; returns the updated row."""
    sets = ", ".join("%s = ?" % name for name in changes)
    db.execute(
        "UPDATE compute_services SET %s WHERE id = ?" % sets, list(changes.values()) + [row["id"]]
    )
    return db.execute("SELECT * FROM compute_services WHERE id = ?", (row["id"],)).fetchone()


def update_host_service(db, host, binary, changes):
    """The pre-2.53 update, by host and binary: nova-compute only, and the
    host must exist (nova looks it up in the cell mappings first)."""
    check_updatable(binary)
    row = compute_service(db, host)
    if row is None:
        raise errors.NotFound("Host '%s' is not mapped to any cell" % host)
    update_service(db, row, changes)


# -- hypervisor nodes -------------------------------------------------------


def nodes(db, hostname_pattern=None):
    """Node rows joined with their service (``service_id``,
    ``service_uuid``, ``disabled``, …), by id; with a pattern only the
    nodes whose name contains it (NotFound if none)."""
    rows = db.execute(
        "SELECT n.*, s.id AS service_id, s.uuid AS service_uuid,"
        " s.disabled, s.disabled_reason, s.forced_down"
        " FROM compute_nodes n JOIN compute_services s"
        " ON s.host = n.host AND s.binary = ? ORDER BY n.id",
        (COMPUTE_BINARY,),
    ).fetchall()
    if hostname_pattern is None:
        return rows
    rows = [r for r in rows if hostname_pattern in r["hypervisor_hostname"]]
    if not rows:
        raise errors.NotFound("No hypervisor matching '%s' could be found." % hostname_pattern)
    return rows


def node(db, column, ident):
    """The node whose ``column`` (``id`` or ``uuid``) is ``ident``."""
    for row in nodes(db):
        if str(row[column]) == ident:
            return row
    raise errors.NotFound("Hypervisor with ID '%s' could not be found." % ident)


def uptime(db, row):
    """What ``uptime`` prints on the node's host (libvirt's
    ``get_host_uptime``), the node's creation counting as its boot; None
    when its service is forced down (nova cannot ask a down host)."""
    if row["forced_down"]:
        return None
    now = common.utcnow()
    booted = datetime.datetime.fromisoformat(row["created_at"]).replace(
        tzinfo=datetime.timezone.utc
    )
    seconds = max(0, int((now - booted).total_seconds()))
    days, rest = divmod(seconds, 86400)
    hours, minutes = rest // 3600, rest % 3600 // 60
    up = "%2d:%02d" % (hours, minutes) if hours else "%d min" % minutes
    if days:
        up = "%d day%s, %s" % (days, "" if days == 1 else "s", up)
    return " %s up %s,  0 users,  load average: 0.00, 0.00, 0.00" % (now.strftime("%H:%M:%S"), up)


def servers_of_host(db, host):
    """``[{"name": <instance name>, "uuid": …}]`` of the servers on ``host``."""
    return [
        {"name": server_rows.instance_name(r["seq"]), "uuid": r["id"]}
        for r in db.execute(
            "SELECT seq, id FROM servers WHERE host = ? AND deleted = 0 ORDER BY seq", (host,)
        )
    ]
