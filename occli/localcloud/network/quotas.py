"""Neutron's quotas (``quotasv2``, ``quotasv2_detail``): per-project limits
over neutron's defaults, usage counted from the tables, ``OverQuota`` (409)
when a create would go past a limit."""

from occli.localcloud import errors
from occli.localcloud.network import attributes as attrs
from occli.localcloud.network import common

# neutron's [QUOTAS] defaults (-1: unlimited)
DEFAULTS = {
    "floatingip": 50,
    "network": 100,
    "port": 500,
    "rbac_policy": 10,
    "router": 10,
    "security_group": 10,
    "security_group_rule": 100,
    "subnet": 100,
    "subnetpool": -1,
}
# the table counting a resource's usage (None: nothing of it here)
_TABLES = {
    "floatingip": "network_floating_ips",
    "network": "network_networks",
    "port": "network_ports",
    "router": "network_routers",
    "security_group": "network_security_groups",
    "security_group_rule": "network_security_group_rules",
    "subnet": "network_subnets",
    "subnetpool": "network_subnetpools",
}
_MAX = 2**31 - 1


def limits(db, project_id):
    found = dict(DEFAULTS)
    for row in db.execute(
        "SELECT resource, hard_limit FROM network_quotas WHERE project_id = ?", (project_id,)
    ):
        found[row["resource"]] = row["hard_limit"]
    return found


def used(db, project_id, resource):
    table = _TABLES.get(resource)
    if table is None:
        return 0
    return db.execute(
        "SELECT COUNT(*) FROM %s WHERE project_id = ?" % table, (project_id,)
    ).fetchone()[0]


def check(db, project_id, resource, count=1):
    """409 ``OverQuota`` unless ``count`` more ``resource`` fit."""
    limit = limits(db, project_id)[resource]
    if limit >= 0 and used(db, project_id, resource) + count > limit:
        raise errors.Conflict("Quota exceeded for resources: ['%s']." % resource, type="OverQuota")


def _readable(context, project_id):
    if project_id != context.project_id and not context.is_admin:
        raise common.policy_denied("rule:get_quota")


def show(db, context, project_id):
    _readable(context, project_id)
    return limits(db, project_id)


def defaults(db, context, project_id):
    _readable(context, project_id)
    return dict(DEFAULTS)


def details(db, context, project_id):
    _readable(context, project_id)
    return {
        resource: {"limit": limit, "used": used(db, project_id, resource), "reserved": 0}
        for resource, limit in limits(db, project_id).items()
    }


def listing(db, context):
    """The projects with limits of their own (admin only)."""
    if not context.is_admin:
        raise common.policy_denied("rule:get_quota")
    projects = [
        r[0]
        for r in db.execute("SELECT DISTINCT project_id FROM network_quotas ORDER BY project_id")
    ]
    return [dict(limits(db, p), project_id=p, tenant_id=p) for p in projects]


def update(db, context, project_id, body):
    if not context.is_admin:
        raise common.policy_denied("rule:update_quota")
    if not isinstance(body, dict) or not isinstance(body.get("quota"), dict):
        raise attrs.bad_request("Unable to find 'quota' in request body")
    values = dict(body["quota"])
    force = values.pop("force", None)
    values.pop("check_limit", None)
    unknown = sorted(k for k in values if k not in DEFAULTS)
    if unknown:
        raise attrs.bad_request("Unrecognized attribute(s) '%s'" % ", ".join(unknown))
    checked = {k: attrs.integer(-1, _MAX)(k, v) for k, v in values.items()}
    if force is not True:
        for resource, limit in checked.items():
            usage = used(db, project_id, resource)
            if limit != -1 and usage > limit:
                raise attrs.bad_request(
                    "Quota limit %s for %s must be greater than or equal to already used %s"
                    % (limit, resource, usage)
                )
    for resource, limit in checked.items():
        db.execute(
            "INSERT INTO network_quotas (project_id, resource, hard_limit) VALUES (?, ?, ?)"
            " ON CONFLICT (project_id, resource) DO UPDATE SET hard_limit = excluded.hard_limit",
            (project_id, resource, limit),
        )
    return limits(db, project_id)


def delete(db, context, project_id):
    if not context.is_admin:
        raise common.policy_denied("rule:delete_quota")
    db.execute("DELETE FROM network_quotas WHERE project_id = ?", (project_id,))
