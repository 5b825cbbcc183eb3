"""Authorization of a user's access rules (``/v3/users/{user_id}/access_rules``,
demo's) and of trusts (``/v3/OS-TRUST/trusts``).

Access rules: keystone/common/policies/access_rule.py's owner (or a system
reader / system admin, who are not among the matrix's kinds), any scope,
unscoped included; a restricted application credential may delete one
too (keystone checks ``unrestricted`` only for credentials and trusts).
Each rule is made with an application credential of demo's: the one of
:func:`setup` keeps its rule in use (read here); the deletes get a rule of
their own whose credential is deleted already.

Trusts (keystone/common/policies/trust.py, api/trusts.py): demo's trust
on project A for the reader user (its trustee); reading it is for admins,
its trustor and its trustee, deleting for admins and its trustor,
creating for the trustor named in the body (demo); no token obtained
with an application credential, restricted or not, manages trusts.

Project tags (keystone/common/policies/project.py): reading is
``RULE_ADMIN_OR_TARGET_PROJECT`` (a token scoped to the URL's project),
writing admin only. ``{tag}`` (also Neutron's) comes from ``Rule.params``:
a fresh tag the admin put on the URL's project, or a new name to add.

Credentials (``/v3/credentials``, keystone/api/credentials.py): demo's
project-less one; the owner or an admin; every valid token lists (what it
may read); a token delegated through an application credential reaches
only credentials of its project (none of these).

OAuth1 consumers (``/v3/OS-OAUTH1/consumers``): admin only.

Domain configuration (``/v3/domains/{domain_id}/config…`` and the
defaults): admin only; each request gets a new domain of its own, with a
configuration (``ldap.url``) for the reads, updates and deletes."""

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


def _trust_body(ids):
    return {
        "trust": {
            "trustor_user_id": ids["user_id"],
            "trustee_user_id": ids["trustee_user_id"],
            "impersonation": False,
            "project_id": ids["project_id"],
            "roles": [{"name": "member"}],
        }
    }


def _new_trust(world, ids):
    project_ids = dict(ids, project_id=world.projects["A"])
    response = world.as_(
        "a_member", "POST", "/v3/OS-TRUST/trusts", json_body=_trust_body(project_ids)
    )
    assert response.status == 201, response.body
    return response.json()["trust"]["id"]


def _throwaway_trust(ids):
    return {"trust_id": _new_trust(_WORLD[0], ids)}


def _put_tag(ids):
    """A new tag on the URL's project (for a check or a delete)."""
    from tests.security.test_authz_matrix import _unique

    tag = _unique("authz-tag")
    path = "/v3/projects/%s/tags/%s" % (ids["project_id"], tag)
    _WORLD[0].as_("admin", "PUT", path, expect=(201,))
    return {"tag": tag}


def _new_tag(ids):
    from tests.security.test_authz_matrix import _unique

    return {"tag": _unique("authz-tag")}


def _new_credential(world, ids):
    body = {"credential": {"type": "cert", "user_id": ids["user_id"], "blob": "authz-blob"}}
    response = world.as_("a_member", "POST", "/v3/credentials", json_body=body)
    assert response.status == 201, response.body
    return response.json()["credential"]["id"]


def _throwaway_credential(ids):
    return {"credential_id": _new_credential(_WORLD[0], ids)}


def _new_consumer(world):
    response = world.as_("admin", "POST", "/v3/OS-OAUTH1/consumers", json_body={"consumer": {}})
    assert response.status == 201, response.body
    return response.json()["consumer"]["id"]


def _throwaway_consumer(ids):
    return {"consumer_id": _new_consumer(_WORLD[0])}


_DOMAIN_CONFIG = {"ldap": {"url": "ldap://authz"}}


def _configured_domain(configured):
    def params(ids):
        from tests.security.test_authz_matrix import _unique

        world = _WORLD[0]
        body = {"domain": {"name": _unique("authz-cfg")}}
        domain = world.as_("admin", "POST", "/v3/domains", json_body=body).json()["domain"]["id"]
        if configured:
            path = "/v3/domains/%s/config" % domain
            world.as_("admin", "PUT", path, json_body={"config": _DOMAIN_CONFIG})
        return {"domain_id": domain, "group": "ldap", "option": "url"}

    return params


def setup(world, ids):
    from tests.security.authz_credentials import READER

    _WORLD[:] = [world]
    ids["access_rule_id"] = _new_rule(world, ids, keep=True)
    users = world.as_("admin", "GET", "/v3/users", query="name=" + READER).json()["users"]
    ids["trustee_user_id"] = users[0]["id"]
    ids["trust_id"] = _new_trust(world, ids)
    roles = world.as_("admin", "GET", "/v3/roles", query="name=member").json()["roles"]
    ids["trust_role_id"] = roles[0]["id"]
    ids["credential_id"] = _new_credential(world, ids)
    ids["consumer_id"] = _new_consumer(world)


