"""Keystone's system scope in the local cloud: the roles bootstrap makes,
the admin user's system role, system grants
(``/v3/system/{users,groups}/{id}/roles``), system-scoped tokens
(``{"system": {"all": true}}``), ``/v3/auth/{projects,domains,system}``
and keystone's secure-RBAC defaults for a system reader and a system
admin (``keystone/common/policies/base.py``: SYSTEM_READER, SYSTEM_ADMIN).
Texts are keystone's (``exception.py``, ``api/system.py``)."""

import json
import os

import pytest

from tests.unit.localcloud.test_identity_admin import ADMIN_SCOPE
from tests.unit.localcloud.test_identity_admin import Admin
from tests.unit.localcloud.test_identity_admin import error
from tests.unit.localcloud.test_identity_admin import new_project
from tests.unit.localcloud.test_identity_admin import new_user
from tests.unit.localcloud.test_identity_admin import role_id

SYSTEM = {"system": {"all": True}}
SAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "identity", "system")
DENIED = "You are not authorized to perform the requested action: identity:%s."
PASSWORD = "s3cret-pass"


def sample(name):
    """A keystone api-ref sample (``tests/fixtures/identity/system``)."""
    with open(os.path.join(SAMPLES, name)) as f:
        return json.load(f)


@pytest.fixture
def admin(client):
    return Admin(client, client.token("admin", scope=ADMIN_SCOPE))


def system_user(client, admin, name, role):
    """A new user with ``role`` on the system, and its system token."""
    user = new_user(admin, name, password=PASSWORD)
    granted = admin("PUT", "/v3/system/users/%s/roles/%s" % (user, role_id(admin, role)))
    assert granted.status == 204, granted.body
    return user, Admin(client, client.token(name, password=PASSWORD, scope=SYSTEM))


def test_bootstrap_roles_and_the_admin_system_grant(client, admin):
    roles = admin("GET", "/v3/roles").json()["roles"]
    assert sorted(r["name"] for r in roles) == ["admin", "manager", "member", "reader", "service"]
    assert all(r["options"] == {"immutable": True} for r in roles)
    (user,) = admin("GET", "/v3/users?name=admin").json()["users"]
    listed = admin("GET", "/v3/system/users/%s/roles" % user["id"]).json()
    assert [r["name"] for r in listed["roles"]] == ["admin"]
    assert listed["links"]["self"].endswith("/v3/system/users/%s/roles" % user["id"])
    token = client.authenticate("admin", scope=SYSTEM)
    assert token.status == 201, token.body
    body = token.json()["token"]
    assert body["system"] == {"all": True}
    assert "project" not in body and "domain" not in body
    # admin ⇒ manager ⇒ member ⇒ reader
    assert [r["name"] for r in body["roles"]] == ["admin", "manager", "member", "reader"]
    assert body["catalog"]


def test_a_user_without_a_system_role_cannot_scope_to_the_system(client):
    result = client.authenticate("demo", scope=SYSTEM)
    assert result.status == 401
    (demo,) = Admin(client, client.token("admin", scope=ADMIN_SCOPE))(
        "GET", "/v3/users?name=demo"
    ).json()["users"]
    assert error(result) == "User %s has no access to the system" % demo["id"]


def test_only_the_whole_system_is_a_scope(client):
    result = client.authenticate("admin", scope={"system": {"all": False}})
    assert result.status == 401
    assert error(result).endswith(" has no access to the system")


def test_a_token_exchanged_for_the_system_scope(client):
    unscoped = client.token("admin", scope="unscoped")
    auth = {
        "identity": {"methods": ["token"], "token": {"id": unscoped}},
        "scope": SYSTEM,
    }
    result = client.post("/v3/auth/tokens", json={"auth": auth})
    assert result.status == 201, result.body
    assert result.json()["token"]["system"] == {"all": True}
    shown = client.request(
        "GET",
        "/v3/auth/tokens",
        headers={"X-Subject-Token": result.header("X-Subject-Token")},
        token=result.header("X-Subject-Token"),
    )
    assert shown.status == 200 and shown.json()["token"]["system"] == {"all": True}


