"""Authorization of Keystone's group routes (``/v3/groups…``,
``/v3/users/{id}/groups``, group grants on projects and domains): keystone
27+'s defaults without system scope or the domain manager (every write,
every list and show is ``admin_required``; a user lists its own groups).

``{group_id}`` is also the server groups' parameter, so these routes name
their group through ``Rule.params``: the group made in :func:`setup`
(demo a member), or a throwaway one for the writes that consume it (a
deleted group, a removed membership of a throwaway user, a revoked grant
on the URL's project or domain)."""

_GROUP = "/v3/groups/{group_id}"
_MEMBER = _GROUP + "/users/{user_id}"
_GRANT = "/groups/{group_id}/roles/{role_id}"

# the matrix's world, for the throwaway groups of ``params``
_WORLD: list = []


def _created(world, path, key, body):
    response = world.as_("admin", "POST", path, json_body=body)
    assert response.status == 201, response.body
    return response.json()[key]["id"]


def _new_group(world):
    from tests.security.test_authz_matrix import _unique

    return _created(world, "/v3/groups", "group", {"group": {"name": _unique("authz-group")}})


def _base_group(ids):
    return {"group_id": ids["identity_group"]}


def _throwaway_group(ids):
    return {"group_id": _new_group(_WORLD[0])}


def _throwaway_member(ids):
    """A throwaway group with a throwaway user in it."""
    from tests.security.test_authz_matrix import _unique

    world = _WORLD[0]
    group = _new_group(world)
    user = _created(world, "/v3/users", "user", {"user": {"name": _unique("authz-gu")}})
    world.as_("admin", "PUT", "/v3/groups/%s/users/%s" % (group, user))
    return {"group_id": group, "user_id": user}


def _granted(target):
    """A throwaway group with the role ``{role_id}`` on the URL's target."""

    def params(ids):
        world = _WORLD[0]
        group = _new_group(world)
        target_id = ids["project_id"] if target == "project" else ids["domain_id"]
        response = world.as_(
            "admin",
            "PUT",
            "/v3/%ss/%s/groups/%s/roles/%s" % (target, target_id, group, ids["role_id"]),
        )
        assert response.status == 204, response.body
        return {"group_id": group}

    return params


def setup(world, ids):
    _WORLD[:] = [world]
    ids["identity_group"] = _new_group(world)
    world.as_("admin", "PUT", "/v3/groups/%s/users/%s" % (ids["identity_group"], ids["user_id"]))


def rules():
    from tests.security.test_authz_matrix import _unique
    from tests.security.test_authz_matrix import rule

    table = {
        ("GET", "/v3/groups"): rule("admin"),
        ("POST", "/v3/groups"): rule(
            "admin", 201, body=lambda ids: {"group": {"name": _unique("authz-group")}}
        ),
        ("GET", _GROUP): rule("admin", params=_base_group),
        ("PATCH", _GROUP): rule(
            "admin", params=_base_group, body=lambda ids: {"group": {"description": "authz"}}
        ),
        ("DELETE", _GROUP): rule("admin", 204, params=_throwaway_group),
        ("GET", _GROUP + "/users"): rule("admin", params=_base_group),
        ("PUT", _MEMBER): rule("admin", 204, params=_base_group),
        ("GET", _MEMBER): rule("admin", 204, params=_base_group),
        ("DELETE", _MEMBER): rule("admin", 204, params=_throwaway_member),
        ("GET", "/v3/users/{user_id}/groups"): rule("self_read"),
    }
    for target, prefix in (
        ("project", "/v3/projects/{project_id}"),
        ("domain", "/v3/domains/{domain_id}"),
    ):
        table[("PUT", prefix + _GRANT)] = rule("admin", 204, params=_throwaway_group)
        table[("GET", prefix + _GRANT)] = rule("admin", 204, params=_granted(target))
        table[("DELETE", prefix + _GRANT)] = rule("admin", 204, params=_granted(target))
    return {("identity", method, path): value for (method, path), value in table.items()}
