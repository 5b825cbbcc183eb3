"""Domain-specific configuration in the local Keystone
(``/v3/domains/{id}/config[/{group}[/{option}]]`` and the defaults): the
``identity`` and ``ldap`` groups as data, admins only, keystone's texts;
``ldap.password`` is kept but never shown."""

import pytest

from tests.unit.localcloud.test_identity_admin import ADMIN_SCOPE
from tests.unit.localcloud.test_identity_admin import Admin
from tests.unit.localcloud.test_identity_admin import error

CONFIG = {"identity": {"driver": "ldap"}, "ldap": {"url": "ldap://a", "user_tree_dn": "ou=u"}}
DENIED = "You are not authorized to perform the requested action: identity:%s."


@pytest.fixture
def admin(client):
    return Admin(client, client.token("admin", scope=ADMIN_SCOPE))


@pytest.fixture
def domain(admin):
    result = admin("POST", "/v3/domains", {"domain": {"name": "cfg"}})
    assert result.status == 201, result.body
    return result.json()["domain"]["id"]


def test_create_show_update_delete(admin, domain):
    path = "/v3/domains/%s/config" % domain
    empty = admin("GET", path)
    assert empty.status == 404
    assert error(empty) == (
        "Could not find any options in domain configuration for domain %s." % domain
    )
    created = admin("PUT", path, {"config": CONFIG})
    assert created.status == 201 and created.json()["config"] == CONFIG
    assert admin("PUT", path, {"config": CONFIG}).status == 200
    assert admin("GET", path + "/ldap").json() == {"config": {"ldap": CONFIG["ldap"]}}
    assert admin("GET", path + "/ldap/url").json() == {"config": {"url": "ldap://a"}}
    absent = admin("GET", path + "/ldap/user_filter")
    assert absent.status == 404
    assert error(absent) == (
        "Could not find option user_filter in group ldap in domain configuration for"
        " domain %s." % domain
    )
    group = admin("PATCH", path + "/ldap", {"config": {"ldap": {"url": "ldap://b"}}})
    assert group.status == 200 and group.json()["config"]["ldap"]["url"] == "ldap://b"
    option = admin("PATCH", path + "/ldap/url", {"config": {"url": "ldap://c"}})
    assert option.json()["config"]["ldap"] == {"url": "ldap://c", "user_tree_dn": "ou=u"}
    assert admin("DELETE", path + "/ldap/url").status == 204
    assert admin("DELETE", path + "/ldap/url").status == 404
    assert admin("DELETE", path + "/ldap").status == 204
    assert admin("DELETE", path).status == 204
    assert admin("GET", path).status == 404


def test_the_password_is_kept_but_never_shown(admin, domain):
    path = "/v3/domains/%s/config" % domain
    config = {"ldap": {"url": "ldap://a", "password": "p4ss"}}
    assert admin("PUT", path, {"config": config}).json() == {
        "config": {"ldap": {"url": "ldap://a"}}
    }
    assert "p4ss" not in admin("GET", path).body.decode()
    refused = admin("GET", "/v3/domains/config/ldap/password/default")
    assert refused.status == 403


@pytest.mark.parametrize(
    "config, reason",
    [
        ({"nope": {"x": "y"}}, "Group nope is not supported for domain specific configurations"),
        (
            {"ldap": {"nope": "y"}},
            "Option nope in group ldap is not supported for domain specific configurations",
        ),
        ({}, "No options specified"),
        (
            {"ldap": "x"},
            "The value of group ldap specified in the config should be a dictionary of options",
        ),
    ],
)
def test_invalid_configs(admin, domain, config, reason):
    result = admin("PUT", "/v3/domains/%s/config" % domain, {"config": config})
    assert result.status == 403
    assert error(result) == "Invalid domain specific configuration: %s." % reason


def test_update_refusals(admin, domain):
    path = "/v3/domains/%s/config" % domain
    admin("PUT", path, {"config": {"ldap": {"url": "ldap://a"}}})
    wrong = admin("PATCH", path + "/ldap", {"config": {"identity": {"driver": "sql"}}})
    assert wrong.status == 403
    assert error(wrong) == (
        "Invalid domain specific configuration: request to update group ldap, but config"
        " provided contains group identity instead."
    )
    missing = admin("PATCH", path + "/identity", {"config": {"identity": {"driver": "sql"}}})
    assert missing.status == 404
    assert error(missing) == (
        "Could not find group identity in domain configuration for domain %s." % domain
    )


def test_defaults_and_policy(client, admin, domain):
    defaults = admin("GET", "/v3/domains/config/default").json()["config"]
    assert defaults["identity"] == {"driver": "sql", "list_limit": None}
    assert defaults["ldap"]["url"] == "ldap://localhost" and "password" not in defaults["ldap"]
    assert admin("GET", "/v3/domains/config/ldap/url/default").json() == {
        "config": {"url": "ldap://localhost"}
    }
    assert list(admin("GET", "/v3/domains/config/ldap/default").json()["config"]) == ["ldap"]
    demo = client.token("demo")
    for method, path, action in (
        ("GET", "/v3/domains/config/default", "get_domain_config_default"),
        ("PUT", "/v3/domains/%s/config" % domain, "create_domain_config"),
        ("GET", "/v3/domains/%s/config" % domain, "get_domain_config"),
        ("PATCH", "/v3/domains/%s/config" % domain, "update_domain_config"),
        ("DELETE", "/v3/domains/%s/config" % domain, "delete_domain_config"),
    ):
        result = client.request(method, path, token=demo, json={"config": CONFIG})
        assert result.status == 403 and error(result) == DENIED % action
    unknown = admin("PUT", "/v3/domains/%s/config" % ("0" * 32), {"config": CONFIG})
    assert unknown.status == 404