def test_system_reader_reads_groups_and_grants(client, admin):
    _, reader = system_user(client, admin, "group-auditor", "reader")
    group = admin("POST", "/v3/groups", {"group": {"name": "seen"}}).json()["group"]["id"]
    assert reader("GET", "/v3/groups").status == 200
    assert reader("GET", "/v3/groups/" + group).status == 200
    (demo,) = admin("GET", "/v3/users?name=demo").json()["users"]
    (project,) = admin("GET", "/v3/projects?name=demo").json()["projects"]
    grant = "/v3/projects/%s/users/%s/roles/%s" % (
        project["id"],
        demo["id"],
        role_id(admin, "member"),
    )
    assert reader("HEAD", grant).status == 204
    refused = reader("PUT", grant)
    assert (refused.status, error(refused)) == (403, DENIED % "create_grant")
    refused = reader("DELETE", "/v3/groups/" + group)
    assert (refused.status, error(refused)) == (403, DENIED % "delete_group")


def test_system_reader_reads_but_does_not_write(client, admin):
    _, reader = system_user(client, admin, "auditor", "reader")
    users = reader("GET", "/v3/users")
    assert users.status == 200
    assert {"admin", "demo", "alt", "auditor"} <= {u["name"] for u in users.json()["users"]}
    projects = reader("GET", "/v3/projects").json()["projects"]
    assert {"admin", "demo", "alt"} <= {p["name"] for p in projects}
    assert [d["id"] for d in reader("GET", "/v3/domains").json()["domains"]] == ["default"]
    assert reader("GET", "/v3/roles").status == 200
    assignments = reader("GET", "/v3/role_assignments").json()["role_assignments"]
    assert any("project" in a["scope"] for a in assignments)
    demo = next(p["id"] for p in projects if p["name"] == "demo")
    assert reader("GET", "/v3/projects/" + demo).status == 200
    for method, path, body, action in (
        ("POST", "/v3/users", {"user": {"name": "x"}}, "create_user"),
        ("POST", "/v3/projects", {"project": {"name": "x"}}, "create_project"),
        ("DELETE", "/v3/projects/" + demo, None, "delete_project"),
        ("POST", "/v3/roles", {"role": {"name": "x"}}, "create_role"),
    ):
        refused = reader(method, path, body)
        assert (refused.status, error(refused)) == (403, DENIED % action), path


def test_system_admin_writes(client, admin):
    _, sysadmin = system_user(client, admin, "operator", "admin")
    made = sysadmin("POST", "/v3/projects", {"project": {"name": "by-system"}})
    assert made.status == 201, made.body
    assert sysadmin("DELETE", "/v3/projects/" + made.json()["project"]["id"]).status == 204


def test_a_project_member_cannot_read_what_a_system_reader_reads(client):
    demo = Admin(client, client.token("demo"))
    refused = demo("GET", "/v3/users")
    assert (refused.status, error(refused)) == (403, DENIED % "list_users")


def test_system_grants_grant_check_revoke(client, admin):
    user, reader = system_user(client, admin, "ops", "reader")
    role = role_id(admin, "reader")
    path = "/v3/system/users/%s/roles/%s" % (user, role)
    assert admin("GET", path).status == 204
    assert admin("HEAD", path).status == 204
    assert reader("GET", path).status == 204
    # a system reader cannot grant, nor revoke
    member = role_id(admin, "member")
    other = "/v3/system/users/%s/roles/%s" % (user, member)
    refused = reader("PUT", other)
    assert (refused.status, error(refused)) == (403, DENIED % "create_system_grant_for_user")
    refused = reader("DELETE", path)
    assert (refused.status, error(refused)) == (403, DENIED % "revoke_system_grant_for_user")
    missing = admin("GET", other)
    assert (missing.status, error(missing)) == (
        404,
        "Could not find role assignment with role: %s, user or group: %s,"
        " project, domain, or system: system." % (member, user),
    )
    assert admin("DELETE", path).status == 204
    assert admin("DELETE", path).status == 404
    # the token loses its only system role: it is no longer valid
    assert reader("GET", "/v3/users").status == 401
    refused = client.authenticate("ops", password=PASSWORD, scope=SYSTEM)
    assert refused.status == 401


