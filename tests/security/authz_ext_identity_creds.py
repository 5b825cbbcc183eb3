"""Authorization of a user's access rules (``/v3/users/{user_id}/access_rules``,
demo's): keystone/common/policies/access_rule.py's owner (or a system
reader / system admin, who are not among the matrix's kinds), any scope,
unscoped included; a restricted application credential may delete one
too (keystone checks ``unrestricted`` only for credentials and trusts).

Each rule is made with an application credential of demo's: the one of
:func:`setup` keeps its rule in use (read here); the deletes get a rule of
their own whose credential is deleted already."""

from urllib.parse import quote

_RULES = "/v3/users/{user_id}/access_rules"

# the matrix's world, for the throwaway rules of ``params``
_WORLD: list = []


def _new_rule(world, ids, keep):
    """The id of a new access rule of demo's (its credential deleted
    unless ``keep``)."""
    from tests.security.test_authz_matrix import _unique

    name = _unique("authz-rule")
    rule = {"service": "image", "path": "/v2/images/" + name, "method": "GET"}
    path = "/v3/users/%s/application_credentials" % ids["user_id"]
    body = {"application_credential": {"name": name, "access_rules": [rule]}}
    response = world.as_("a_member", "POST", path, json_body=body)
    assert response.status == 201, response.body
    cred = response.json()["application_credential"]
    world.secret(cred["id"], cred["secret"])
    if not keep:
        gone = world.as_("a_member", "DELETE", path + "/" + quote(cred["id"]))
        assert gone.status == 204, gone.body
    return cred["access_rules"][0]["id"]


def _unused_rule(ids):
    return {"access_rule_id": _new_rule(_WORLD[0], ids, keep=False)}


def setup(world, ids):
    _WORLD[:] = [world]
    ids["access_rule_id"] = _new_rule(world, ids, keep=True)


def rules():
    from tests.security.test_authz_matrix import rule

    table = {
        ("GET", _RULES): rule("owner_read"),
        ("GET", _RULES + "/{access_rule_id}"): rule("owner_read"),
        ("DELETE", _RULES + "/{access_rule_id}"): rule("owner_read", 204, params=_unused_rule),
    }
    return {("identity", method, path): value for (method, path), value in table.items()}
