"""Server groups: nova's ``InstanceGroup`` rules over the group tables.

A group has one policy (``affinity``, ``anti-affinity``, ``soft-affinity``,
``soft-anti-affinity``) and, for ``anti-affinity`` only, the rule
``max_server_per_host``. Servers join a group when they are created with
the scheduler hint ``group`` (its uuid): the scheduler then places them by
the policy (:func:`placement`), and a server that cannot be placed ends in
ERROR like any NoValidHost. Members are listed while their server is not
deleted (nova's ``_get_not_deleted``).

Visibility: a group is found only in its own project, except by admins
(nova's ``InstanceGroup.get_by_uuid`` is project-scoped: another project's
group is ``Instance group <id> could not be found.``, 404 from the API,
400 as a boot hint). Quotas: ``server_groups`` per project at create,
``server_group_members`` per user and group at boot (nova's texts).
"""

import collections
import json

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.compute import quotas

POLICIES = ("affinity", "anti-affinity", "soft-affinity", "soft-anti-affinity")
GROUPS_OVER_QUOTA = "Quota exceeded, too many server groups."
MEMBERS_OVER_QUOTA = "Quota exceeded, too many servers in group"


def not_found(group_id):
    return errors.NotFound("Instance group %s could not be found." % group_id)


def _row(row):
    group = dict(row)
    group["rules"] = json.loads(group["rules"])
    return group


def get(db, caller, group_id):
    """The group ``group_id`` (its uuid) the caller may see, or NotFound."""
    row = db.execute(
        "SELECT * FROM compute_server_groups WHERE uuid = ?", (str(group_id),)
    ).fetchone()
    if row is None or not (caller.is_admin or row["project_id"] == caller.project_id):
        raise not_found(group_id)
    return _row(row)


def select(db, caller, all_projects=False):
    """The caller's project's groups (every group with ``all_projects``,
    which only admins get), oldest first, as nova lists them."""
    if all_projects and caller.is_admin:
        rows = db.execute("SELECT * FROM compute_server_groups ORDER BY id")
    else:
        rows = db.execute(
            "SELECT * FROM compute_server_groups WHERE project_id = ? ORDER BY id",
            (caller.project_id,),
        )
    return [_row(r) for r in rows]


def members(db, group_ids):
    """``{group id: [server uuid]}``: the non-deleted members, in the order
    they joined."""
    found: collections.defaultdict[str, list[str]] = collections.defaultdict(list)
    if not group_ids:
        return found
    marks = ", ".join("?" * len(group_ids))
    for row in db.execute(
        "SELECT m.group_id, m.server_id FROM compute_server_group_members m"
        " JOIN servers s ON s.id = m.server_id AND s.deleted = 0"
        " WHERE m.group_id IN (%s) ORDER BY m.rowid" % marks,
        list(group_ids),
    ):
        found[row["group_id"]].append(row["server_id"])
    return found


def count(db, project_id, user_id=None):
    """How many groups the project (or one of its users) has."""
    sql, args = "SELECT COUNT(*) FROM compute_server_groups WHERE project_id = ?", [project_id]
    if user_id is not None:
        sql += " AND user_id = ?"
        args.append(user_id)
    return db.execute(sql, args).fetchone()[0]


def create(db, caller, name, policy, rules=None):
    """A new group of the caller's: the ``server_groups`` quota (403), then
    the rules (only anti-affinity has any: 400), in nova's order."""
    if policy not in POLICIES:
        raise errors.BadRequest("Invalid policy %s" % policy)
    allowed = quotas.limit(db, caller.project_id, "server_groups")
    if allowed >= 0 and count(db, caller.project_id) + 1 > allowed:
        raise errors.OverLimit(GROUPS_OVER_QUOTA)
    rules = dict(rules or {})
    if rules and policy != "anti-affinity":
        raise errors.BadRequest("Only anti-affinity policy supports rules.")
    group_id = common.new_uuid()
    db.execute(
        "INSERT INTO compute_server_groups (uuid, name, project_id, user_id, policy, rules,"
        " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            group_id,
            name,
            caller.project_id,
            caller.user_id,
            policy,
            json.dumps(rules),
            common.iso_naive_micro(common.utcnow()),
        ),
    )
    return get(db, caller, group_id)


def delete(db, caller, group_id):
    """Delete a group (its members stay as they are, as in nova)."""
    group = get(db, caller, group_id)
    db.execute("DELETE FROM compute_server_group_members WHERE group_id = ?", (group["id"],))
    db.execute("DELETE FROM compute_server_groups WHERE id = ?", (group["id"],))


# -- booting into a group ---------------------------------------------------------


def from_hints(db, caller, hints):
    """The group named by the scheduler hint ``group`` (a uuid, or a list
    holding one), or None; 400 ``Instance group … could not be found.``
    for a group the caller may not use (nova's ``get_by_hint`` error,
    answered as a bad request by the servers API)."""
    value = (hints or {}).get("group")
    if not value:
        return None
    if isinstance(value, list):
        # nova 34 answers a list with a DBError (500); one uuid is a group
        if len(value) != 1:
            raise errors.BadRequest("Instance group %s could not be found." % value)
        value = value[0]
    try:
        return get(db, caller, value)
    except errors.NotFound as exc:
        raise errors.BadRequest(exc.message) from None


def check_members(db, caller, group, adding):
    """Nova's ``server_group_members`` quota: the caller's non-deleted
    members of ``group`` plus ``adding`` within the project's limit."""
    allowed = quotas.limit(db, caller.project_id, "server_group_members")
    if allowed < 0:
        return
    used = db.execute(
        "SELECT COUNT(*) FROM compute_server_group_members m JOIN servers s"
        " ON s.id = m.server_id AND s.deleted = 0 WHERE m.group_id = ? AND s.user_id = ?",
        (group["id"], caller.user_id),
    ).fetchone()[0]
    if used + adding > allowed:
        raise errors.OverLimit(MEMBERS_OVER_QUOTA)


def add_members(db, group, server_ids):
    db.executemany(
        "INSERT OR IGNORE INTO compute_server_group_members (group_id, server_id) VALUES (?, ?)",
        [(group["id"], server_id) for server_id in server_ids],
    )


def remove_members(db, server_ids):
    """Forget ``server_ids`` as members (a create that failed made them)."""
    db.executemany(
        "DELETE FROM compute_server_group_members WHERE server_id = ?",
        [(server_id,) for server_id in server_ids],
    )


def placement(db, group):
    """What the scheduler needs of ``group``: ``{"policy", "max_per_host",
    "hosts": Counter(host → members on it)}`` (nova's
    ``RequestSpec.instance_group``, its ``hosts`` grown as instances of one
    request are placed)."""
    hosts = collections.Counter(
        row["host"]
        for row in db.execute(
            "SELECT s.host FROM compute_server_group_members m JOIN servers s"
            " ON s.id = m.server_id AND s.deleted = 0"
            " WHERE m.group_id = ? AND s.host IS NOT NULL",
            (group["id"],),
        )
    )
    return {
        "policy": group["policy"],
        "max_per_host": int(group["rules"].get("max_server_per_host", 1)),
        "hosts": hosts,
    }


def groups_of(db, server_id):
    """The uuids of the groups ``server_id`` belongs to (the server view's
    ``server_groups``, 2.71)."""
    return [
        row["uuid"]
        for row in db.execute(
            "SELECT g.uuid FROM compute_server_group_members m JOIN compute_server_groups g"
            " ON g.id = m.group_id WHERE m.server_id = ? ORDER BY g.id",
            (server_id,),
        )
    ]
