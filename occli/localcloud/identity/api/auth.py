"""``/v3/auth``: issue a token (password, token and/or
application_credential), validate and revoke ``X-Subject-Token``, the
catalog of the caller's token.

``/v3/auth/projects``, ``/v3/auth/domains`` and ``/v3/auth/system`` list
the scopes the caller's user may ask for (its roles', direct or through
its groups, as keystone's ``keystone/api/auth.py`` lists them).

``POST /v3/auth/tokens`` runs outside the request transaction: the secrets'
stored hashes are read in one read transaction, checked with no lock held
(scrypt takes ~45 ms), and the token is issued in a second short
transaction that re-checks the hashes did not change meanwhile. A rule's
``errors.Unauthorized`` on this path becomes a 401 with keystone's
``WWW-Authenticate``.
"""

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.identity import app_credentials
from occli.localcloud.identity import assignments
from occli.localcloud.identity import domains
from occli.localcloud.identity import policy
from occli.localcloud.identity import projects
from occli.localcloud.identity import schemas
from occli.localcloud.identity import tokens
from occli.localcloud.identity import users
from occli.localcloud.identity.api.common import collection
from occli.localcloud.identity.api.common import unauthorized
from occli.localcloud.identity.api.common import url
from occli.localcloud.identity.api.views import domain_view
from occli.localcloud.identity.api.views import project_view
from occli.localcloud.identity.catalog import catalog


def register(service):
    service.route("POST", "/v3/auth/tokens", issue_token, auth=False, mode=None)
    service.route("GET", "/v3/auth/tokens", validate_token)
    service.route("DELETE", "/v3/auth/tokens", revoke_token)
    service.route("GET", "/v3/auth/catalog", get_catalog)
    service.route("GET", "/v3/auth/projects", get_auth_projects)
    service.route("GET", "/v3/auth/domains", get_auth_domains)
    service.route("GET", "/v3/auth/system", get_auth_system)


def issue_token(req):
    """``POST /v3/auth/tokens`` with the password, token and/or
    application_credential methods.

    Runs outside the request transaction (route ``mode=None``):
    1. a read transaction (no lock) reads the stored hashes (a locked
       user is refused here, before any hashing);
    2. the secrets are checked with no database lock held;
    3. a short transaction re-reads the hashes (a password changed or a
       credential deleted meanwhile fails the login) and issues the token
       (a read one when a secret was wrong: the login is refused; with
       the lockout on, a short write first counts the failure).
    """
    try:
        methods, identity, scope = schemas.parse_auth(req.json())
        store = req.cloud.store
        lockout = req.cloud.identity.lockout
        checks = {}
        with store.read() as db:
            if "password" in methods:
                checks["password"] = users.password_lookup(db, identity["password"], lockout)
            if "application_credential" in methods:
                checks["application_credential"] = app_credentials.lookup(
                    db, identity["application_credential"]
                )
        refused = not all([check.verify() for check in checks.values()])
        if users.counts_failure(checks.get("password"), lockout):
            with store.transaction() as db:
                users.record_failure(db, checks["password"].row_id, lockout)
        with store.read() if refused else store.transaction() as db:
            raw, token = tokens.issue(
                db, methods, identity, scope, checks, req.cloud.config.token_ttl
            )
            body = _token_body(req, token, db)
    except errors.Unauthorized as exc:
        raise unauthorized(exc, req.base_url) from None
    return Response(
        201,
        body,
        headers={"X-Subject-Token": raw, "Vary": "X-Auth-Token"},
    )


