"""Software configs: heat's ``software_config`` rules over SQLite.

``caller`` is whoever asks (``project_id``, ``is_admin``: an
``app.Context``): a config is visible in its own project, and to admins.
"""

import json
import sys

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.orchestration import config_io
from occli.localcloud.orchestration import fields


def find(db, caller, config_id):
    """The config row ``caller`` may see, or None."""
    row = db.execute("SELECT * FROM heat_software_configs WHERE id = ?", (config_id,)).fetchone()
    if row is None or not (caller.is_admin or row["project_id"] == caller.project_id):
        return None
    return row


def get(db, caller, config_id):
    """The config row ``caller`` may see, or NotFound."""
    row = find(db, caller, config_id)
    if row is None:
        raise errors.NotFound("Software config with id %s not found" % config_id, type="NotFound")
    return row


def create(db, caller, name, group, config, inputs, outputs, options, limit):
    """Store a config in the caller's project and return its row.

    Checks in heat's order: ``name`` and ``group`` (string fields), inputs
    and outputs (heat's engine: a TypeError is its 500), then the caller's
    ``limit`` of configs (admins have none).
    """
    name = fields.string_field(name, "name")
    group = fields.string_field(group, "group")
    try:
        inputs, outputs = config_io.normalise_ios(inputs, outputs)
    except ValueError as exc:
        raise errors.BadRequest(str(exc), type="ValueError") from None
    except TypeError as exc:
        raise fields.Unmapped(str(exc), type="TypeError") from None
    if not caller.is_admin:
        (count,) = db.execute(
            "SELECT COUNT(*) FROM heat_software_configs WHERE project_id = ?", (caller.project_id,)
        ).fetchone()
        if count >= limit:
            raise errors.BadRequest(
                "Request limit exceeded: You have reached the maximum "
                "software configs per tenant, %d. Please delete some "
                "software configs." % limit,
                type="RequestLimitExceeded",
            )
    stored = {"config": config, "inputs": inputs, "outputs": outputs, "options": options or {}}
    config_id = common.new_uuid()
    db.execute(
        "INSERT INTO heat_software_configs"
        " (id, project_id, name, grp, body, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (config_id, caller.project_id, name, group, json.dumps(stored), fields.now()),
    )
    return get(db, caller, config_id)


def page(db, caller, limit=None, marker=None):
    """Config rows newest first, after ``marker`` (an id; unknown: from the
    start), at most ``limit`` (a non-negative int or None)."""
    where, args = [], []
    if not caller.is_admin:
        where.append("project_id = ?")
        args.append(caller.project_id)
    if marker:
        m = db.execute(
            "SELECT created_at, id FROM heat_software_configs WHERE id = ?", (marker,)
        ).fetchone()
        if m is not None:
            where.append("(created_at < ? OR (created_at = ? AND id < ?))")
            args += [m["created_at"], m["created_at"], m["id"]]
    sql = "SELECT * FROM heat_software_configs"
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += " ORDER BY created_at DESC, id DESC"
    if limit is not None:
        sql += " LIMIT %d" % min(limit, sys.maxsize)
    return db.execute(sql, args).fetchall()


def delete(db, caller, config_id):
    """Delete a config no deployment references (else heat's 500
    ``InvalidRestrictedAction``)."""
    get(db, caller, config_id)
    used = db.execute(
        "SELECT 1 FROM heat_software_deployments WHERE config_id = ? LIMIT 1", (config_id,)
    ).fetchone()
    if used:
        raise fields.Unmapped(
            "Software config with id %s can not be deleted as it is referenced." % config_id,
            type="InvalidRestrictedAction",
        )
    db.execute("DELETE FROM heat_software_configs WHERE id = ?", (config_id,))
