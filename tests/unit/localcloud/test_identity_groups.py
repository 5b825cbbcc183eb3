"""Keystone's groups in the local cloud: CRUD, membership, group grants on
projects and domains, a member's tokens carrying its groups' roles, and
``/v3/role_assignments`` with ``group.id`` and ``effective`` (groups
expanded to their members).

Shapes are checked against keystone's api-ref samples
(``tests/fixtures/identity/groups``); texts are keystone's (its
``identity/backends/sql.py``, ``common/sql/core.py``, ``exception.py``).
"""

import json
import os

import pytest

from tests.unit.localcloud.test_identity_admin import ADMIN_SCOPE
from tests.unit.localcloud.test_identity_admin import Admin
from tests.unit.localcloud.test_identity_admin import error
from tests.unit.localcloud.test_identity_admin import new_project
from tests.unit.localcloud.test_identity_admin import new_user
from tests.unit.localcloud.test_identity_admin import role_id

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "identity", "groups")
DENIED = "You are not authorized to perform the requested action: identity:%s."


def sample(name):
    with open(os.path.join(FIXTURES, name)) as f:
        return json.load(f)


@pytest.fixture
def admin(client):
    return Admin(client, client.token("admin", scope=ADMIN_SCOPE))


@pytest.fixture
def demo(client):
    return Admin(client, client.token("demo"))


def new_group(admin, name, **attrs):
    result = admin("POST", "/v3/groups", {"group": dict(name=name, **attrs)})
    assert result.status == 201, result.body
    return result.json()["group"]["id"]


def member_path(group, user):
    return "/v3/groups/%s/users/%s" % (group, user)


def group_grant(admin, project, group, role, method="PUT"):
    return admin(method, "/v3/projects/%s/groups/%s/roles/%s" % (project, group, role))


def test_group_crud_matches_the_samples(admin):
    body = sample("group-create-request.json")
    created = admin("POST", "/v3/groups", body)
    assert created.status == 201
    group = created.json()["group"]
    assert set(group) == set(sample("group-create-response.json")["group"])
    assert (group["name"], group["domain_id"], group["description"]) == (
        "Contract developers",
        "default",
        "Contract developers",
    )
    assert group["links"]["self"].endswith("/v3/groups/" + group["id"])
    shown = admin("GET", "/v3/groups/" + group["id"]).json()["group"]
    assert shown == group
    assert set(shown) == set(sample("group-show-response.json")["group"])
    listed = admin("GET", "/v3/groups").json()
    assert set(listed) == set(sample("groups-list-response.json"))
    assert [g["id"] for g in listed["groups"]] == [group["id"]]
    assert admin("GET", "/v3/groups?name=nosuch").json()["groups"] == []
    assert admin("GET", "/v3/groups?domain_id=default").json()["groups"] == [group]
    patched = admin("PATCH", "/v3/groups/" + group["id"], {"group": {"description": "new"}})
    assert (patched.status, patched.json()["group"]["description"]) == (200, "new")
    # extra attributes are kept and shown, as keystone's ``extra``
    extra = admin("PATCH", "/v3/groups/" + group["id"], {"group": {"email": "a@b"}})
    assert extra.json()["group"]["email"] == "a@b"
    assert admin("DELETE", "/v3/groups/" + group["id"]).status == 204
    gone = admin("GET", "/v3/groups/" + group["id"])
    assert (gone.status, error(gone)) == (404, "Could not find group: %s." % group["id"])


def test_group_refusals(admin):
    new_group(admin, "devs")
    duplicate = admin("POST", "/v3/groups", {"group": {"name": "devs"}})
    assert (duplicate.status, error(duplicate)) == (
        409,
        "Conflict occurred attempting to store group - Duplicate entry found"
        " with name devs at domain ID default.",
    )
    other = new_group(admin, "ops")
    rename = admin("PATCH", "/v3/groups/" + other, {"group": {"name": "devs"}})
    assert rename.status == 409
    assert admin("POST", "/v3/groups", {"group": {}}).status == 400
    assert admin("POST", "/v3/groups", {"group": {"name": ""}}).status == 400
    assert admin("PATCH", "/v3/groups/" + other, {"group": {}}).status == 400
    moved = admin("PATCH", "/v3/groups/" + other, {"group": {"domain_id": "x"}})
    assert (moved.status, error(moved)) == (400, "Cannot change Domain ID")
    nowhere = admin("POST", "/v3/groups", {"group": {"name": "x", "domain_id": "nosuch"}})
    assert (nowhere.status, error(nowhere)) == (404, "Could not find domain: nosuch.")
    for method, body in (("PATCH", {"group": {"name": "y"}}), ("DELETE", None), ("GET", None)):
        missing = admin(method, "/v3/groups/nosuch", body)
        assert (missing.status, error(missing)) == (404, "Could not find group: nosuch.")


