"""``/v3/projects``: list (``?name``, ``?domain_id``, ``?enabled``,
``?parent_id``, ``?is_domain``; a domain reader sees its domain's), create
(a domain too, ``is_domain``), show, update and delete (a project acting as
a domain is its domain). Checks in keystone's order: the body or query
schema, the policy, then the rules."""

from occli.localcloud import errors
from occli.localcloud.app import Response
from occli.localcloud.identity import admin_schemas
from occli.localcloud.identity import domains
from occli.localcloud.identity import policy
from occli.localcloud.identity import projects
from occli.localcloud.identity.api import project_tags
from occli.localcloud.identity.api.common import collection
from occli.localcloud.identity.api.views import domain_as_project_view
from occli.localcloud.identity.api.views import project_view
from occli.localcloud.identity.projects import DEFAULT_DOMAIN


def register(service):
    service.route("GET", "/v3/projects", list_projects)
    service.route("POST", "/v3/projects", create_project)
    service.route("GET", "/v3/projects/{project_id}", get_project)
    service.route("PATCH", "/v3/projects/{project_id}", update_project)
    service.route("DELETE", "/v3/projects/{project_id}", delete_project)


def list_projects(req):
    query = admin_schemas.check_query("PROJECT_QUERY", req.query)
    ctx = req.context
    policy.admin_or_domain_reader(ctx, "list_projects")
    enabled = admin_schemas.optional_boolean(query.get("enabled"))
    scope = policy.domain_scope(ctx)
    if admin_schemas.boolean(query.get("is_domain"), default=False):
        rows = domains.select(req.db, name=query.get("name"), enabled=enabled, only=scope)
        if query.get("domain_id") or query.get("parent_id"):
            rows = []
        views = [domain_as_project_view(req, r) for r in rows]
        return Response(200, collection(req, "projects", views))
    domain_id = query.get("domain_id")
    if scope is not None and domain_id not in (None, scope):
        rows = []
    else:
        rows = projects.select(
            req.db,
            name=query.get("name"),
            domain_id=domain_id or scope,
            enabled=enabled,
            parent_id=query.get("parent_id"),
        )
    rows = project_tags.filter_projects(rows, req.query)
    return Response(200, collection(req, "projects", [project_view(req, r) for r in rows]))


def create_project(req):
    data = admin_schemas.check_body("PROJECT_CREATE", req.json())["project"]
    ctx = req.context
    policy.admin_only(ctx, "create_project")
    data["enabled"] = admin_schemas.boolean(data.get("enabled"))
    if admin_schemas.boolean(data.get("is_domain"), default=False):
        if data.get("domain_id") or data.get("parent_id"):
            raise errors.BadRequest("only root projects are allowed to act as domains.")
        row = domains.create(req.db, data)
        return Response(201, {"project": domain_as_project_view(req, row)})
    data.pop("is_domain", None)
    row = projects.create(req.db, data, policy.domain_scope(ctx) or DEFAULT_DOMAIN)
    return Response(201, {"project": project_view(req, row)})


def _project_or_domain(db, project_id):
    row = projects.find(db, project_id)
    if row is not None:
        return row, None
    return None, domains.find(db, project_id)


def get_project(req):
    project_id = req.params["project_id"]
    row, domain = _project_or_domain(req.db, project_id)
    target = row or (domain and {"id": domain["id"], "domain_id": None})
    policy.get_project(req.context, target)
    if row is not None:
        return Response(200, {"project": project_view(req, row)})
    if domain is not None:
        return Response(200, {"project": domain_as_project_view(req, domain)})
    raise projects.not_found(project_id)


def update_project(req):
    data = admin_schemas.check_body("PROJECT_UPDATE", req.json())["project"]
    policy.admin_only(req.context, "update_project")
    if "enabled" in data:
        data["enabled"] = admin_schemas.boolean(data["enabled"])
    project_id = req.params["project_id"]
    row, domain = _project_or_domain(req.db, project_id)
    if row is None and domain is not None:
        changes = {k: data[k] for k in ("name", "description", "enabled", "tags") if k in data}
        updated = domains.update(req.db, project_id, changes)
        return Response(200, {"project": domain_as_project_view(req, updated)})
    row = projects.update(req.db, project_id, data)
    # keystone 30's update answers the driver's ref, its ``extra`` too
    # (tests/fixtures/identity/realcloud/keystone-30-updates.json)
    return Response(200, {"project": dict(project_view(req, row), extra=projects.extra(row))})


def delete_project(req):
    """``DELETE /v3/projects/{id}``: a token scoped to the project (the
    caller's own included) is invalid afterwards, as in keystone."""
    policy.admin_only(req.context, "delete_project")
    project_id = req.params["project_id"]
    row, domain = _project_or_domain(req.db, project_id)
    if row is None and domain is not None:
        if domain["enabled"]:
            raise errors.BadRequest(
                "cannot delete an enabled project acting as a domain."
                " Please disable the project %s first." % project_id
            )
        domains.delete(req.db, project_id)
    else:
        projects.delete(req.db, project_id)
    return Response(204)
