"""Implied roles: ``/v3/roles/{prior_role_id}/implies[/{implied_role_id}]``
(list; create with PUT, show with GET, check with HEAD — 204, as keystone
answers — and delete) and ``/v3/role_inferences`` (every rule), with
keystone's bodies (``keystone/api/roles.py``, ``role_inferences.py`` and
``_shared/implied_roles.py``). The roles are looked up before the
policy (404 first). The
rules are in :mod:`occli.localcloud.identity.implied_roles`."""

from occli.localcloud.app import Response
from occli.localcloud.identity import assignments
from occli.localcloud.identity import implied_roles
from occli.localcloud.identity import policy
from occli.localcloud.identity.api.common import url

IMPLIES = "/v3/roles/{prior_role_id}/implies"


def register(service):
    service.route("GET", IMPLIES, list_implied_roles)
    service.route("PUT", IMPLIES + "/{implied_role_id}", create_implied_role)
    service.route("GET", IMPLIES + "/{implied_role_id}", get_implied_role)
    service.route("DELETE", IMPLIES + "/{implied_role_id}", delete_implied_role)
    service.route("GET", "/v3/role_inferences", list_role_inferences)


def _role_ref(req, row):
    """keystone's ``build_implied_role_response_data`` (and the prior
    role's, the same keys)."""
    return {"id": row["id"], "links": {"self": url(req, "roles", row["id"])}, "name": row["name"]}


def _roles(req):
    """The prior and implied role rows of the URL (404 first)."""
    prior = assignments.get_role(req.db, req.params["prior_role_id"])
    return prior, assignments.get_role(req.db, req.params["implied_role_id"])


def _inference(req, prior, implied):
    return {
        "role_inference": {
            "prior_role": _role_ref(req, prior),
            "implies": _role_ref(req, implied),
        },
        "links": {"self": url(req, "roles", prior["id"], "implies", implied["id"])},
    }


def list_implied_roles(req):
    prior = assignments.get_role(req.db, req.params["prior_role_id"])
    policy.admin_or_system_reader(req.context, "list_implied_roles")
    implied = implied_roles.implied_rows(req.db, prior["id"])
    return Response(
        200,
        {
            "role_inference": {
                "prior_role": _role_ref(req, prior),
                "implies": [_role_ref(req, r) for r in implied],
            },
            "links": {"self": url(req, "roles", prior["id"], "implies")},
        },
    )


def create_implied_role(req):
    prior, implied = _roles(req)
    policy.admin_only(req.context, "create_implied_role")
    implied_roles.create(req.db, prior, implied)
    return Response(201, _inference(req, prior, implied))


def get_implied_role(req):
    """``GET``: the rule; ``HEAD``: 204 (keystone's ``check_implied_role``)."""
    prior, implied = _roles(req)
    action = "check_implied_role" if req.method == "HEAD" else "get_implied_role"
    policy.admin_or_system_reader(req.context, action)
    implied_roles.check(req.db, prior["id"], implied["id"])
    if req.method == "HEAD":
        return Response(204)
    return Response(200, _inference(req, prior, implied))


def delete_implied_role(req):
    prior, implied = _roles(req)
    policy.admin_only(req.context, "delete_implied_role")
    implied_roles.delete(req.db, prior["id"], implied["id"])
    return Response(204)


def list_role_inferences(req):
    policy.admin_or_system_reader(req.context, "list_role_inference_rules")
    return Response(
        200,
        {
            "role_inferences": [
                {"prior_role": _role_ref(req, prior), "implies": [_role_ref(req, r) for r in rows]}
                for prior, rows in implied_roles.rules(req.db)
            ]
        },
    )
