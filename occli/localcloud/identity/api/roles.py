"""``/v3/roles`` (admin): list (``?name``, ``?domain_id``), create, show,
update and delete. The rules are in :mod:`occli.localcloud.identity.assignments`."""

from occli.localcloud.app import Response
from occli.localcloud.identity import admin_schemas
from occli.localcloud.identity import assignments
from occli.localcloud.identity import policy
from occli.localcloud.identity.api.common import collection
from occli.localcloud.identity.api.views import role_view


def register(service):
    service.route("GET", "/v3/roles", list_roles)
    service.route("POST", "/v3/roles", create_role)
    service.route("GET", "/v3/roles/{role_id}", get_role)
    service.route("PATCH", "/v3/roles/{role_id}", update_role)
    service.route("DELETE", "/v3/roles/{role_id}", delete_role)


def list_roles(req):
    query = admin_schemas.check_query("ROLE_QUERY", req.query)
    policy.admin_or_system_reader(req.context, "list_roles")
    rows = assignments.select_roles(
        req.db, name=query.get("name"), domain_id=query.get("domain_id")
    )
    return Response(200, collection(req, "roles", [role_view(req, r) for r in rows]))


def create_role(req):
    data = admin_schemas.check_body("ROLE_CREATE", req.json())["role"]
    policy.admin_only(req.context, "create_role")
    return Response(201, {"role": role_view(req, assignments.create_role(req.db, data))})


def get_role(req):
    policy.admin_or_system_reader(req.context, "get_role")
    row = assignments.get_role(req.db, req.params["role_id"])
    return Response(200, {"role": role_view(req, row)})


def update_role(req):
    data = admin_schemas.check_body("ROLE_UPDATE", req.json())["role"]
    policy.admin_only(req.context, "update_role")
    row = assignments.update_role(req.db, req.params["role_id"], data)
    return Response(200, {"role": role_view(req, row)})


def delete_role(req):
    policy.admin_only(req.context, "delete_role")
    assignments.delete_role(req.db, req.params["role_id"])
    return Response(204)
