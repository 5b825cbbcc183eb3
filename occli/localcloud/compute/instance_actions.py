"""Instance actions and their events (nova's ``instance_actions`` tables).

Every operation the compute API accepts on a server records an action
(nova's name for it, the request id, who asked, when) and the events the
services then run (``compute_stop_instance``…), as nova's
``_record_action_start`` and ``wrap_instance_event`` do. Events are
recorded when the action is, with the time the local cloud's lazy state
machine completes the operation as their finish: until then a reader sees
them running (no ``finish_time``, no ``result``), as in nova.

Rows are never deleted (a deleted server's actions stay readable), except
those of the servers a failed create removes (:func:`forget`).
"""

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.compute import hosts

# nova's action name → the events its services record, in order
# (nova/compute/manager.py ``wrap_instance_event(prefix='compute')``,
# nova/conductor/manager.py ``EventReporter``)
EVENTS = {
    "create": ("compute__do_build_and_run_instance",),
    "delete": ("compute_terminate_instance",),
    "restore": ("compute_restore_instance",),
    "stop": ("compute_stop_instance",),
    "start": ("compute_start_instance",),
    "reboot": ("compute_reboot_instance",),
    "pause": ("compute_pause_instance",),
    "unpause": ("compute_unpause_instance",),
    "suspend": ("compute_suspend_instance",),
    "resume": ("compute_resume_instance",),
    "rebuild": ("conductor_rebuild_server", "compute_rebuild_instance"),
    "evacuate": ("conductor_rebuild_server", "compute_rebuild_instance"),
    "resize": (
        "conductor_migrate_server",
        "cold_migrate",
        "compute_prep_resize",
        "compute_resize_instance",
        "compute_finish_resize",
    ),
    "migrate": (
        "conductor_migrate_server",
        "cold_migrate",
        "compute_prep_resize",
        "compute_resize_instance",
        "compute_finish_resize",
    ),
    "confirmResize": ("compute_confirm_resize",),
    "revertResize": ("compute_revert_resize", "compute_finish_revert_resize"),
    "live-migration": (
        "conductor_live_migrate_instance",
        "compute_check_can_live_migrate_destination",
        "compute_check_can_live_migrate_source",
        "compute_pre_live_migration",
        "compute_live_migration",
        "compute_post_live_migration_at_destination",
    ),
    "live_migration_force_complete": ("compute_live_migration_force_complete",),
    "live_migration_cancel": ("compute_live_migration_abort",),
    "createImage": ("compute_snapshot_instance",),
    "createBackup": ("compute_backup_instance",),
    "trigger_crash_dump": ("compute_trigger_crash_dump",),
    "rescue": ("compute_rescue_instance",),
    "unrescue": ("compute_unrescue_instance",),
    "changePassword": ("compute_set_admin_password",),
    "shelve": ("compute_shelve_instance",),
    "shelveOffload": ("compute_shelve_offload_instance",),
    # a shelved-offloaded server is scheduled again; a shelved one is
    # started where it is (conductor's unshelve_instance)
    "unshelve": ("get_image_info", "schedule_instances", "compute_unshelve_instance"),
    # nova-api's own EventReporter (checked against nova 34)
    "lock": ("api_lock",),
    "unlock": ("api_unlock",),
    "attach_volume": ("compute_attach_volume",),
    "detach_volume": ("compute_detach_volume",),
    "swap_volume": ("compute_swap_volume",),
    "extend_volume": ("compute_extend_volume",),
    "attach_interface": ("compute_attach_interface",),
    "detach_interface": ("compute_detach_interface",),
    # resetState records no event
}
# events that run on the controller (nova-api, nova-conductor), not the
# server's compute host
_CONTROLLER_EVENTS = ("api_", "conductor_", "cold_migrate", "schedule_instances", "get_image_info")
# unshelve of a server still on its host (vm_state shelved)
UNSHELVE_IN_PLACE_EVENTS = ("compute_start_instance",)
# an accepted operation whose conductor fails (NoValidHost): the events
# recorded (checked against nova 34 for migrate), those in
# FAILING_EVENTS ending in Error with the failure as their details
FAILED_EVENTS = {
    "resize": ("conductor_migrate_server", "cold_migrate"),
    "migrate": ("conductor_migrate_server", "cold_migrate"),
    "live-migration": ("conductor_live_migrate_instance",),
    "evacuate": ("conductor_rebuild_server",),
    "unshelve": ("get_image_info", "schedule_instances"),
}
# the traceback nova stores with such an event (admins only; nova 34
# keeps the frames, without the ``Traceback`` line or the exception)
FAILED_TRACEBACK = (
    '  File "/opt/stack/nova/nova/compute/utils.py", line 1483, in decorated_function\n'
    "    return function(self, context, *args, **kwargs)\n"
    '  File "/opt/stack/nova/nova/conductor/manager.py", line 431, in _cold_migrate\n'
    "    raise exception.NoValidHost(reason=msg)\n"
)
FAILING_EVENTS = (
    "conductor_migrate_server",
    "cold_migrate",
    "conductor_live_migrate_instance",
    "conductor_rebuild_server",
    "schedule_instances",
)