def test_system_grant_lookups_are_404_first(client, admin):
    role = role_id(admin, "reader")
    unknown_role = admin("PUT", "/v3/system/users/%s/roles/nosuch" % "nouser")
    assert (unknown_role.status, error(unknown_role)) == (404, "Could not find role: nosuch.")
    unknown_user = admin("PUT", "/v3/system/users/nouser/roles/" + role)
    assert (unknown_user.status, error(unknown_user)) == (404, "Could not find user: nouser.")
    unknown_group = admin("GET", "/v3/system/groups/nogroup/roles")
    assert (unknown_group.status, error(unknown_group)) == (404, "Could not find group: nogroup.")
    # a project member is refused the listing (keystone's admin or system reader)
    demo = Admin(client, client.token("demo"))
    (admin_user,) = admin("GET", "/v3/users?name=admin").json()["users"]
    refused = demo("GET", "/v3/system/users/%s/roles" % admin_user["id"])
    assert (refused.status, error(refused)) == (403, DENIED % "list_system_grants_for_user")


def test_a_group_system_grant_gives_its_members_a_system_token(client, admin):
    user = new_user(admin, "grouped", password=PASSWORD)
    group = admin("POST", "/v3/groups", {"group": {"name": "operators"}}).json()["group"]["id"]
    assert admin("PUT", "/v3/groups/%s/users/%s" % (group, user)).status == 204
    path = "/v3/system/groups/%s/roles/%s" % (group, role_id(admin, "member"))
    assert admin("PUT", path).status == 204
    assert admin("GET", path).status == 204
    listed = admin("GET", "/v3/system/groups/%s/roles" % group).json()["roles"]
    assert [r["name"] for r in listed] == ["member"]
    token = client.authenticate("grouped", password=PASSWORD, scope=SYSTEM)
    assert token.status == 201, token.body
    assert [r["name"] for r in token.json()["token"]["roles"]] == ["member", "reader"]
    assert admin("DELETE", path).status == 204
    assert client.authenticate("grouped", password=PASSWORD, scope=SYSTEM).status == 401


def test_role_assignments_list_system_grants(client, admin):
    user, _ = system_user(client, admin, "listed", "reader")
    found = admin("GET", "/v3/role_assignments?scope.system=all").json()["role_assignments"]
    mine = [a for a in found if a["user"]["id"] == user]
    assert len(mine) == 1
    assert mine[0]["scope"] == {"system": {"all": True}}
    assert mine[0]["role"]["id"] == role_id(admin, "reader")
    assert mine[0]["links"]["assignment"].endswith(
        "/v3/system/users/%s/roles/%s" % (user, role_id(admin, "reader"))
    )
    assert all("system" in a["scope"] for a in found)
    by_user = admin("GET", "/v3/role_assignments?user.id=" + user).json()["role_assignments"]
    assert [a["scope"] for a in by_user] == [{"system": {"all": True}}]
    named = admin("GET", "/v3/role_assignments?scope.system=all&include_names").json()
    assert {"system": {"all": True}} in [a["scope"] for a in named["role_assignments"]]
    # effective: the implied roles too
    effective = admin("GET", "/v3/role_assignments?effective&user.id=" + user).json()
    assert [a["role"]["id"] for a in effective["role_assignments"]] == [role_id(admin, "reader")]