def test_members_cannot_manage_or_read_groups(admin, demo):
    group = new_group(admin, "devs")
    for method, path, body, action in (
        ("POST", "/v3/groups", {"group": {"name": "mine"}}, "create_group"),
        ("GET", "/v3/groups", None, "list_groups"),
        ("GET", "/v3/groups/" + group, None, "get_group"),
        ("PATCH", "/v3/groups/" + group, {"group": {"name": "z"}}, "update_group"),
        ("DELETE", "/v3/groups/" + group, None, "delete_group"),
        ("GET", "/v3/groups/%s/users" % group, None, "list_users_in_group"),
    ):
        result = demo(method, path, body)
        assert (result.status, error(result)) == (403, DENIED % action), path


def test_membership(client, admin, demo):
    group = new_group(admin, "devs")
    user = new_user(admin, "henry", password="pw")
    demo_user = client.authenticate("demo").json()["token"]["user"]["id"]
    assert admin("HEAD", member_path(group, user)).status == 404
    missing = admin("GET", member_path(group, user))
    assert error(missing) == "User '%s' not found in group '%s'" % (user, group)
    assert admin("PUT", member_path(group, user)).status == 204
    assert admin("PUT", member_path(group, user)).status == 204  # idempotent
    head = admin("HEAD", member_path(group, user))
    assert (head.status, head.body) == (204, b"")
    users = admin("GET", "/v3/groups/%s/users" % group).json()
    assert [u["id"] for u in users["users"]] == [user]
    assert admin("GET", "/v3/groups/%s/users?name=nosuch" % group).json()["users"] == []
    listed = admin("GET", "/v3/users/%s/groups" % user).json()
    assert set(listed) == set(sample("user-groups-list-response.json"))
    (mine,) = listed["groups"]
    assert set(mine) == set(sample("user-groups-list-response.json")["groups"][0])
    assert (mine["id"], mine["membership_expires_at"]) == (group, None)
    # a user lists its own groups; not another's
    assert demo("GET", "/v3/users/%s/groups" % demo_user).json()["groups"] == []
    other = demo("GET", "/v3/users/%s/groups" % user)
    assert (other.status, error(other)) == (403, DENIED % "list_groups_for_user")
    for method, action in (
        ("PUT", "add_user_to_group"),
        ("HEAD", "check_user_in_group"),
        ("DELETE", "remove_user_from_group"),
    ):
        assert demo(method, member_path(group, user)).status == 403, action
    assert error(demo("GET", member_path(group, user))) == DENIED % "check_user_in_group"
    assert admin("DELETE", member_path(group, user)).status == 204
    again = admin("DELETE", member_path(group, user))
    assert (again.status, error(again)) == (
        404,
        "User '%s' not found in group '%s'" % (user, group),
    )
    assert admin("GET", "/v3/users/%s/groups" % user).json()["groups"] == []


def test_membership_lookups(admin):
    group = new_group(admin, "devs")
    user = new_user(admin, "henry")
    for method in ("PUT", "HEAD", "DELETE"):
        result = admin(method, member_path("nosuch", user))
        assert result.status == 404, method
        result = admin(method, member_path(group, "nosuch"))
        assert result.status == 404, method
    assert error(admin("PUT", member_path("nosuch", user))) == "Could not find group: nosuch."
    assert error(admin("PUT", member_path(group, "nosuch"))) == "Could not find user: nosuch."
    assert error(admin("DELETE", member_path(group, "nosuch"))) == "Could not find user: nosuch."
    assert admin("GET", "/v3/groups/nosuch/users").status == 404
    unknown = admin("GET", "/v3/users/nosuch/groups")
    assert (unknown.status, error(unknown)) == (404, "Could not find user: nosuch.")


def test_group_grants(admin, demo):
    group = new_group(admin, "devs")
    project = new_project(admin, "granting")
    member, reader = role_id(admin, "member"), role_id(admin, "reader")
    assert group_grant(admin, project, group, member).status == 204
    assert group_grant(admin, project, group, member, "HEAD").status == 204
    assert group_grant(admin, project, group, member, "GET").status == 204
    missing = group_grant(admin, project, group, reader, "GET")
    assert (missing.status, error(missing)) == (
        404,
        "Could not find role assignment with role: %s, user or group: %s,"
        " project, domain, or system: %s." % (reader, group, project),
    )
    assert group_grant(admin, project, group, member, "DELETE").status == 204
    assert group_grant(admin, project, group, member, "DELETE").status == 404
    domain_path = "/v3/domains/default/groups/%s/roles/%s" % (group, reader)
    assert admin("PUT", domain_path).status == 204
    assert admin("HEAD", domain_path).status == 204
    assert admin("DELETE", domain_path).status == 204
    unknown = group_grant(admin, project, "nosuch", member)
    assert (unknown.status, error(unknown)) == (404, "Could not find group: nosuch.")
    denied = group_grant(demo, project, group, member)
    assert (denied.status, error(denied)) == (403, DENIED % "create_grant")
    assert group_grant(demo, project, group, member, "DELETE").status == 403
    assert group_grant(demo, project, group, member, "HEAD").status == 403


