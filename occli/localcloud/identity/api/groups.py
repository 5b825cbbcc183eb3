"""``/v3/groups``: list (``?name``, ``?domain_id``; a domain reader sees
its domain's), create, show, update, delete; membership
(``/v3/groups/{id}/users[/{user_id}]``: list, add, check, remove) and a
user's groups (``/v3/users/{id}/groups``). Keystone's
``keystone/api/groups.py`` and ``users.py``; the policies of
``keystone/common/policies/group.py`` without system scope or the domain
manager. Checks in keystone's order: the body or query schema, a lookup
of the target where keystone builds one, the policy, then
:mod:`occli.localcloud.identity.groups`."""

from occli.localcloud.app import Response
from occli.localcloud.identity import admin_schemas
from occli.localcloud.identity import groups
from occli.localcloud.identity import policy
from occli.localcloud.identity import users
from occli.localcloud.identity.api.common import collection
from occli.localcloud.identity.api.common import url
from occli.localcloud.identity.api.views import user_view
from occli.localcloud.identity.projects import DEFAULT_DOMAIN


def register(service):
    service.route("GET", "/v3/groups", list_groups)
    service.route("POST", "/v3/groups", create_group)
    service.route("GET", "/v3/groups/{group_id}", get_group)
    service.route("PATCH", "/v3/groups/{group_id}", update_group)
    service.route("DELETE", "/v3/groups/{group_id}", delete_group)
    service.route("GET", "/v3/groups/{group_id}/users", list_group_users)
    service.route("PUT", "/v3/groups/{group_id}/users/{user_id}", add_user)
    service.route("GET", "/v3/groups/{group_id}/users/{user_id}", check_user)  # and HEAD
    service.route("DELETE", "/v3/groups/{group_id}/users/{user_id}", remove_user)
    service.route("GET", "/v3/users/{user_id}/groups", list_user_groups)


def group_view(req, row):
    view = groups.extra(row)
    view.update(
        {
            "id": row["id"],
            "name": row["name"],
            "domain_id": row["domain_id"],
            "description": row["description"],
            "links": {"self": url(req, "groups", row["id"])},
        }
    )
    return view


def _in_scope(ctx, rows):
    """``rows`` of the token's domain only, for a domain-scoped token
    (keystone filters its lists so)."""
    scope = policy.domain_scope(ctx)
    return [r for r in rows if scope is None or r["domain_id"] == scope]


def list_groups(req):
    query = admin_schemas.check_query("GROUP_QUERY", req.query)
    ctx = req.context
    policy.admin_or_domain_reader(ctx, "list_groups")
    rows = groups.select(req.db, name=query.get("name"), domain_id=query.get("domain_id"))
    views = [group_view(req, r) for r in _in_scope(ctx, rows)]
    return Response(200, collection(req, "groups", views))


def create_group(req):
    data = admin_schemas.check_body("GROUP_CREATE", req.json())["group"]
    ctx = req.context
    policy.admin_only(ctx, "create_group")
    row = groups.create(req.db, data, policy.domain_scope(ctx) or DEFAULT_DOMAIN)
    return Response(201, {"group": group_view(req, row)})


def get_group(req):
    row = groups.get(req.db, req.params["group_id"])
    ctx = req.context
    policy.enforce(ctx, "get_group", ctx.is_admin or policy.domain_reader(ctx, row["domain_id"]))
    return Response(200, {"group": group_view(req, row)})


def update_group(req):
    data = admin_schemas.check_body("GROUP_UPDATE", req.json())["group"]
    group_id = req.params["group_id"]
    groups.get(req.db, group_id)
    policy.admin_only(req.context, "update_group")
    return Response(200, {"group": group_view(req, groups.update(req.db, group_id, data))})


def delete_group(req):
    """``DELETE /v3/groups/{id}``: its grants and memberships go with it;
    its members' tokens are revoked if it had a role."""
    policy.admin_only(req.context, "delete_group")
    groups.delete(req.db, req.params["group_id"])
    return Response(204)


def list_group_users(req):
    group_id = req.params["group_id"]
    row = groups.find(req.db, group_id)
    ctx = req.context
    policy.enforce(
        ctx,
        "list_users_in_group",
        ctx.is_admin or (row is not None and policy.domain_reader(ctx, row["domain_id"])),
    )
    ids = groups.member_ids(req.db, group_id)
    query = admin_schemas.check_query("USER_QUERY", req.query)
    rows = users.select(
        req.db,
        name=query.get("name"),
        domain_id=query.get("domain_id"),
        enabled=admin_schemas.optional_boolean(query.get("enabled")),
    )
    views = [user_view(req, r) for r in _in_scope(ctx, rows) if r["id"] in ids]
    return Response(200, collection(req, "users", views))


def _membership(req, action):
    """``(group_id, user_id)`` of a membership URL once ``action`` allows
    it: admin, or (to check) a reader of the group's and the user's
    domain; then the group's, then the user's 404."""
    group_id, user_id = req.params["group_id"], req.params["user_id"]
    group, user = groups.find(req.db, group_id), users.find(req.db, user_id)
    ctx = req.context
    allowed = ctx.is_admin
    if action == "check_user_in_group" and group is not None and user is not None:
        allowed = allowed or (
            policy.domain_reader(ctx, group["domain_id"])
            and policy.domain_reader(ctx, user["domain_id"])
        )
    policy.enforce(ctx, action, allowed)
    if group is None:
        raise groups.not_found(group_id)
    if user is None:
        raise users.not_found(user_id)
    return group_id, user_id


def add_user(req):
    groups.add_user(req.db, *_membership(req, "add_user_to_group"))
    return Response(204)


def check_user(req):
    """``HEAD``/``GET /v3/groups/{id}/users/{user_id}``: 204 if a member,
    else 404."""
    groups.check_user(req.db, *_membership(req, "check_user_in_group"))
    return Response(204)


def remove_user(req):
    """``DELETE /v3/groups/{id}/users/{user_id}``: the user's tokens are
    revoked (keystone computes its roles again at the next login)."""
    policy.admin_only(req.context, "remove_user_from_group")
    groups.remove_user(req.db, req.params["group_id"], req.params["user_id"])
    return Response(204)


def list_user_groups(req):
    """``GET /v3/users/{id}/groups`` (``?name``): admin, a reader of the
    user's domain, or the user itself."""
    user_id = req.params["user_id"]
    row = users.find(req.db, user_id)
    ctx = req.context
    policy.user_target(ctx, "list_groups_for_user", row)
    if row is None:
        raise users.not_found(user_id)
    name = req.arg("name")
    rows = _in_scope(ctx, groups.select(req.db, name=name, user_id=user_id))
    views = [dict(group_view(req, r), membership_expires_at=None) for r in rows]
    return Response(200, collection(req, "groups", views))
