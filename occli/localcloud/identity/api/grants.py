"""A user's or a group's roles on a project or domain:
``/v3/{projects,domains}/{id}/{users,groups}/{actor_id}/roles/{role_id}`` —
grant (PUT), check (HEAD/GET: 204 or 404), revoke (DELETE), and the list
of a user's or group's roles there (``…/roles``). Keystone
looks a grant's role, actor and target up before the policy, so those are
404 first (keystone's ``keystone/api/projects.py`` and ``domains.py``
grant resources)."""

from occli.localcloud.app import Response
from occli.localcloud.identity import assignments
from occli.localcloud.identity import domains
from occli.localcloud.identity import groups
from occli.localcloud.identity import policy
from occli.localcloud.identity import projects
from occli.localcloud.identity import users
from occli.localcloud.identity.api.common import collection
from occli.localcloud.identity.api.views import role_view

GRANT_PATHS = {
    "project": "/v3/projects/{project_id}/users/{user_id}/roles/{role_id}",
    "domain": "/v3/domains/{domain_id}/users/{user_id}/roles/{role_id}",
}
GROUP_GRANT_PATHS = {
    "project": "/v3/projects/{project_id}/groups/{group_id}/roles/{role_id}",
    "domain": "/v3/domains/{domain_id}/groups/{group_id}/roles/{role_id}",
}


def register(service):
    for path in list(GRANT_PATHS.values()) + list(GROUP_GRANT_PATHS.values()):
        service.route("PUT", path, create_grant)
        service.route("GET", path, check_grant)  # and HEAD
        service.route("DELETE", path, revoke_grant)
        service.route("GET", path[: -len("/{role_id}")], list_grants)


def _grant(req, missing_actor_ok=False):
    """``(actor, actor_id, target_type, target_id, role_id, actor_domain,
    target_domain)`` of a grant URL, looked up in keystone's order: role,
    user or group (an unknown one only for a revoke), then the target."""
    params, db = req.params, req.db
    role_id = assignments.get_role(db, params["role_id"])["id"]
    if "group_id" in params:
        actor, actor_id = "group", params["group_id"]
        row = groups.find(db, actor_id)
        missing = groups.not_found
    else:
        actor, actor_id = "user", params["user_id"]
        row = users.find(db, actor_id)
        missing = users.not_found
    if row is None and not missing_actor_ok:
        raise missing(actor_id)
    if "project_id" in params:
        target = projects.get(db, params["project_id"])
        target_type, target_domain = "project", target["domain_id"]
    else:
        target = domains.get(db, params["domain_id"])
        target_type, target_domain = "domain", target["id"]
    return (
        actor,
        actor_id,
        target_type,
        target["id"],
        role_id,
        row["domain_id"] if row else None,
        target_domain,
    )


def create_grant(req):
    """``PUT …/{users,groups}/{id}/roles/{role_id}``: 204 (also when the
    actor already has the role)."""
    actor, actor_id, target_type, target_id, role_id, _, _ = _grant(req)
    policy.admin_only(req.context, "create_grant")
    assignments.assign(req.db, actor_id, target_type, target_id, role_id, actor)
    return Response(204)


def check_grant(req):
    """``HEAD``/``GET …/{users,groups}/{id}/roles/{role_id}``: 204 if the
    user or group has the role directly, else 404."""
    (actor, actor_id, target_type, target_id, role_id, actor_domain, target_domain) = _grant(req)
    policy.check_grant(req.context, actor_domain, target_domain)
    assignments.check_grant(req.db, actor_id, target_type, target_id, role_id, actor)
    return Response(204)


def revoke_grant(req):
    actor, actor_id, target_type, target_id, role_id, _, _ = _grant(req, missing_actor_ok=True)
    policy.admin_only(req.context, "revoke_grant")
    assignments.revoke(req.db, actor_id, target_type, target_id, role_id, actor)
    return Response(204)


def list_grants(req):
    """``GET …/{users,groups}/{id}/roles``: the roles the user or group has
    directly on the project or domain (keystone's ``list_grants``, its
    ``check_grant`` rule: keystone-30-groups.json)."""
    params, db = req.params, req.db
    if "group_id" in params:
        actor, row = "group_id", groups.find(db, params["group_id"])
        if row is None:
            raise groups.not_found(params["group_id"])
    else:
        actor, row = "user_id", users.find(db, params["user_id"])
        if row is None:
            raise users.not_found(params["user_id"])
    if "project_id" in params:
        target = projects.get(db, params["project_id"])
        target_type, target_domain = "project", target["domain_id"]
    else:
        target = domains.get(db, params["domain_id"])
        target_type, target_domain = "domain", target["id"]
    ctx = req.context
    policy.enforce(
        ctx,
        "list_grants",
        ctx.is_admin
        or (
            policy.domain_reader(ctx, row["domain_id"])
            and policy.domain_reader(ctx, target_domain)
        ),
    )
    found = assignments.list_assignments(db, **{actor: row["id"]})
    role_ids = {
        a["role_id"]
        for a in found
        if a.get(actor) == row["id"]
        and a["target_type"] == target_type
        and a["target_id"] == target["id"]
    }
    rows = [assignments.find_role(db, role_id) for role_id in sorted(role_ids)]
    views = [role_view(req, r) for r in rows if r is not None]
    return Response(200, collection(req, "roles", views))
