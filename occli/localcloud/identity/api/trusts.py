"""``/v3/OS-TRUST/trusts``: create (the trustor), list (``?trustor_user_id``,
``?trustee_user_id``), show, delete, and a trust's roles
(``/roles``, ``/roles/{role_id}``), as keystone/api/trusts.py; the rules
are in :mod:`occli.localcloud.identity.trusts`."""

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.app import Response
from occli.localcloud.app import Unauthenticated
from occli.localcloud.identity import tokens
from occli.localcloud.identity import trusts
from occli.localcloud.identity.api import common as api_common
from occli.localcloud.identity.api import views

PATH = "/v3/OS-TRUST/trusts"


def register(service):
    service.route("GET", PATH, list_trusts)
    service.route("POST", PATH, create_trust)
    service.route("GET", PATH + "/{trust_id}", get_trust)
    service.route("DELETE", PATH + "/{trust_id}", delete_trust)
    service.route("GET", PATH + "/{trust_id}/roles", list_trust_roles)
    service.route("GET", PATH + "/{trust_id}/roles/{role_id}", get_trust_role)


def _token(req):
    token = tokens.load(req.db, req.header("X-Auth-Token"))
    if token is None:
        raise Unauthenticated(req.base_url + "/v3")
    return token


def _roles_links(req, trust_id):
    return {
        "self": api_common.url(req, "OS-TRUST", "trusts", trust_id, "roles"),
        "previous": None,
        "next": None,
    }


def _trust_body(req, db, row, with_roles=True):
    expires = row["expires_at"]
    body = {
        "id": row["id"],
        "trustor_user_id": row["trustor_user_id"],
        "trustee_user_id": row["trustee_user_id"],
        "project_id": row["project_id"],
        "impersonation": bool(row["impersonation"]),
        "expires_at": (
            common.iso_micro_z(common.from_timestamp(expires)) if expires is not None else None
        ),
        "remaining_uses": row["remaining_uses"],
        "redelegated_trust_id": None,
        "redelegation_count": 0,
        "links": {"self": api_common.url(req, "OS-TRUST", "trusts", row["id"])},
    }
    if with_roles:
        body["deleted_at"] = None
        body["roles"] = [views.role_view(req, r) for r in trusts.roles(db, row["id"])]
        body["roles_links"] = _roles_links(req, row["id"])
    return body


def create_trust(req):
    """``POST /v3/OS-TRUST/trusts``."""
    data = trusts.create_input(req.json())
    row = trusts.create(req.db, req.context, _token(req), data)
    return Response(201, {"trust": _trust_body(req, req.db, row)})


def list_trusts(req):
    """``GET /v3/OS-TRUST/trusts[?trustor_user_id=|?trustee_user_id=]``
    (keystone lists them without their roles)."""
    rows = trusts.select(
        req.db, req.context, req.arg("trustor_user_id"), req.arg("trustee_user_id")
    )
    trusts.check_not_app_cred(_token(req))
    return Response(
        200,
        api_common.collection(
            req, "trusts", [_trust_body(req, req.db, row, with_roles=False) for row in rows]
        ),
    )


def _related_trust(req, action):
    row = trusts.find(req.db, req.params["trust_id"])
    trusts.check_related(req.context, row, action)
    trusts.check_not_app_cred(_token(req))
    return row


def get_trust(req):
    """``GET /v3/OS-TRUST/trusts/{trust_id}``."""
    row = _related_trust(req, "get_trust")
    return Response(200, {"trust": _trust_body(req, req.db, row)})


def delete_trust(req):
    """``DELETE /v3/OS-TRUST/trusts/{trust_id}``: its tokens stop working."""
    trusts.delete(req.db, req.context, _token(req), req.params["trust_id"])
    return Response(204)


def list_trust_roles(req):
    """``GET /v3/OS-TRUST/trusts/{trust_id}/roles``."""
    row = _related_trust(req, "list_roles_for_trust")
    roles = [views.role_view(req, r) for r in trusts.roles(req.db, row["id"])]
    return Response(200, {"roles": roles, "links": _roles_links(req, row["id"])})


def get_trust_role(req):
    """``GET /v3/OS-TRUST/trusts/{trust_id}/roles/{role_id}``."""
    row = _related_trust(req, "get_role_for_trust")
    role_id = req.params["role_id"]
    for role in trusts.roles(req.db, row["id"]):
        if role["id"] == role_id:
            return Response(200, {"role": views.role_view(req, role)})
    raise errors.NotFound("Could not find role: %s." % role_id)
