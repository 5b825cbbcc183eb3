"""``/v3/domains``: list (``?name``, ``?enabled``; a domain reader sees its
own), create, show, update and delete. Checks in keystone's order: the body
or query schema, the policy, then :mod:`occli.localcloud.identity.domains`."""

from occli.localcloud.app import Response
from occli.localcloud.identity import admin_schemas
from occli.localcloud.identity import domains
from occli.localcloud.identity import policy
from occli.localcloud.identity.api.common import collection
from occli.localcloud.identity.api.views import domain_view


def register(service):
    service.route("GET", "/v3/domains", list_domains)
    service.route("POST", "/v3/domains", create_domain)
    service.route("GET", "/v3/domains/{domain_id}", get_domain)
    service.route("PATCH", "/v3/domains/{domain_id}", update_domain)
    service.route("DELETE", "/v3/domains/{domain_id}", delete_domain)


def list_domains(req):
    query = admin_schemas.check_query("DOMAIN_QUERY", req.query)
    ctx = req.context
    policy.admin_or_domain_reader(ctx, "list_domains")
    rows = domains.select(
        req.db,
        name=query.get("name"),
        enabled=admin_schemas.optional_boolean(query.get("enabled")),
        only=None if ctx.is_admin else policy.domain_scope(ctx),
    )
    return Response(200, collection(req, "domains", [domain_view(req, r) for r in rows]))


def create_domain(req):
    data = admin_schemas.check_body("DOMAIN_CREATE", req.json())["domain"]
    policy.admin_only(req.context, "create_domain")
    data["enabled"] = admin_schemas.boolean(data.get("enabled"))
    return Response(201, {"domain": domain_view(req, domains.create(req.db, data))})


def get_domain(req):
    domain_id = req.params["domain_id"]
    policy.get_domain(req.context, domain_id)
    return Response(200, {"domain": domain_view(req, domains.get(req.db, domain_id))})


def update_domain(req):
    data = admin_schemas.check_body("DOMAIN_UPDATE", req.json())["domain"]
    policy.admin_only(req.context, "update_domain")
    if "enabled" in data:
        data["enabled"] = admin_schemas.boolean(data["enabled"])
    row = domains.update(req.db, req.params["domain_id"], data)
    return Response(200, {"domain": domain_view(req, row)})


def delete_domain(req):
    policy.admin_only(req.context, "delete_domain")
    domains.delete(req.db, req.params["domain_id"])
    return Response(204)
