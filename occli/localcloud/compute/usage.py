"""Usage: nova's simple tenant usage (server-hours per project over a
period) and its instance usage audit log, over the ``servers`` table.

A server counts from ``launched_at`` (its build, or last rebuild,
finishing) until ``terminated_at`` (its delete) or the end of the period;
never-launched servers (ERROR builds, deletes before the build finished)
count nothing, deleted ones are still reported for the time they ran, as
nova's ``instance_get_active_by_window_joined`` reads deleted rows too.
Servers are read advanced to now (their lazy progress persisted), so a
build that finished since the last read counts from when it finished.
"""

import collections
import datetime
import json
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.compute import hosts

# the formats nova's SimpleTenantUsageController._parse_datetime accepts
TIME_FORMATS = ("%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M:%S.%f", "%Y-%m-%d %H:%M:%S.%f")


def _naive(text):
    """A stored ``2016-12-27T23:47:30.563527`` as a naive UTC datetime."""
    if not text:
        return None
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%f")


def now():
    """The current time, naive UTC (as nova's ``timeutils.utcnow()``)."""
    return common.utcnow().astimezone(datetime.timezone.utc).replace(tzinfo=None)


def parse_time(text):
    """A ``start``/``end`` query value as a naive UTC datetime (empty:
    now); 400 ``Invalid datetime string: …`` otherwise."""
    if not text:
        return now()
    for fmt in TIME_FORMATS:
        try:
            return datetime.datetime.strptime(text, fmt)
        except ValueError:
            pass
    raise errors.BadRequest("Invalid datetime string: Datetime is in invalid format")


def period(start_text, end_text):
    """``(start, stop)`` of a usage request: 400 unless start < end; the
    end is clipped to now, as nova does after that check. Nova reads the
    clock once per missing bound, so with neither given the end is a
    moment after the start (here: one microsecond, whatever the clock)."""
    start = parse_time(start_text)
    stop = parse_time(end_text)
    if not start_text and not end_text:
        stop = start + datetime.timedelta(microseconds=1)
    if not start < stop:
        raise errors.BadRequest(
            "Invalid start time. The start time cannot occur after the end time."
        )
    return start, min(stop, max(now(), start))


def _hours(launched, terminated, start, stop):
    """Nova's ``_hours_for``: the hours of [start, stop] the server ran."""
    if terminated is not None and terminated < start:
        return 0
    if launched is None or launched > stop:
        return 0
    begin = max(launched, start)
    end = min(stop, terminated) if terminated is not None else stop
    return (end - begin).total_seconds() / 3600.0


def _in_window(server, start, stop):
    launched, terminated = server["_launched"], server["_terminated"]
    return launched is not None and launched < stop and (terminated is None or terminated > start)


def servers_in_period(db, progress, start, stop, project_id=None):
    """The servers (dicts, advanced to now, deleted ones included) that ran
    during [start, stop], of ``project_id`` (None: every project), in
    nova's paging order (project, then uuid)."""
    sql = "SELECT * FROM servers WHERE (launched_at IS NOT NULL OR pending IS NOT NULL)"
    args = []
    if project_id is not None:
        sql += " AND project_id = ?"
        args.append(project_id)
    rows = [dict(r) for r in db.execute(sql, args).fetchall()]
    moving = [r for r in rows if r["pending"]]
    if moving:
        progress.advance(moving)
    found = []
    for server in rows:
        server["_launched"] = _naive(server["launched_at"])
        server["_terminated"] = _naive(server["terminated_at"])
        if _in_window(server, start, stop):
            found.append(server)
    found.sort(key=lambda s: (s["project_id"], s["id"]))
    return found


def page(db, servers, limit, marker, project_id=None):
    """The ``limit`` servers after the ``marker`` server in paging order.

    Nova finds the marker among every instance (deleted, outside the
    period or of another project) and pages on from its place; here the
    marker must be a server of ``project_id`` when one is given, so that a
    project's reader cannot probe other projects' server ids (400 ``Marker
    <id> could not be found.`` like an unknown one).
    """
    if marker is not None:
        sql, args = "SELECT project_id, id FROM servers WHERE id = ?", [marker]
        if project_id is not None:
            sql += " AND project_id = ?"
            args.append(project_id)
        row = db.execute(sql, args).fetchone()
        if row is None:
            raise errors.BadRequest("Marker %s could not be found." % marker)
        key = (row["project_id"], row["id"])
        servers = [s for s in servers if (s["project_id"], s["id"]) > key]
    return servers[:limit]


