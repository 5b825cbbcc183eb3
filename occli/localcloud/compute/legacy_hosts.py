"""The rules of nova's deprecated ``/os-hosts`` (``HostController``,
nova/api/openstack/compute/hosts.py) over the hosts the cloud has.

A host is known to it through its nova-compute service (nova's host
mapping: ``Host '<name>' is not mapped to any cell``, 404, for any other
name, the controller's included). Enabling a host, its maintenance mode
and its power actions are the virt driver's; the local cloud's driver
answers as nova's fake driver does (the answer only: ``enabled`` /
``disabled``, ``on_maintenance`` / ``off_maintenance``, the action's own
name) and changes nothing, as that driver does.
"""

import json
import sqlite3
from typing import Any

from occli.localcloud import errors
from occli.localcloud.compute import aggregates
from occli.localcloud.compute import hosts
from occli.localcloud.compute import scheduler

# nova's services of the API itself, never listed
_API_BINARIES = ("nova-osapi_compute", "nova-metadata")


def listing(db: sqlite3.Connection, zone: str | None) -> list[dict[str, str]]:
    """``index``: the enabled services (of ``zone`` when given) as
    ``{host_name, service, zone}``, ``service`` the binary's topic."""
    listed = []
    for row in hosts.services(db):
        if row["disabled"] or row["binary"] in _API_BINARIES:
            continue
        service_zone = aggregates.service_zone(db, row)
        if zone and service_zone != zone:
            continue
        listed.append(
            {
                "host_name": row["host"],
                "service": row["binary"].replace("nova-", "", 1),
                "zone": service_zone,
            }
        )
    return listed


def check_host(db: sqlite3.Connection, host: str) -> sqlite3.Row:
    """The nova-compute service of ``host``, or nova's 404."""
    service = hosts.compute_service(db, host)
    if service is None:
        raise errors.NotFound("Host '%s' is not mapped to any cell" % host)
    return service


def resources(db: sqlite3.Connection, host: str) -> list[dict[str, Any]]:
    """``show``: the ``(total)``, ``(used_now)`` and ``(used_max)`` rows of
    ``host``'s node, then one per project of its servers (their flavors'
    vcpus, memory and root plus ephemeral disk, in server order)."""
    check_host(db, host)
    node = next(r for r in hosts.nodes(db) if r["host"] == host)
    usage = scheduler.node_usage(db, node)
    rows = [
        {
            "host": host,
            "project": "(total)",
            "cpu": node["vcpus"],
            "memory_mb": node["memory_mb"],
            "disk_gb": node["local_gb"],
        },
        {
            "host": host,
            "project": "(used_now)",
            "cpu": usage["vcpus_used"],
            "memory_mb": usage["memory_mb_used"],
            "disk_gb": usage["local_gb_used"],
        },
    ]
    total = {"host": host, "project": "(used_max)", "cpu": 0, "memory_mb": 0, "disk_gb": 0}
    projects: dict[str, dict[str, Any]] = {}
    for server in db.execute(
        "SELECT project_id, flavor FROM servers WHERE host = ? AND deleted = 0 ORDER BY seq",
        (host,),
    ):
        flavor = json.loads(server["flavor"])
        project = projects.setdefault(
            server["project_id"],
            {
                "host": host,
                "project": server["project_id"],
                "cpu": 0,
                "memory_mb": 0,
                "disk_gb": 0,
            },
        )
        for row in (total, project):
            row["cpu"] += flavor["vcpus"]
            row["memory_mb"] += flavor["ram"]
            row["disk_gb"] += flavor["disk"] + flavor["ephemeral"]
    return rows + [total, *projects.values()]


def update(db: sqlite3.Connection, host: str, status: str | None, maintenance: str | None) -> dict:
    """``update``: what the driver answers for the enable ``status`` and
    the ``maintenance`` mode asked (``enable``/``disable``, any case)."""
    check_host(db, host)
    result: dict[str, Any] = {"host": host}
    if status is not None:
        result["status"] = "enabled" if status.strip().lower() == "enable" else "disabled"
    if maintenance is not None:
        on = maintenance.strip().lower() == "enable"
        result["maintenance_mode"] = "on_maintenance" if on else "off_maintenance"
    return result


def power_action(db: sqlite3.Connection, host: str, action: str) -> dict[str, str]:
    """``startup``/``shutdown``/``reboot``: the driver's answer."""
    check_host(db, host)
    return {"host": host, "power_action": action}