def test_a_group_role_scopes_a_members_tokens(client, admin):
    group = new_group(admin, "devs")
    user = new_user(admin, "henry", password="pw")
    project = new_project(admin, "place")
    scope = {"project": {"id": project}}
    group_grant(admin, project, group, role_id(admin, "member"))
    assert client.authenticate("henry", password="pw", scope=scope).status == 401
    admin("PUT", member_path(group, user))
    issued = client.authenticate("henry", password="pw", scope=scope)
    assert issued.status == 201
    roles = {r["name"] for r in issued.json()["token"]["roles"]}
    assert roles == {"member", "reader"}
    token = issued.header("X-Subject-Token")
    assert client.get("/image/v2/images", token=token).status == 200
    # removed from the group: its tokens are revoked, and no new one
    assert admin("DELETE", member_path(group, user)).status == 204
    assert client.get("/image/v2/images", token=token).status == 401
    assert client.authenticate("henry", password="pw", scope=scope).status == 401


def test_deleting_a_group_takes_its_roles_away(client, admin):
    group = new_group(admin, "devs")
    user = new_user(admin, "henry", password="pw")
    project = new_project(admin, "place")
    scope = {"project": {"id": project}}
    group_grant(admin, project, group, role_id(admin, "member"))
    admin("PUT", member_path(group, user))
    token = client.token("henry", password="pw", scope=scope)
    assert admin("DELETE", "/v3/groups/" + group).status == 204
    assert client.get("/image/v2/images", token=token).status == 401
    assert client.authenticate("henry", password="pw", scope=scope).status == 401
    listed = admin("GET", "/v3/role_assignments?scope.project.id=" + project).json()
    assert listed["role_assignments"] == []


def test_deleting_a_project_or_user_drops_group_rows(admin):
    group = new_group(admin, "devs")
    user = new_user(admin, "henry")
    project = new_project(admin, "place")
    group_grant(admin, project, group, role_id(admin, "member"))
    admin("PUT", member_path(group, user))
    assert admin("DELETE", "/v3/projects/" + project).status == 204
    listed = admin("GET", "/v3/role_assignments?group.id=" + group).json()
    assert listed["role_assignments"] == []
    assert admin("DELETE", "/v3/users/" + user).status == 204
    assert admin("GET", "/v3/groups/%s/users" % group).json()["users"] == []


def test_role_assignments_of_groups(admin):
    group = new_group(admin, "devs")
    user = new_user(admin, "henry")
    project = new_project(admin, "place")
    member = role_id(admin, "member")
    reader = role_id(admin, "reader")
    group_grant(admin, project, group, member)
    admin("PUT", member_path(group, user))
    base = "/v3/role_assignments?scope.project.id=" + project
    (direct,) = admin("GET", base).json()["role_assignments"]
    assert direct["group"] == {"id": group}
    assert "user" not in direct
    assert direct["links"]["assignment"].endswith(
        "/v3/projects/%s/groups/%s/roles/%s" % (project, group, member)
    )
    assert admin("GET", "/v3/role_assignments?group.id=" + group).json()["role_assignments"] == [
        direct
    ]
    assert admin("GET", "/v3/role_assignments?user.id=" + user).json()["role_assignments"] == []
    effective = admin("GET", base + "&effective").json()["role_assignments"]
    assert [(a["user"]["id"], a["role"]["id"]) for a in effective] == [
        (user, member),
        (user, reader),
    ]
    assert effective[0]["links"] == {
        "assignment": direct["links"]["assignment"],
        "membership": direct["links"]["assignment"].split("/v3/")[0]
        + "/v3/groups/%s/users/%s" % (group, user),
    }
    assert "prior_role" in effective[1]["links"]
    assert "group" not in effective[0]
    named = admin("GET", base + "&include_names").json()["role_assignments"]
    assert named[0]["group"] == {
        "id": group,
        "name": "devs",
        "domain": {"id": "default", "name": "Default"},
    }
    refused = admin("GET", "/v3/role_assignments?group.id=%s&effective" % group)
    assert (refused.status, error(refused)) == (
        400,
        "Combining effective and group filter will always result in an empty list.",
    )
    both = admin("GET", "/v3/role_assignments?group.id=%s&user.id=%s" % (group, user))
    assert (both.status, error(both)) == (400, "Specify a user or group, not both")


def test_a_users_projects_include_its_groups(admin):
    group = new_group(admin, "devs")
    user = new_user(admin, "henry")
    project = new_project(admin, "place")
    group_grant(admin, project, group, role_id(admin, "reader"))
    path = "/v3/users/%s/projects" % user
    assert admin("GET", path).json()["projects"] == []
    admin("PUT", member_path(group, user))
    assert [p["id"] for p in admin("GET", path).json()["projects"]] == [project]
