"""A user's roles on a project or domain:
``/v3/{projects,domains}/{id}/users/{user_id}/roles/{role_id}`` — grant
(PUT), check (HEAD/GET: 204 or 404) and revoke (DELETE). Keystone looks a
grant's role, user and target up before the policy, so those are 404 first."""

from occli.localcloud.app import Response
from occli.localcloud.identity import assignments
from occli.localcloud.identity import domains
from occli.localcloud.identity import policy
from occli.localcloud.identity import projects
from occli.localcloud.identity import users

GRANT_PATHS = {
    "project": "/v3/projects/{project_id}/users/{user_id}/roles/{role_id}",
    "domain": "/v3/domains/{domain_id}/users/{user_id}/roles/{role_id}",
}


def register(service):
    for path in GRANT_PATHS.values():
        service.route("PUT", path, create_grant)
        service.route("GET", path, check_grant)  # and HEAD
        service.route("DELETE", path, revoke_grant)


def _grant(req, missing_user_ok=False):
    """``(user_id, target_type, target_id, role_id, user_domain,
    target_domain)`` of a grant URL, looked up in keystone's order:
    role, user (an unknown one only for a revoke), then the target."""
    params, db = req.params, req.db
    role_id = assignments.get_role(db, params["role_id"])["id"]
    user = users.find(db, params["user_id"])
    if user is None and not missing_user_ok:
        raise users.not_found(params["user_id"])
    if "project_id" in params:
        target = projects.get(db, params["project_id"])
        target_type, target_domain = "project", target["domain_id"]
    else:
        target = domains.get(db, params["domain_id"])
        target_type, target_domain = "domain", target["id"]
    return (
        params["user_id"],
        target_type,
        target["id"],
        role_id,
        user["domain_id"] if user else None,
        target_domain,
    )


def create_grant(req):
    """``PUT …/users/{user_id}/roles/{role_id}``: 204 (also when the
    user already has the role)."""
    user_id, target_type, target_id, role_id, _, _ = _grant(req)
    policy.admin_only(req.context, "create_grant")
    assignments.assign(req.db, user_id, target_type, target_id, role_id)
    return Response(204)


def check_grant(req):
    """``HEAD``/``GET …/users/{user_id}/roles/{role_id}``: 204 if the
    user has the role directly, else 404."""
    (user_id, target_type, target_id, role_id, user_domain, target_domain) = _grant(req)
    policy.check_grant(req.context, user_domain, target_domain)
    assignments.check_grant(req.db, user_id, target_type, target_id, role_id)
    return Response(204)


def revoke_grant(req):
    user_id, target_type, target_id, role_id, _, _ = _grant(req, missing_user_ok=True)
    policy.admin_only(req.context, "revoke_grant")
    assignments.revoke(req.db, user_id, target_type, target_id, role_id)
    return Response(204)
