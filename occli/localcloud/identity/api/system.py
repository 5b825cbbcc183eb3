"""A user's or a group's roles on the system:
``/v3/system/{users,groups}/{actor_id}/roles[/{role_id}]`` — list, grant
(PUT), check (HEAD/GET: 204 or 404) and revoke (DELETE). Keystone looks
the role and then the actor up before the policy, so those are 404 first
(an unknown actor is looked up but allowed for a revoke), as
``keystone/api/system.py`` does."""

from occli.localcloud.app import Response
from occli.localcloud.identity import assignments
from occli.localcloud.identity import groups
from occli.localcloud.identity import policy
from occli.localcloud.identity import users
from occli.localcloud.identity.api.common import collection
from occli.localcloud.identity.api.views import role_view

ACTORS = {"users": "user", "groups": "group"}


def register(service):
    for plural in ACTORS:
        actor_id = "{%s_id}" % ACTORS[plural]
        service.route("GET", "/v3/system/%s/%s/roles" % (plural, actor_id), list_grants)
        path = "/v3/system/%s/%s/roles/{role_id}" % (plural, actor_id)
        service.route("PUT", path, create_grant)
        service.route("GET", path, check_grant)  # and HEAD
        service.route("DELETE", path, revoke_grant)


def _actor(req, missing_ok=False):
    """``(actor, actor_id, role_id)`` of the URL, looked up in keystone's
    order: the role (if any), then the user or group."""
    params, db = req.params, req.db
    role_id = None
    if "role_id" in params:
        role_id = assignments.get_role(db, params["role_id"])["id"]
    if "group_id" in params:
        actor, actor_id = "group", params["group_id"]
        row, missing = groups.find(db, actor_id), groups.not_found
    else:
        actor, actor_id = "user", params["user_id"]
        row, missing = users.find(db, actor_id), users.not_found
    if row is None and not missing_ok:
        raise missing(actor_id)
    return actor, actor_id, role_id


def list_grants(req):
    """``GET /v3/system/{users,groups}/{id}/roles``: the direct system roles."""
    actor, actor_id, _ = _actor(req)
    policy.admin_or_system_reader(req.context, "list_system_grants_for_" + actor)
    rows = assignments.system_grants(req.db, actor_id, actor)
    return Response(200, collection(req, "roles", [role_view(req, r) for r in rows]))


def create_grant(req):
    """``PUT …/roles/{role_id}``: 204 (also when the actor already has it)."""
    actor, actor_id, role_id = _actor(req)
    policy.admin_only(req.context, "create_system_grant_for_" + actor)
    assignments.assign_system(req.db, actor_id, role_id, actor)
    return Response(204)


def check_grant(req):
    """``HEAD``/``GET …/roles/{role_id}``: 204 if the actor has the role on
    the system directly, else 404."""
    actor, actor_id, role_id = _actor(req)
    policy.admin_or_system_reader(req.context, "check_system_grant_for_" + actor)
    assignments.check_system_grant(req.db, actor_id, role_id, actor)
    return Response(204)


def revoke_grant(req):
    actor, actor_id, role_id = _actor(req, missing_ok=True)
    policy.admin_only(req.context, "revoke_system_grant_for_" + actor)
    assignments.revoke_system(req.db, actor_id, role_id, actor)
    return Response(204)
