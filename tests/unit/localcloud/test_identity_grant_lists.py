"""The lists of a user's or a group's roles on a project or domain
(``GET /v3/{projects,domains}/{id}/{users,groups}/{id}/roles``, keystone's
``list_grants``): the direct grants only, admin only, keystone's 404s."""

import pytest

from tests.unit.localcloud.test_identity_admin import ADMIN_SCOPE
from tests.unit.localcloud.test_identity_admin import Admin
from tests.unit.localcloud.test_identity_admin import error
from tests.unit.localcloud.test_identity_admin import new_project
from tests.unit.localcloud.test_identity_admin import new_user
from tests.unit.localcloud.test_identity_admin import role_id


@pytest.fixture
def admin(client):
    return Admin(client, client.token("admin", scope=ADMIN_SCOPE))


def _names(result):
    assert result.status == 200, result.body
    return [r["name"] for r in result.json()["roles"]]


def test_a_users_direct_roles_on_a_project_and_a_domain(admin):
    project = new_project(admin, "grant-lists")
    user = new_user(admin, "grant-lister")
    for name in ("reader", "member"):
        put = "/v3/projects/%s/users/%s/roles/%s" % (project, user, role_id(admin, name))
        assert admin("PUT", put).status == 204
    domain_grant = "/v3/domains/default/users/%s/roles/%s" % (user, role_id(admin, "reader"))
    assert admin("PUT", domain_grant).status == 204
    listed = admin("GET", "/v3/projects/%s/users/%s/roles" % (project, user))
    # direct grants only: member's implied reader is not added twice
    assert sorted(_names(listed)) == ["member", "reader"]
    assert set(listed.json()["roles"][0]) == {
        "id",
        "name",
        "domain_id",
        "description",
        "options",
        "links",
    }
    assert _names(admin("GET", "/v3/domains/default/users/%s/roles" % user)) == ["reader"]
    other = new_project(admin, "grant-lists-2")
    assert _names(admin("GET", "/v3/projects/%s/users/%s/roles" % (other, user))) == []


def test_a_groups_roles_and_the_refusals(client, admin):
    project = new_project(admin, "grant-lists-g")
    made = admin("POST", "/v3/groups", {"group": {"name": "listed-group"}})
    group = made.json()["group"]["id"]
    put = "/v3/projects/%s/groups/%s/roles/%s" % (project, group, role_id(admin, "member"))
    assert admin("PUT", put).status == 204
    path = "/v3/projects/%s/groups/%s/roles" % (project, group)
    assert _names(admin("GET", path)) == ["member"]
    demo = Admin(client, client.token("demo"))
    refused = demo("GET", path)
    assert refused.status == 403
    assert error(refused) == (
        "You are not authorized to perform the requested action: identity:list_grants."
    )
    unknown = admin("GET", "/v3/projects/%s/groups/%s/roles" % (project, "f" * 32))
    assert unknown.status == 404
    assert error(unknown) == "Could not find group: %s." % ("f" * 32)
    no_project = admin("GET", "/v3/projects/%s/groups/%s/roles" % ("f" * 32, group))
    assert no_project.status == 404
    assert error(no_project) == "Could not find project: %s." % ("f" * 32)
