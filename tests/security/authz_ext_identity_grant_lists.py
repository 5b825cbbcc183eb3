"""Authorization of the lists of a user's or a group's roles on a project
or domain (``GET /v3/{projects,domains}/{id}/{users,groups}/{id}/roles``):
keystone's ``list_grants``, admin only without system or domain scope (its
``check_grant`` rule). The group routes name the matrix's group (made by
``authz_ext_identity_groups``'s setup)."""


def _base_group(ids):
    return {"group_id": ids["identity_group"]}


def rules():
    from tests.security.test_authz_matrix import rule

    table = {}
    for prefix in ("/v3/projects/{project_id}", "/v3/domains/{domain_id}"):
        table[("GET", prefix + "/users/{user_id}/roles")] = rule("admin")
        table[("GET", prefix + "/groups/{group_id}/roles")] = rule("admin", params=_base_group)
    return {("identity", method, path): value for (method, path), value in table.items()}
