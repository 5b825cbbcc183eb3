"""Volume attachments as Cinder's attachments API (3.27+) shows them: the
records Nova's attach makes (:func:`.volumes.attach`), read-only here."""

from occli.localcloud import errors

FILTERS = ("volume_id", "status", "instance_id", "attach_status")


def _visible(caller, all_projects):
    if caller.is_admin and all_projects:
        return "1", []
    return "v.project_id = ?", [caller.project_id]


def listing(db, caller, all_projects, filters):
    where, args = _visible(caller, all_projects)
    clauses = [where]
    for key, value in filters.items():
        column = {
            "volume_id": "a.volume_id",
            "instance_id": "a.instance_uuid",
            "status": "a.attach_status",
            "attach_status": "a.attach_status",
        }[key]
        clauses.append("%s = ?" % column)
        args.append(value)
    rows = db.execute(
        "SELECT a.* FROM volume_attachments a JOIN volumes v ON v.id = a.volume_id"
        " WHERE %s ORDER BY a.attached_at DESC, a.id DESC" % " AND ".join(clauses),
        args,
    ).fetchall()
    return [dict(r) for r in rows]


def get(db, caller, attachment_id):
    row = db.execute(
        "SELECT a.*, v.project_id FROM volume_attachments a JOIN volumes v"
        " ON v.id = a.volume_id WHERE a.id = ?",
        (attachment_id,),
    ).fetchone()
    if row is None or (row["project_id"] != caller.project_id and not caller.is_admin):
        raise errors.NotFound(
            "Volume attachment could not be found with filter: attachment_id = %s." % attachment_id
        )
    return dict(row)


def view(row, detail):
    item = {
        "id": row["id"],
        "status": row["attach_status"],
        "instance": row["instance_uuid"],
        "volume_id": row["volume_id"],
    }
    if detail:
        item.update(
            attached_at=row["attached_at"],
            detached_at="",
            attach_mode=row["attach_mode"],
            connection_info={},
        )
    return item
