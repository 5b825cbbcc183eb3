"""What every Neutron rules module shares: timestamps, ownership checks
and neutron's policy error."""

from occli.localcloud import common as clock
from occli.localcloud import errors


def now():
    return clock.iso_z(clock.utcnow())


def owns(context, row):
    """Whether ``context`` (anything with ``project_id``/``is_admin``)
    owns ``row`` or is an admin."""
    return context.is_admin or row["project_id"] == context.project_id


def policy_denied(rule):
    """Neutron's 403 (oslo.policy's ``PolicyNotAuthorized``)."""
    return errors.Forbidden("%s is disallowed by policy" % rule, type="PolicyNotAuthorized")


def check_project(context, values, action):
    """The project a create is for: the caller's, or another one given
    by an admin (neutron's policy refuses it to others: 403)."""
    project = values.pop("project_id", None) or context.project_id
    if project != context.project_id and not context.is_admin:
        raise policy_denied("rule:%s" % action)
    return project


def standard(row, extra):
    """The standard attributes every resource shows."""
    body = dict(extra)
    body.update(
        {
            "id": row["id"],
            "project_id": row["project_id"],
            "tenant_id": row["project_id"],
            "created_at": row["created_at"],
            "updated_at": row["updated_at"],
            "revision_number": row["revision_number"],
            "tags": [],
        }
    )
    if "description" in row.keys():  # noqa: SIM118 - a sqlite3.Row
        body["description"] = row["description"]
    return body


def bump(db, table, row_id):
    """Record a change: ``updated_at`` and ``revision_number``."""
    db.execute(
        "UPDATE %s SET updated_at = ?, revision_number = revision_number + 1 WHERE id = ?" % table,
        (now(), row_id),
    )