def rules():
    from tests.security.test_authz_matrix import rule

    # the trustor (demo's kinds but its credentials'), the trustee (the
    # reader) and admins
    related = {"a_reader": 200, "domain": 200, "admin": 200, "ac_unrestricted": 403}
    related["ac_restricted"] = 403
    trust = "/v3/OS-TRUST/trusts/{trust_id}"
    tags = "/v3/projects/{project_id}/tags"
    admins = {"domain": 200, "admin": 200}
    owner = dict(admins, ac_unrestricted=403, ac_restricted=403)
    credential = "/v3/credentials/{credential_id}"
    consumer = "/v3/OS-OAUTH1/consumers/{consumer_id}"
    config = "/v3/domains/{domain_id}/config"
    where = _configured_domain(True)
    table = {
        ("PUT", config): rule(
            "admin",
            201,
            params=_configured_domain(False),
            body=lambda ids: {"config": _DOMAIN_CONFIG},
        ),
    }
    for suffix, update in (
        ("", _DOMAIN_CONFIG),
        ("/{group}", _DOMAIN_CONFIG),
        ("/{group}/{option}", {"url": "ldap://authz-2"}),
    ):
        table[("GET", config + suffix)] = rule("admin", params=where)
        table[("PATCH", config + suffix)] = rule(
            "admin", params=where, body=lambda ids, update=update: {"config": update}
        )
        table[("DELETE", config + suffix)] = rule("admin", 204, params=where)
        default = "/v3/domains/config" + suffix + "/default"
        table[("GET", default)] = rule("admin", params=where)
    table |= {
        ("GET", "/v3/OS-OAUTH1/consumers"): rule("admin"),
        ("POST", "/v3/OS-OAUTH1/consumers"): rule(
            "admin", 201, body=lambda ids: {"consumer": {"description": "authz"}}
        ),
        ("GET", consumer): rule("admin"),
        ("PATCH", consumer): rule("admin", body=lambda ids: {"consumer": {"description": "x"}}),
        ("DELETE", consumer): rule("admin", 204, params=_throwaway_consumer),
        ("GET", "/v3/credentials"): rule("domain_read", override={"unscoped": 200}),
        ("POST", "/v3/credentials"): rule(
            "owner_write",
            201,
            body=lambda ids: {
                "credential": {"type": "cert", "user_id": ids["user_id"], "blob": "x"}
            },
            override={"domain": 201, "admin": 201, "ac_unrestricted": 403},
        ),
        ("GET", credential): rule("owner_read", override=owner),
        ("PATCH", credential): rule(
            "owner_write",
            body=lambda ids: {"credential": {"blob": "authz-blob-2"}},
            override=owner,
        ),
        ("DELETE", credential): rule(
            "owner_write",
            204,
            params=_throwaway_credential,
            override={"domain": 204, "admin": 204, "ac_unrestricted": 403},
        ),
        ("GET", tags): rule("scope_read"),
        ("PUT", tags): rule("admin", body=lambda ids: {"tags": ["authz"]}),
        ("DELETE", tags): rule("admin", 204),
        ("GET", tags + "/{tag}"): rule("scope_read", 204, params=_put_tag),
        ("PUT", tags + "/{tag}"): rule("admin", 201, params=_new_tag),
        ("DELETE", tags + "/{tag}"): rule("admin", 204, params=_put_tag),
        ("GET", "/v3/OS-TRUST/trusts"): rule("admin"),
        ("POST", "/v3/OS-TRUST/trusts"): rule(
            "owner_write", 201, body=_trust_body, override={"ac_unrestricted": 403}
        ),
        ("GET", trust): rule("owner_read", override=related),
        ("DELETE", trust): rule(
            "owner_write",
            204,
            params=_throwaway_trust,
            override={"domain": 204, "admin": 204, "ac_unrestricted": 403},
        ),
        ("GET", trust + "/roles"): rule("owner_read", override=related),
        ("GET", trust + "/roles/{role_id}"): rule(
            "owner_read", override=related, params=lambda ids: {"role_id": ids["trust_role_id"]}
        ),
        ("GET", _RULES): rule("owner_read"),
        ("GET", _RULES + "/{access_rule_id}"): rule("owner_read"),
        ("DELETE", _RULES + "/{access_rule_id}"): rule("owner_read", 204, params=_unused_rule),
    }
    return {("identity", method, path): value for (method, path), value in table.items()}