def _token_body(req, token, db):
    with_catalog = "nocatalog" not in req.query
    body = {
        "audit_ids": token["audit_ids"],
        "expires_at": common.iso_micro_z(common.from_timestamp(token["expires_at"])),
        "issued_at": common.iso_micro_z(common.from_timestamp(token["issued_at"])),
        "methods": token["methods"],
        "user": dict(token["user"], password_expires_at=None),
    }
    if token["application_credential"] is not None:
        body["application_credential"] = dict(token["application_credential"])
    if token["trust"] is not None:
        body["OS-TRUST:trust"] = token["trust"]
    project = token["project"]
    if project is not None:
        body["project"] = project
        if token["trust"] is None:  # keystone leaves it out of a trust's token
            body["is_domain"] = False
    elif token["domain"] is not None:
        body["domain"] = token["domain"]
    elif token["system"]:
        body["system"] = {"all": True}
    else:
        return {"token": body}
    body["roles"] = token["roles"]
    if with_catalog:
        body["catalog"] = catalog(
            db, req.base_url, project["id"] if project else None, token["user"]["id"]
        )
    return {"token": body}


def _subject_token(req, action):
    raw = req.header("X-Subject-Token")
    if not raw:
        # keystone/api/auth.py: TokenNotFound(_('No token in the request'))
        raise HTTPError(404, "No token in the request")
    allow_expired = (req.arg("allow_expired") or "").lower() in ("1", "true", "yes", "on")
    token = tokens.load(req.db, raw, allow_expired=allow_expired)
    if token is None:
        # keystone.exception.TokenNotFound, its text as keystone 30's
        raise HTTPError(404, tokens.refusal(req.db, raw))
    caller = req.context
    if not caller.is_admin and caller.user_id != token["user"]["id"]:
        raise policy.forbidden(action)
    return raw, token


def validate_token(req):
    """``GET``/``HEAD /v3/auth/tokens``: validate ``X-Subject-Token``."""
    raw, token = _subject_token(req, "validate_token")
    return Response(
        200,
        _token_body(req, token, req.db),
        headers={"X-Subject-Token": raw, "Vary": "X-Auth-Token"},
    )


def revoke_token(req):
    """``DELETE /v3/auth/tokens``: revoke ``X-Subject-Token``."""
    raw, _token = _subject_token(req, "revoke_token")
    tokens.revoke(req.db, raw)
    return Response(204)


def get_catalog(req):
    """``GET /v3/auth/catalog`` for the caller's token."""
    token = tokens.load(req.db, req.header("X-Auth-Token"))
    # keystone AuthCatalogResource.get: only a project scope will do
    # (unscoped, domain- and system-scoped tokens are all 403); its
    # Forbidden's own text is shown only with insecure_debug: keystone 30
    # answered a system-scoped token with the generic one
    if token["project"] is None:
        raise HTTPError(403, "You are not authorized to perform the requested action.")
    return Response(
        200,
        {
            "catalog": catalog(req.db, req.base_url, token["project"]["id"], token["user"]["id"]),
            "links": {"self": req.base_url + "/v3/auth/catalog"},
        },
    )


def _target_ids(req, target_type):
    """The ids of the targets of ``target_type`` the caller's user has a
    role on (its own or its groups')."""
    found = assignments.list_assignments(req.db, user_id=req.context.user_id, effective=True)
    return {a["target_id"] for a in found if a["target_type"] == target_type}


def get_auth_projects(req):
    """``GET /v3/auth/projects``: the projects the caller may scope to."""
    rows = projects.select(req.db, ids=_target_ids(req, "project"))
    return Response(200, collection(req, "projects", [project_view(req, r) for r in rows]))


def get_auth_domains(req):
    """``GET /v3/auth/domains``: the domains the caller may scope to."""
    rows = [domains.find(req.db, i) for i in sorted(_target_ids(req, "domain"))]
    views = [domain_view(req, r) for r in rows if r is not None]
    return Response(200, collection(req, "domains", views))


def get_auth_system(req):
    """``GET /v3/auth/system``: ``[{"all": true}]`` if the caller has a
    role on the system, else ``[]``."""
    system = [{"all": True}] if _target_ids(req, assignments.SYSTEM_TARGET) else []
    return Response(200, {"system": system, "links": {"self": url(req, "auth", "system")}})
