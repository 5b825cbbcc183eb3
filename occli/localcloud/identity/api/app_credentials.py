"""``/v3/users/{user_id}/application_credentials``: a user's own
application credentials — list (``?name``), create (the secret hashed with
no lock held; ``access_rules`` kept as the user's rules), show and delete
(which also invalidates the tokens obtained with it); and
``/v3/users/{user_id}/access_rules``: the user's access rules — list
(``?service``, ``?path``, ``?method``), show, delete (not while in use)."""

from occli.localcloud import common
from occli.localcloud.app import Response
from occli.localcloud.app import Unauthenticated
from occli.localcloud.identity import app_credentials
from occli.localcloud.identity import assignments
from occli.localcloud.identity import passwords
from occli.localcloud.identity import policy
from occli.localcloud.identity import schemas
from occli.localcloud.identity import tokens

PATH = "/v3/users/{user_id}/application_credentials"
RULES_PATH = "/v3/users/{user_id}/access_rules"


def register(service):
    service.route("GET", PATH, list_app_creds)
    service.route("POST", PATH, create_app_cred, mode=None)
    service.route("GET", PATH + "/{app_cred_id}", get_app_cred)
    service.route("DELETE", PATH + "/{app_cred_id}", delete_app_cred)
    service.route("GET", RULES_PATH, list_access_rules)
    service.route("GET", RULES_PATH + "/{access_rule_id}", get_access_rule)
    service.route("DELETE", RULES_PATH + "/{access_rule_id}", delete_access_rule)


def _app_cred_url(req, user_id, cred_id=None):
    url = "%s/v3/users/%s/application_credentials" % (req.base_url, user_id)
    return url + "/" + cred_id if cred_id else url


def _role_ref(row):
    """A credential's role as keystone 30 lists it: the role's ref, no links."""
    return {
        "id": row["id"],
        "name": row["name"],
        "domain_id": None,
        "description": row["description"],
        "options": {"immutable": True} if assignments.immutable(row) else {},
    }


def _app_cred_body(req, db, row, secret=None):
    expires = row["expires_at"]
    body = {
        "id": row["id"],
        "name": row["name"],
        "description": row["description"],
        "user_id": row["user_id"],
        "project_id": row["project_id"],
        "system": None,
        "expires_at": (
            common.iso_naive_micro(common.from_timestamp(expires)) if expires is not None else None
        ),
        # keystone keeps ``unrestricted`` as given: null when it was not
        "unrestricted": (
            None if row["unrestricted_given"] is None else bool(row["unrestricted_given"])
        ),
        "roles": [_role_ref(r) for r in app_credentials.roles(db, row["id"])],
        "links": {"self": _app_cred_url(req, row["user_id"], row["id"])},
    }
    rules = app_credentials.credential_access_rules(db, row["id"])
    if rules is not None:
        body["access_rules"] = rules
    if secret is not None:
        body["secret"] = secret
    return body


def create_app_cred(req):
    """``POST /v3/users/{user_id}/application_credentials``.

    Runs outside the request transaction (the secret is hashed with no
    lock held); the checks and the insert share one short transaction.
    """
    user_id = req.params["user_id"]
    if req.context.user_id != user_id:
        raise policy.forbidden("create_application_credential")
    data = schemas.app_cred_create_input(req.json())
    secret = data["secret"] or passwords.generate_secret()
    secret_hash = passwords.hash_password(secret)
    with req.cloud.store.transaction() as db:
        token = tokens.load(db, req.header("X-Auth-Token"))
        if token is None:
            raise Unauthenticated(req.base_url + "/v3")
        row = app_credentials.create(db, user_id, token, data, secret_hash)
        return Response(
            201, {"application_credential": _app_cred_body(req, db, row, secret=secret)}
        )


def list_app_creds(req):
    """``GET /v3/users/{user_id}/application_credentials[?name=]``."""
    user_id = req.params["user_id"]
    # keystone 30's ADMIN_OR_SYSTEM_READER_OR_OWNER (keystone-30-app_credentials.json,
    # keystone-30-system.json)
    allowed = req.context.is_admin or policy.system_reader(req.context)
    policy.enforce(
        req.context, "list_application_credentials", allowed or req.context.user_id == user_id
    )
    rows = app_credentials.select(req.db, user_id, req.arg("name"))
    url = _app_cred_url(req, user_id)
    if req.query_string:
        url += "?" + req.query_string
    return Response(
        200,
        {
            "application_credentials": [_app_cred_body(req, req.db, row) for row in rows],
            "links": {"self": url, "previous": None, "next": None},
        },
    )


def _owned_app_cred(req, action):
    return app_credentials.owned(
        req.db, req.context.user_id, req.params["user_id"], req.params["app_cred_id"], action
    )


def get_app_cred(req):
    """``GET /v3/users/{user_id}/application_credentials/{id}``."""
    row = _owned_app_cred(req, "get_application_credential")
    return Response(200, {"application_credential": _app_cred_body(req, req.db, row)})


def delete_app_cred(req):
    """``DELETE /v3/users/{user_id}/application_credentials/{id}``:
    also invalidates the tokens obtained with it."""
    row = _owned_app_cred(req, "delete_application_credential")
    app_credentials.check_unrestricted(tokens.load(req.db, req.header("X-Auth-Token")))
    app_credentials.delete(req.db, row["id"])
    return Response(204)


# -- access rules -------------------------------------------------------------


def _access_rule_body(req, user_id, row):
    url = "%s/v3/users/%s/access_rules/%s" % (req.base_url, user_id, row["id"])
    return dict(row, links={"self": url})


def list_access_rules(req):
    """``GET /v3/users/{user_id}/access_rules[?service=&path=&method=]``."""
    user_id = req.params["user_id"]
    app_credentials.access_rule_allowed(req.context, user_id, "list_access_rules")
    filters = {key: req.arg(key) for key in ("service", "path", "method")}
    rows = app_credentials.select_access_rules(req.db, user_id, filters)
    url = "%s/v3/users/%s/access_rules" % (req.base_url, user_id)
    if req.query_string:
        url += "?" + req.query_string
    return Response(
        200,
        {
            "access_rules": [_access_rule_body(req, user_id, row) for row in rows],
            "links": {"self": url, "previous": None, "next": None},
        },
    )


def _owned_access_rule(req, action):
    app_credentials.access_rule_allowed(req.context, req.params["user_id"], action)
    return app_credentials.owned_access_rule(
        req.db, req.params["user_id"], req.params["access_rule_id"]
    )


def get_access_rule(req):
    """``GET /v3/users/{user_id}/access_rules/{access_rule_id}``."""
    row = _owned_access_rule(req, "get_access_rule")
    return Response(200, {"access_rule": _access_rule_body(req, req.params["user_id"], row)})


def delete_access_rule(req):
    """``DELETE /v3/users/{user_id}/access_rules/{access_rule_id}``: 403
    while a credential uses it."""
    row = _owned_access_rule(req, "delete_access_rule")
    app_credentials.delete_access_rule(req.db, row["id"])
    return Response(204)