def record(
    db,
    server,
    action,
    request_id,
    user_id,
    project_id,
    events=None,
    duration=0.0,
    host=None,
    message=None,
    failure=None,
):
    """Record ``action`` (nova's name) on ``server`` (a server row as a
    dict) for request ``request_id`` by ``user_id`` of ``project_id``.

    ``events``: the event names (default :data:`EVENTS` for the action);
    they start now and succeed ``duration`` seconds later (when the
    operation completes) on ``host`` (default the server's). With
    ``failure`` (the conductor's error text) those of
    :data:`FAILING_EVENTS` end in ``Error`` instead, with it as details.
    Returns the action's id.
    """
    now = common.utcnow().timestamp()
    cursor = db.execute(
        "INSERT INTO compute_instance_actions (instance_uuid, request_id, action, user_id,"
        " project_id, message, start_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (server["id"], request_id, action, user_id, project_id, message, now),
    )
    action_id = cursor.lastrowid
    names = EVENTS.get(action, ()) if events is None else events
    for name in names:
        # nova-api's own events end with the request
        finish = now if name.startswith("api_") else now + max(duration, 0.0)
        failed = failure is not None and name in FAILING_EVENTS
        db.execute(
            "INSERT INTO compute_instance_action_events (action_id, event, start_at,"
            " finish_at, result, traceback, details, host) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                action_id,
                name,
                now,
                finish,
                "Error" if failed else "Success",
                FAILED_TRACEBACK if failed else None,
                failure if failed else None,
                _event_host(name, host or server.get("host")),
            ),
        )
    return action_id


def forget(db, server_ids):
    """Drop the actions of ``server_ids``: servers a failed create made
    and removed (they never existed for the API)."""
    for server_id in server_ids:
        db.execute(
            "DELETE FROM compute_instance_action_events WHERE action_id IN"
            " (SELECT id FROM compute_instance_actions WHERE instance_uuid = ?)",
            (server_id,),
        )
        db.execute("DELETE FROM compute_instance_actions WHERE instance_uuid = ?", (server_id,))


def _event_host(name, compute_host):
    if name.startswith(_CONTROLLER_EVENTS):
        return hosts.CONTROLLER
    return compute_host


def _event(row, now):
    finished = row["finish_at"] is not None and row["finish_at"] <= now
    return {
        "event": row["event"],
        "start_time": _iso(row["start_at"]),
        "finish_time": _iso(row["finish_at"]) if finished else None,
        "result": row["result"] if finished else None,
        "traceback": row["traceback"] if finished else None,
        "details": row["details"] if finished else None,
        "host": row["host"],
        "finished_at": row["finish_at"] if finished else None,
    }


def _iso(seconds):
    return common.iso_naive_micro(common.from_timestamp(seconds))


