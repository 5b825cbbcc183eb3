"""``/v3/domains/{domain_id}/config[/{group}[/{option}]]``: a domain's
configuration — create or replace (PUT), show, update (PATCH), delete —
and ``/v3/domains/config[/{group}[/{option}]]/default``, keystone's
defaults; admins (a system reader may read), as keystone/api/domains.py;
the rules are in :mod:`occli.localcloud.identity.domain_config`."""

from occli.localcloud.app import Response
from occli.localcloud.identity import domain_config
from occli.localcloud.identity import domains
from occli.localcloud.identity import policy

PATH = "/v3/domains/{domain_id}/config"
DEFAULT = "/v3/domains/config"


def register(service):
    service.route("GET", DEFAULT + "/default", get_default)
    service.route("GET", DEFAULT + "/{group}/default", get_default)
    service.route("GET", DEFAULT + "/{group}/{option}/default", get_default)
    service.route("PUT", PATH, create_config)
    for suffix in ("", "/{group}", "/{group}/{option}"):
        service.route("GET", PATH + suffix, get_config)
        service.route("PATCH", PATH + suffix, update_config)
        service.route("DELETE", PATH + suffix, delete_config)


def _allowed(req, action, reading=False):
    ctx = req.context
    policy.enforce(ctx, action, ctx.is_admin or (reading and policy.system_reader(ctx)))


def _where(req):
    return req.params.get("group"), req.params.get("option")


def _config(req):
    body = req.json()
    return body.get("config") if isinstance(body, dict) else None


def get_default(req):
    """``GET /v3/domains/config[/{group}[/{option}]]/default``."""
    _allowed(req, "get_domain_config_default", reading=True)
    return Response(200, {"config": domain_config.defaults(*_where(req))})


def create_config(req):
    """``PUT /v3/domains/{domain_id}/config``: 201 new, 200 replaced."""
    _allowed(req, "create_domain_config")
    domain = domains.get(req.db, req.params["domain_id"])
    created = domain_config.create(req.db, domain["id"], _config(req))
    config = domain_config.get(req.db, domain["id"])
    return Response(201 if created else 200, {"config": config})


def get_config(req):
    """``GET /v3/domains/{domain_id}/config[/{group}[/{option}]]``."""
    _allowed(req, "get_domain_config", reading=True)
    return Response(
        200, {"config": domain_config.get(req.db, req.params["domain_id"], *_where(req))}
    )


def update_config(req):
    """``PATCH /v3/domains/{domain_id}/config[/{group}[/{option}]]``: the
    whole config after the update."""
    _allowed(req, "update_domain_config")
    domain_id = req.params["domain_id"]
    domain_config.update(req.db, domain_id, _config(req), *_where(req))
    return Response(200, {"config": domain_config.get(req.db, domain_id)})


def delete_config(req):
    """``DELETE /v3/domains/{domain_id}/config[/{group}[/{option}]]``."""
    _allowed(req, "delete_domain_config")
    domain_config.delete(req.db, req.params["domain_id"], *_where(req))
    return Response(204)
