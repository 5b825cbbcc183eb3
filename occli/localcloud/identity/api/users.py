"""``/v3/users``: list (``?name``, ``?domain_id``, ``?enabled``; a domain
reader sees its domain's), create, show, update, delete, a user's projects
and the password change. Creating or updating a user with a password hashes
it before the write transaction (route ``mode=None``), as logins do; so does
``POST /v3/users/{id}/password``, which takes no token (keystone checks the
original password instead). Checks in keystone's order: the body or query
schema, the policy, then :mod:`occli.localcloud.identity.users`."""

from occli.localcloud import errors
from occli.localcloud.app import Response
from occli.localcloud.identity import admin_schemas
from occli.localcloud.identity import passwords
from occli.localcloud.identity import policy
from occli.localcloud.identity import projects
from occli.localcloud.identity import users
from occli.localcloud.identity.api.common import collection
from occli.localcloud.identity.api.common import unauthorized
from occli.localcloud.identity.api.views import project_view
from occli.localcloud.identity.api.views import user_view
from occli.localcloud.identity.projects import DEFAULT_DOMAIN


def register(service):
    service.route("GET", "/v3/users", list_users)
    service.route("POST", "/v3/users", create_user, mode=None)
    service.route("GET", "/v3/users/{user_id}", get_user)
    service.route("PATCH", "/v3/users/{user_id}", update_user, mode=None)
    service.route("DELETE", "/v3/users/{user_id}", delete_user)
    service.route("POST", "/v3/users/{user_id}/password", change_password, auth=False, mode=None)
    service.route("GET", "/v3/users/{user_id}/projects", list_user_projects)


def list_users(req):
    query = admin_schemas.check_query("USER_QUERY", req.query)
    ctx = req.context
    policy.admin_or_domain_reader(ctx, "list_users")
    scope = policy.domain_scope(ctx)
    domain_id = query.get("domain_id")
    if scope is not None and domain_id not in (None, scope):
        rows = []
    else:
        rows = users.select(
            req.db,
            name=query.get("name"),
            domain_id=domain_id or scope,
            enabled=admin_schemas.optional_boolean(query.get("enabled")),
        )
    return Response(200, collection(req, "users", [user_view(req, r) for r in rows]))


def _password_hash(data):
    """The hash of the body's password (no lock held: ~45 ms); "" for
    none (no password: the user cannot log in); None if absent."""
    if "password" not in data:
        return None
    if data["password"] is None:
        return ""
    return passwords.hash_password(data["password"])


def create_user(req):
    """``POST /v3/users`` (no transaction held while hashing)."""
    data = admin_schemas.check_body("USER_CREATE", req.json())["user"]
    ctx = req.context
    policy.admin_only(ctx, "create_user")
    users.check_supported(data)
    data["enabled"] = admin_schemas.boolean(data.get("enabled"))
    password_hash = _password_hash(data) or ""
    with req.cloud.store.transaction() as db:
        row = users.create(db, data, policy.domain_scope(ctx) or DEFAULT_DOMAIN, password_hash)
        return Response(201, {"user": user_view(req, row)})


def get_user(req):
    user_id = req.params["user_id"]
    row = users.find(req.db, user_id)
    policy.user_target(req.context, "get_user", row)
    if row is None:
        raise users.not_found(user_id)
    return Response(200, {"user": user_view(req, row)})


def update_user(req):
    """``PATCH /v3/users/{id}`` (no transaction held while hashing); a
    new password or disabling revokes the user's tokens."""
    data = admin_schemas.check_body("USER_UPDATE", req.json())["user"]
    policy.admin_only(req.context, "update_user")
    users.check_supported(data)
    if "enabled" in data:
        data["enabled"] = admin_schemas.boolean(data["enabled"])
    password_hash = _password_hash(data)
    with req.cloud.store.transaction() as db:
        row = users.update(db, req.params["user_id"], data, password_hash)
        # keystone 30's update answers the driver's ref, its ``extra`` too
        return Response(200, {"user": dict(user_view(req, row), extra=users.extra(row))})


def delete_user(req):
    policy.admin_only(req.context, "delete_user")
    users.delete(req.db, req.params["user_id"])
    return Response(204)


def change_password(req):
    """``POST /v3/users/{id}/password`` ``{"user": {"original_password",
    "password"}}``: no token needed; 401 unless the original password is
    right (and the user enabled); 204, the user's tokens revoked."""
    data = admin_schemas.check_password_change(req.json())
    store = req.cloud.store
    try:
        lockout = req.cloud.identity.lockout
        with store.read() as db:
            check = users.original_password_lookup(
                db, req.params["user_id"], data["original_password"], lockout
            )
        new_hash = passwords.hash_password(data["password"]) if check.verify() else None
        if users.counts_failure(check, lockout):
            with store.transaction() as db:
                users.record_failure(db, check.row_id, lockout)
        with store.transaction() if new_hash else store.read() as db:
            users.change_password(db, check, new_hash)
    except errors.Unauthorized as exc:
        # as keystone's password change answers: Keystone uri="<base>/v3"
        raise unauthorized(exc, req.base_url + "/v3") from None
    return Response(204)


def list_user_projects(req):
    user_id = req.params["user_id"]
    row = users.find(req.db, user_id)
    policy.user_target(req.context, "list_user_projects", row)
    if row is None:
        raise users.not_found(user_id)
    query = admin_schemas.check_query("PROJECT_QUERY", req.query)
    rows = projects.select(
        req.db,
        name=query.get("name"),
        domain_id=query.get("domain_id"),
        enabled=admin_schemas.optional_boolean(query.get("enabled")),
        ids=users.project_ids(req.db, user_id),
    )
    return Response(200, collection(req, "projects", [project_view(req, r) for r in rows]))
