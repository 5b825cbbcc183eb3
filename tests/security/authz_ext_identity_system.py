"""Authorization of Keystone's system grants
(``/v3/system/{users,groups}/{id}/roles[/{role_id}]``), implied roles
(``/v3/roles/{prior_role_id}/implies[/{implied_role_id}]``,
``/v3/role_inferences``) and the scopes a token may ask for
(``/v3/auth/{projects,domains,system}``): keystone's defaults
(``keystone/common/policies/grant.py``, ``implied_role.py``, ``auth.py``).
No kind of the matrix is system-scoped, so "admin or system reader" is
``admin`` here (the system reader is tested in
``tests/unit/localcloud/test_identity_system_scope.py``); the
``get_auth_*`` policies are empty: every valid token, unscoped included.

The writes and the checks run on throwaway users, groups and roles made
by ``Rule.params`` (a check or revoke: one that has the grant or rule)."""

_USER_GRANT = "/v3/system/users/{user_id}/roles"
_GROUP_GRANT = "/v3/system/groups/{group_id}/roles"
_IMPLIES = "/v3/roles/{prior_role_id}/implies"

# the matrix's world, for the throwaway rows of ``params``
_WORLD: list = []


def _created(path, key, body):
    response = _WORLD[0].as_("admin", "POST", path, json_body=body)
    assert response.status == 201, response.body
    return response.json()[key]["id"]


def _new(kind):
    from tests.security.test_authz_matrix import _unique

    name = _unique("authz-sys-" + kind)
    return _created("/v3/%ss" % kind, kind, {kind: {"name": name}})


def _actor(kind, granted):
    """A throwaway user or group (``granted``: with ``{role_id}`` on the
    system)."""

    def params(ids):
        actor = _new(kind)
        if granted:
            path = "/v3/system/%ss/%s/roles/%s" % (kind, actor, ids["role_id"])
            response = _WORLD[0].as_("admin", "PUT", path)
            assert response.status == 204, response.body
        return {kind + "_id": actor}

    return params


def _rule(existing):
    """Two throwaway roles (``existing``: the first implying the second)."""

    def params(ids):
        prior, implied = _new("role"), _new("role")
        if existing:
            path = "/v3/roles/%s/implies/%s" % (prior, implied)
            response = _WORLD[0].as_("admin", "PUT", path)
            assert response.status == 201, response.body
        return {"prior_role_id": prior, "implied_role_id": implied}

    return params


def _member_implies_reader(ids):
    roles = _WORLD[0].as_("admin", "GET", "/v3/roles").json()["roles"]
    reader = next(r["id"] for r in roles if r["name"] == "reader")
    return {"prior_role_id": ids["role_id"], "implied_role_id": reader}


def setup(world, ids):
    _WORLD[:] = [world]


def rules():
    from tests.security.test_authz_matrix import rule

    # every valid token: domain_read's kinds and the unscoped one
    scopes = rule("domain_read", override={"unscoped": 200})
    table = {
        ("GET", "/v3/auth/projects"): scopes,
        ("GET", "/v3/auth/domains"): scopes,
        ("GET", "/v3/auth/system"): scopes,
        ("GET", "/v3/role_inferences"): rule("admin"),
        ("GET", _IMPLIES): rule("admin", params=_member_implies_reader),
        ("PUT", _IMPLIES + "/{implied_role_id}"): rule("admin", 201, params=_rule(False)),
        ("GET", _IMPLIES + "/{implied_role_id}"): rule("admin", params=_member_implies_reader),
        ("DELETE", _IMPLIES + "/{implied_role_id}"): rule("admin", 204, params=_rule(True)),
    }
    for kind, path in (("user", _USER_GRANT), ("group", _GROUP_GRANT)):
        table[("GET", path)] = rule("admin", params=_actor(kind, True))
        table[("PUT", path + "/{role_id}")] = rule("admin", 204, params=_actor(kind, False))
        table[("GET", path + "/{role_id}")] = rule("admin", 204, params=_actor(kind, True))
        table[("DELETE", path + "/{role_id}")] = rule("admin", 204, params=_actor(kind, True))
    return {("identity", method, path): value for (method, path), value in table.items()}