def _action(row, events):
    """An action as nova's DB layer gives it, ``updated_at`` being its
    latest change (its start, an event's start or finish)."""
    times = [row["start_at"]] + [e["finished_at"] or row["start_at"] for e in events]
    message = row["message"]
    if message is None and any(e["result"] == "Error" for e in events):
        # nova's action_event_finish marks the action when an event fails
        message = "Error"
    return {
        "id": row["id"],
        "action": row["action"],
        "instance_uuid": row["instance_uuid"],
        "request_id": row["request_id"],
        "user_id": row["user_id"],
        "project_id": row["project_id"],
        "start_time": _iso(row["start_at"]),
        "message": message,
        "updated_at": _iso(max(times)),
        "updated_at_seconds": max(times),
    }


def _events_of(db, action_ids, now):
    found: dict[str, list[dict[str, object]]] = {}
    if not action_ids:
        return found
    for row in db.execute(
        "SELECT * FROM compute_instance_action_events WHERE action_id IN (%s)"
        " ORDER BY start_at DESC, id DESC" % ",".join("?" * len(action_ids)),
        list(action_ids),
    ):
        found.setdefault(row["action_id"], []).append(_event(row, now))
    return found


def actions(db, instance_uuid, limit=None, marker=None, since=None, before=None):
    """The server's actions, newest first (nova: ``created_at`` then id,
    descending), those changed at or after ``since`` and at or before
    ``before`` (aware or naive UTC datetimes), after the ``marker``
    request id, at most ``limit``. A marker the server has no action for
    is nova's 400 (whose text names None, as nova's does)."""
    if limit == 0:
        return []
    now = common.utcnow().timestamp()
    rows = db.execute(
        "SELECT * FROM compute_instance_actions WHERE instance_uuid = ?"
        " ORDER BY start_at DESC, id DESC",
        (instance_uuid,),
    ).fetchall()
    events = _events_of(db, [r["id"] for r in rows], now)
    found = [_action(r, events.get(r["id"], [])) for r in rows]
    if since is not None:
        found = [a for a in found if a["updated_at_seconds"] >= _seconds(since)]
    if before is not None:
        found = [a for a in found if a["updated_at_seconds"] <= _seconds(before)]
    if marker is not None:
        ids = [r["id"] for r in rows if r["request_id"] == marker]
        if not ids:
            # nova raises MarkerNotFound(marker=<the lookup's result>)
            raise errors.BadRequest("Marker None could not be found.")
        position = [r["id"] for r in rows].index(ids[0])
        after = {r["id"] for r in rows[position + 1 :]}
        found = [a for a in found if a["id"] in after]
    return found if limit is None else found[:limit]


def _seconds(when):
    if when.tzinfo is None:
        when = when.replace(tzinfo=common.from_timestamp(0).tzinfo)
    return when.timestamp()


def action(db, instance_uuid, request_id):
    """The server's action of ``request_id`` with its ``events`` (newest
    first); NotFound with nova's text otherwise."""
    row = db.execute(
        "SELECT * FROM compute_instance_actions WHERE instance_uuid = ? AND request_id = ?"
        " ORDER BY start_at DESC, id DESC LIMIT 1",
        (instance_uuid, request_id),
    ).fetchone()
    if row is None:
        raise errors.NotFound("Action %s not found" % request_id)
    events = _events_of(db, [row["id"]], common.utcnow().timestamp()).get(row["id"], [])
    found = _action(row, events)
    found["events"] = events
    return found


def server_row(db, caller, server_id, include_deleted):
    """The server (deleted ones too if ``include_deleted``) ``caller`` may
    see, as stored; NotFound otherwise (another project's, unless admin)."""
    sql = "SELECT * FROM servers WHERE id = ?"
    if not include_deleted:
        sql += " AND deleted = 0"
    row = db.execute(sql, (server_id,)).fetchone()
    if row is None or (row["project_id"] != caller.project_id and not caller.is_admin):
        raise errors.NotFound("Instance %s could not be found." % server_id)
    return dict(row)
