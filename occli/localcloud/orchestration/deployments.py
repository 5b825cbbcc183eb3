"""Software deployments: heat's ``software_deployment`` rules over SQLite.

A deployment is visible in its own project and in its stack user project;
admins see all. ``stack_user_project_id`` must be the caller's own project
unless the caller is an admin (decision, issue 9), so it never widens who
sees a deployment or the configs it adds to a server's metadata.
``status_reason`` is stored as ``str(value)`` (``"None"`` when omitted); a
deployment has no ``updated_at`` until it is updated.
"""

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.orchestration import configs
from occli.localcloud.orchestration import fields

_STRING_FIELDS = ("config_id", "server_id", "action", "status", "stack_user_project_id")
_UPDATABLE = ("config_id", "input_values", "output_values", "action", "status", "status_reason")


def _visible(caller, alias="d"):
    if caller.is_admin:
        return "1 = 1", []
    return (
        "(%s.project_id = ? OR %s.stack_user_project_id = ?)" % (alias, alias),
        [caller.project_id, caller.project_id],
    )


def get(db, caller, deployment_id):
    """The deployment row ``caller`` may see, or NotFound."""
    cond, args = _visible(caller)
    row = db.execute(
        "SELECT * FROM heat_software_deployments d WHERE d.id = ? AND " + cond,
        [deployment_id] + args,
    ).fetchone()
    if row is None:
        raise errors.NotFound("Deployment with id %s not found" % deployment_id, type="NotFound")
    return row


def _check_config_ref(db, caller, config_id):
    if config_id is None or configs.find(db, caller, config_id) is None:
        raise errors.BadRequest("Config with id %s not found" % config_id, type="Invalid")


def _check_stack_user_project(caller, supid):
    """heat's 64-character bound, and (local cloud) only the caller's own
    project unless the caller is an admin."""
    if supid is None:
        return
    if len(supid) > 64:
        raise errors.BadRequest(
            "stack_user_project_id must be at most 64 characters long", type="Invalid"
        )
    if not caller.is_admin and supid != caller.project_id:
        raise errors.Forbidden(
            "stack_user_project_id must be the project of the request's token", type="Forbidden"
        )


def create(db, caller, values, limit):
    """Store deployment ``values`` (the request's members) in the caller's
    project and return its row.

    Checks in heat's order: string fields, the config reference, the stack
    user project, ``server_id`` (missing: heat's 500 ``DBError``), then the
    caller's ``limit`` of deployments (admins have none).
    """
    row = {key: fields.string_field(values.get(key), key) for key in _STRING_FIELDS}
    status_reason = fields.reason_field(values.get("status_reason"))
    _check_config_ref(db, caller, row["config_id"])
    _check_stack_user_project(caller, row["stack_user_project_id"])
    if row["server_id"] is None:
        raise fields.Unmapped(
            "NOT NULL constraint failed: software_deployment.server_id", type="DBError"
        )
    if not caller.is_admin:
        (count,) = db.execute(
            "SELECT COUNT(*) FROM heat_software_deployments WHERE project_id = ?",
            (caller.project_id,),
        ).fetchone()
        if count >= limit:
            raise errors.BadRequest(
                "Request limit exceeded: You have reached the maximum "
                "software deployments per tenant, %d. Please delete some "
                "software deployments." % limit,
                type="RequestLimitExceeded",
            )
    deployment_id = common.new_uuid()
    db.execute(
        "INSERT INTO heat_software_deployments (id, project_id,"
        " stack_user_project_id, server_id, config_id, input_values,"
        " output_values, action, status, status_reason, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?)",
        (
            deployment_id,
            caller.project_id,
            row["stack_user_project_id"],
            row["server_id"],
            row["config_id"],
            fields.dumps(values.get("input_values")),
            row["action"],
            row["status"],
            status_reason,
            fields.now(),
        ),
    )
    return get(db, caller, deployment_id)


def select(db, caller, server_id=None):
    """The deployment rows ``caller`` sees (of one server if given), oldest
    first."""
    cond, args = _visible(caller)
    if server_id:
        cond += " AND d.server_id = ?"
        args.append(server_id)
    return db.execute(
        "SELECT * FROM heat_software_deployments d WHERE "
        + cond
        + " ORDER BY d.created_at, d.rowid",
        args,
    ).fetchall()


def changes(values):
    """The members of a deployment update heat applies: non-null, truthy
    ones (heat's API and engine both skip the others), string fields
    checked and ``status_reason`` as ``str``."""
    result = {k: values[k] for k in _UPDATABLE if values.get(k)}
    for key in ("config_id", "action", "status"):
        if key in result:
            result[key] = fields.string_field(result[key], key)
    if "status_reason" in result:
        result["status_reason"] = fields.reason_field(result["status_reason"])
    return result


def set_clause(changes, updated_at):
    """``SET`` SQL and values for deployment ``changes`` + ``updated_at``."""
    cols = dict(changes)
    for key in ("input_values", "output_values"):
        if key in cols:
            cols[key] = fields.dumps(cols[key])
    cols["updated_at"] = updated_at
    return ", ".join("%s = ?" % k for k in cols), list(cols.values())


def update(db, caller, deployment_id, values):
    """Apply update ``values`` (see :func:`changes`) to a deployment the
    caller sees; returns its row."""
    get(db, caller, deployment_id)
    applied = changes(values)
    if "config_id" in applied:
        _check_config_ref(db, caller, applied["config_id"])
    sql, args = set_clause(applied, fields.now())
    db.execute(
        "UPDATE heat_software_deployments SET " + sql + " WHERE id = ?", args + [deployment_id]
    )
    return get(db, caller, deployment_id)


def delete(db, caller, deployment_id):
    get(db, caller, deployment_id)
    db.execute("DELETE FROM heat_software_deployments WHERE id = ?", (deployment_id,))


def server_configs(db, caller, server_id):
    """The config rows of the deployments of ``server_id`` the caller sees,
    sorted by name (heat's ``GET …/metadata/{server_id}``)."""
    cond, args = _visible(caller)
    rows = db.execute(
        "SELECT c.* FROM heat_software_deployments d"
        " JOIN heat_software_configs c ON c.id = d.config_id"
        " WHERE d.server_id = ? AND " + cond + " ORDER BY d.created_at, d.rowid",
        [server_id] + args,
    ).fetchall()
    return sorted(rows, key=lambda r: r["name"] or "")