def test_auth_projects_domains_system(client, admin):
    demo = Admin(client, client.token("demo"))
    projects = demo("GET", "/v3/auth/projects").json()
    assert [p["name"] for p in projects["projects"]] == ["demo"]
    assert projects["links"]["self"].endswith("/v3/auth/projects")
    assert demo("GET", "/v3/auth/domains").json()["domains"] == []
    assert demo("GET", "/v3/auth/system").json()["system"] == []
    assert {p["name"] for p in admin("GET", "/v3/auth/projects").json()["projects"]} == {
        "admin",
        "demo",
    }
    assert [d["id"] for d in admin("GET", "/v3/auth/domains").json()["domains"]] == ["default"]
    system = admin("GET", "/v3/auth/system").json()
    assert system["system"] == [{"all": True}]
    assert system["links"]["self"].endswith("/v3/auth/system")
    # a project granted to a group of the user is a possible scope too
    project = new_project(admin, "via-group")
    user = new_user(admin, "member-of", password=PASSWORD)
    group = admin("POST", "/v3/groups", {"group": {"name": "g"}}).json()["group"]["id"]
    admin("PUT", "/v3/groups/%s/users/%s" % (group, user))
    admin("PUT", "/v3/projects/%s/groups/%s/roles/%s" % (project, group, role_id(admin, "member")))
    mine = Admin(client, client.token("member-of", password=PASSWORD, scope="unscoped"))
    assert [p["id"] for p in mine("GET", "/v3/auth/projects").json()["projects"]] == [project]


def test_a_system_token_has_no_project_catalog_and_is_refused_by_project_services(client):
    token = client.token("admin", scope=SYSTEM)
    refused = client.get("/v3/auth/catalog", token=token)
    assert (refused.status, error(refused)) == (
        403,
        "You are not authorized to perform the requested action.",
    )
    # Glance's policies are project-scoped only (scope_types=['project'])
    images = client.get("/image/v2/images", token=token)
    assert images.status == 403


# -- the other services: their policies are project-scoped only ---------------
#
# Nova (2023.1+: every policy scope_types=['project']), Neutron, Cinder and
# Glance dropped system scope from their defaults; with the scope enforced
# a system-scoped token is refused (403) by every project resource, the
# admin's hypervisors and services included.


@pytest.fixture
def full(tmp_path):
    from occli.localcloud.cloud import Config
    from occli.localcloud.cloud import LocalCloud
    from occli.localcloud.compute.api.service import ComputeService
    from occli.localcloud.identity.api.service import IdentityService
    from occli.localcloud.image.api.service import ImageService
    from occli.localcloud.network.api.service import NetworkService
    from occli.localcloud.volume.api.service import VolumeService
    from tests.unit.localcloud.wsgi_client import Client

    services = [IdentityService, NetworkService, ComputeService, ImageService, VolumeService]
    cloud = LocalCloud(Config(data_dir=str(tmp_path / "data"), build_time=0), services=services)
    yield Client(cloud)
    cloud.close()


@pytest.mark.parametrize(
    "method, path",
    [
        ("GET", "/compute/v2.1/os-hypervisors"),
        ("GET", "/compute/v2.1/os-services"),
        ("GET", "/compute/v2.1/servers"),
        ("POST", "/compute/v2.1/servers"),
        ("GET", "/network/v2.0/networks"),
        ("POST", "/network/v2.0/networks"),
        ("GET", "/volume/v3/volumes"),
        ("GET", "/image/v2/images"),
    ],
)
def test_project_services_refuse_a_system_token(full, method, path):
    system = full.token("admin", scope=SYSTEM)
    project = full.token("admin", scope=ADMIN_SCOPE)
    # the same admin, project-scoped, is served
    if method == "GET":
        assert full.request(method, path, token=project).status == 200, path
    refused = full.request(method, path, json={} if method == "POST" else None, token=system)
    assert refused.status == 403, (path, refused.body)
    assert b"A project-scoped token is required." in refused.body


def test_bodies_match_keystones_samples(client, admin):
    (user,) = admin("GET", "/v3/users?name=admin").json()["users"]
    roles = admin("GET", "/v3/system/users/%s/roles" % user["id"]).json()
    expected = sample("list-system-roles-for-user-response.json")
    assert set(roles) == set(expected)
    assert set(expected["roles"][0]) <= set(roles["roles"][0])
    system = admin("GET", "/v3/auth/system").json()
    assert system.keys() == sample("get-available-system-scopes-response.json").keys()