def tenant_usages(servers, start, stop, detailed=True):
    """Nova's ``_tenant_usages_for_period`` over ``servers``:
    ``(summaries, server_usages)``, one summary per project in order."""
    summaries: collections.OrderedDict[str, dict[str, Any]] = collections.OrderedDict()
    all_usages = []
    current = now()
    for server in servers:
        flavor = _flavor(server)
        started = server["_launched"]
        ended = server["_terminated"]
        info = {
            "hours": _hours(started, ended, start, stop),
            "flavor": flavor.get("original_name", ""),
            "instance_id": server["id"],
            "name": server["name"],
            "tenant_id": server["project_id"],
            "memory_mb": flavor.get("ram", 0),
            "local_gb": flavor.get("disk", 0) + flavor.get("ephemeral", 0),
            "vcpus": flavor.get("vcpus", 0),
            "started_at": common.iso_naive_micro(started),
            "ended_at": common.iso_naive_micro(ended) if ended else None,
            "state": "terminated" if ended else server["vm_state"],
            "uptime": int(((ended or current) - started).total_seconds()),
        }
        summary = summaries.get(info["tenant_id"])
        if summary is None:
            summary = {"tenant_id": info["tenant_id"]}
            if detailed:
                summary["server_usages"] = []
            summary.update(
                total_local_gb_usage=0,
                total_vcpus_usage=0,
                total_memory_mb_usage=0,
                total_hours=0,
                start=common.iso_naive_micro(start),
                stop=common.iso_naive_micro(stop),
            )
            summaries[info["tenant_id"]] = summary
        hours = info["hours"]
        summary["total_local_gb_usage"] += info["local_gb"] * hours
        summary["total_vcpus_usage"] += info["vcpus"] * hours
        summary["total_memory_mb_usage"] += info["memory_mb"] * hours
        summary["total_hours"] += hours
        all_usages.append(info)
        if detailed:
            summary["server_usages"].append(info)
    return list(summaries.values()), all_usages


def _flavor(server):
    return json.loads(server["flavor"] or "{}")


# -- instance usage audit log --------------------------------------------------


def last_completed_month(before=None):
    """Nova's ``last_completed_audit_period`` for its default unit,
    ``month``: ``(begin, end)``, the month that ended before ``before``
    (naive UTC; default now)."""
    rightnow = before if before is not None else now()
    end = datetime.datetime(rightnow.year, rightnow.month, 1)
    if end >= rightnow:
        end = (
            datetime.datetime(rightnow.year - 1, 12, 1)
            if rightnow.month == 1
            else datetime.datetime(rightnow.year, rightnow.month - 1, 1)
        )
    begin = (
        datetime.datetime(end.year - 1, 12, 1)
        if end.month == 1
        else datetime.datetime(end.year, end.month - 1, 1)
    )
    return begin, end


def parse_before(text):
    """The ``{before_timestamp}`` of ``GET /os-instance_usage_audit_log/…``
    (``%Y-%m-%d %H:%M:%S[.%f]``); 400 ``Invalid timestamp for date …``."""
    fmt = "%Y-%m-%d %H:%M:%S.%f" if "." in text else "%Y-%m-%d %H:%M:%S"
    try:
        return datetime.datetime.strptime(text, fmt)
    except ValueError:
        raise errors.BadRequest("Invalid timestamp for date %s" % text) from None


def audit_log(db, before=None):
    """Nova's ``_get_audit_task_logs`` for the last completed period.

    The audit (``[DEFAULT] instance_usage_audit``) is off by default in
    nova and never runs here: no compute host has a task log, so every
    nova-compute host (disabled ones included) is listed as not run.
    """
    begin, end = last_completed_month(before)
    compute_hosts = hosts.compute_hosts(db)
    return {
        "period_beginning": str(begin),
        "period_ending": str(end),
        "num_hosts": len(compute_hosts),
        "num_hosts_done": 0,
        "num_hosts_running": 0,
        "num_hosts_not_run": len(compute_hosts),
        "hosts_not_run": compute_hosts,
        "total_instances": 0,
        "total_errors": 0,
        "overall_status": "%s hosts done. 0 errors."
        % ("ALL" if not compute_hosts else "0 of %d" % len(compute_hosts)),
        "log": {},
    }
