"""Keystone v3's admin API in the local cloud: domains, projects, users,
roles, grants, /v3/role_assignments, the password change, the alt seed.

Shapes are checked against keystone's api-ref samples
(``tests/fixtures/identity/admin``) and texts, statuses and policies against
what keystone 30 answered (``tests/fixtures/identity/realcloud``).
"""

import json
import os
import re

import pytest

from occli.localcloud.identity import migrations
from occli.localcloud.identity import passwords
from occli.localcloud.store import Store
from tests.unit.localcloud.wsgi_client import BASE
from tests.unit.localcloud.wsgi_client import Client
from tests.unit.localcloud.wsgi_client import make_cloud

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "identity")
ADMIN_SCOPE = {"project": {"name": "admin", "domain": {"id": "default"}}}


def sample(name):
    with open(os.path.join(FIXTURES, "admin", name)) as f:
        return json.load(f)


def _recorded():
    with open(os.path.join(FIXTURES, "realcloud", "keystone-30-admin-api.json")) as f:
        return json.load(f)["exchanges"]


RECORDED = _recorded()


def real(method, path, caller="admin@admin", status=None, body=None):
    """The first exchange keystone 30 answered for ``method`` on a path
    matching the regex ``path`` (``{id}``: any id), by ``caller``."""
    pattern = re.compile("^" + path.replace("{id}", "[^/?&]+") + "$")
    for item in RECORDED:
        request = item["request"]
        if (
            request["method"] == method
            and pattern.match(request["path"])
            and item["caller"] == caller
            and (status is None or item["status"] == status)
            and (body is None or request["body"] == body)
        ):
            return item
    raise AssertionError("no recorded %s %s by %s" % (method, path, caller))


def real_message(*args, **kw):
    return real(*args, **kw)["body"]["error"]["message"]


class Admin:
    """Requests to the cloud as a given token."""

    def __init__(self, client, token):
        self.client = client
        self.token = token

    def __call__(self, method, path, json=None):
        return self.client.request(method, path, json=json, token=self.token)


@pytest.fixture
def admin(client):
    return Admin(client, client.token("admin", scope=ADMIN_SCOPE))


@pytest.fixture
def demo(client):
    return Admin(client, client.token("demo"))


def _id(result, key):
    assert result.status == 201, result.body
    return result.json()[key]["id"]


def new_project(admin, name, **attrs):
    return _id(admin("POST", "/v3/projects", {"project": dict(name=name, **attrs)}), "project")


def new_user(admin, name, **attrs):
    return _id(admin("POST", "/v3/users", {"user": dict(name=name, **attrs)}), "user")


def new_role(admin, name):
    return _id(admin("POST", "/v3/roles", {"role": {"name": name}}), "role")


def role_id(admin, name):
    (role,) = admin("GET", "/v3/roles?name=" + name).json()["roles"]
    return role["id"]


def grant(admin, project, user, role, method="PUT"):
    return admin(method, "/v3/projects/%s/users/%s/roles/%s" % (project, user, role))


def keys(value):
    return set(value)


def error(result):
    return result.json()["error"]["message"]


# -- seed: a second project for two-project scenarios ---------------------------


def test_alt_is_a_member_of_its_own_project(client, admin):
    token = client.authenticate("alt").json()["token"]
    assert token["project"]["name"] == "alt"
    assert [r["name"] for r in token["roles"]] == ["member", "reader"]
    (alt,) = admin("GET", "/v3/users?name=alt").json()["users"]
    assert alt["default_project_id"] == token["project"]["id"]
    alt_token = client.token("alt")
    assert client.get("/image/v2/images", token=alt_token).status == 200
    demo_project = admin("GET", "/v3/projects?name=demo").json()["projects"]
    assert (
        client.authenticate("alt", scope={"project": {"id": demo_project[0]["id"]}}).status == 401
    )


def test_alt_password_is_a_setting_and_survives_restarts(tmp_path):
    cloud = make_cloud(tmp_path / "d", alt_password="one")
    c = Client(cloud)
    assert c.authenticate("alt", password="one").status == 201
    cloud.close()
    cloud = make_cloud(tmp_path / "d", alt_password="two")
    c = Client(cloud)
    assert c.authenticate("alt", password="one").status == 401
    assert c.authenticate("alt", password="two").status == 201
    cloud.close()


def test_an_older_database_keeps_default_projects(tmp_path):
    """Migration 3 moves users.default_project_id (a foreign key keystone
    does not have) to default_project."""
    store = Store(str(tmp_path / "cloud.db"))
    store.migrate("identity", migrations.IDENTITY[:2])
    with store.transaction() as db:
        db.execute("INSERT INTO domains (id, name) VALUES ('default', 'Default')")
        db.execute("INSERT INTO projects (id, name, domain_id) VALUES ('p', 'demo', 'default')")
        db.execute(
            "INSERT INTO users (id, name, domain_id, password_hash,"
            " default_project_id) VALUES ('u', 'demo', 'default',"
            " 'x', 'p')"
        )
    store.migrate("identity", migrations.IDENTITY)
    with store.read() as db:
        row = db.execute("SELECT * FROM users").fetchone()
        project = db.execute("SELECT * FROM projects").fetchone()
    store.close()
    assert (row["default_project"], row["default_project_id"]) == ("p", None)
    assert project["parent_id"] == "default"
    assert project["description"] == ""


# -- projects -------------------------------------------------------------------


def test_project_create_show_list_update_match_samples(admin):
    request = sample("project-create-request.json")
    result = admin("POST", "/v3/projects", request)
    assert result.status == 201
    project = result.json()["project"]
    assert keys(project) == keys(sample("project-create-response.json")["project"])
    assert keys(project) == keys(real("POST", "/v3/projects", status=201)["body"]["project"])
    assert project["name"] == "myNewProject"
    assert project["parent_id"] == "default"
    assert project["links"]["self"] == BASE + "/v3/projects/" + project["id"]
    shown = admin("GET", "/v3/projects/" + project["id"]).json()
    assert shown == {"project": project}
    listed = admin("GET", "/v3/projects").json()
    assert keys(listed) == keys(sample("projects-list-response.json"))
    assert listed["links"] == {"next": None, "previous": None, "self": BASE + "/v3/projects"}
    assert [p["name"] for p in listed["projects"]] == ["admin", "alt", "demo", "myNewProject"]
    updated = admin(
        "PATCH", "/v3/projects/" + project["id"], sample("project-update-request.json")
    )
    assert updated.status == 200
    assert updated.json()["project"]["name"] == "myUpdatedProject"
    assert updated.json()["project"]["description"] == "My updated project"


def test_project_defaults_and_extra_attributes(admin):
    result = admin(
        "POST",
        "/v3/projects",
        {"project": {"name": "  spaced ", "color": "blue", "tags": ["a", "b"]}},
    )
    project = result.json()["project"]
    assert project["name"] == "spaced"
    assert project["description"] == ""
    assert project["color"] == "blue"
    assert project["tags"] == ["a", "b"]
    assert project["enabled"] is True and project["is_domain"] is False


def test_project_list_filters(admin):
    new_project(admin, "off", enabled=False)
    names = [p["name"] for p in admin("GET", "/v3/projects?enabled=false").json()["projects"]]
    assert names == ["off"]
    assert [p["name"] for p in admin("GET", "/v3/projects?name=demo").json()["projects"]] == [
        "demo"
    ]
    assert admin("GET", "/v3/projects?domain_id=nosuch").json()["projects"] == []
    result = admin("GET", "/v3/projects?enabled=maybe")
    assert result.status == 400
    assert error(result) == real_message("GET", r"/v3/projects\?enabled=maybe")
    result = admin("GET", "/v3/projects?name=")
    assert error(result) == real_message("GET", r"/v3/projects\?name=")


def test_project_name_is_unique_within_its_domain(admin):
    new_project(admin, "p1")
    result = admin("POST", "/v3/projects", {"project": {"name": "p1"}})
    assert result.status == 409
    message = error(result)
    expected = real_message("POST", "/v3/projects", status=409, body={"project": {"name": "p1"}})
    # the id in keystone's text is the one the new project would have had
    assert re.sub("[0-9a-f]{32}", "ID", message) == re.sub("[0-9a-f]{32}", "ID", expected)
    domain = _id(admin("POST", "/v3/domains", {"domain": {"name": "d1"}}), "domain")
    assert (
        admin("POST", "/v3/projects", {"project": {"name": "p1", "domain_id": domain}}).status
        == 201
    )
    other = new_project(admin, "p2")
    renamed = admin("PATCH", "/v3/projects/" + other, {"project": {"name": "p1"}})
    assert renamed.status == 409  # keystone 30 answers 500 here


@pytest.mark.parametrize(
    "body",
    [
        {"project": {"name": ""}},
        {"project": {"name": "   "}},
        {"project": {}},
        {"project": {"name": "x" * 65}},
        {"project": {"name": 1}},
        {"project": {"name": "t2-x", "options": {"x": 1}}},
        {"project": {"name": "t3-x", "description": 5}},
    ],
)
def test_project_schema_errors_are_keystones(admin, body):
    result = admin("POST", "/v3/projects", body)
    assert result.status == 400
    name = body["project"].get("name")
    if isinstance(name, str) and name.startswith("t"):
        recorded = next(
            item
            for item in RECORDED
            if item["request"]["path"] == "/v3/projects"
            and item["request"]["method"] == "POST"
            and item["status"] == 400
            and set(item["request"]["body"]["project"]) == set(body["project"])
        )
        expected = recorded["body"]["error"]["message"]
    else:
        expected = real_message("POST", "/v3/projects", status=400, body=body)
    assert error(result) == expected


def test_project_create_refusals(admin):
    for body, status in (
        ({"project": {"name": "pd", "domain_id": "nosuch"}}, 400),
        ({"project": {"name": "pd", "parent_id": "nosuch"}}, 400),
    ):
        result = admin("POST", "/v3/projects", body)
        assert result.status == status
        assert error(result) == real_message("POST", "/v3/projects", body=body)
    # keystone 30 answers 500 to these two
    assert error(admin("POST", "/v3/projects", {})) == ("'project' is a required property")
    assert (
        admin("POST", "/v3/projects", {"project": {"name": "pe", "enabled": "maybe"}}).status
        == 400
    )
    enabled_text = admin("POST", "/v3/projects", {"project": {"name": "pe", "enabled": "no"}})
    assert enabled_text.json()["project"]["enabled"] is False


def test_project_hierarchy(admin):
    domain = _id(admin("POST", "/v3/domains", {"domain": {"name": "dh"}}), "domain")
    parent = new_project(admin, "parent", domain_id=domain)
    result = admin("POST", "/v3/projects", {"project": {"name": "child", "parent_id": parent}})
    assert result.status == 400
    assert error(result) == (
        "Cannot create project, since it specifies its domain_id default,"
        " but specifies a parent in a different domain (%s)." % domain
    )
    child = new_project(admin, "child", parent_id=parent, domain_id=domain)
    listed = admin("GET", "/v3/projects?parent_id=" + parent).json()
    assert [p["id"] for p in listed["projects"]] == [child]
    refused = admin("DELETE", "/v3/projects/" + parent)
    assert refused.status == 403
    assert error(refused) == real_message("DELETE", "/v3/projects/{id}", status=403).replace(
        re.search(
            "project ([0-9a-f]{32})", real_message("DELETE", "/v3/projects/{id}", status=403)
        ).group(1),
        parent,
    )
    disable = admin("PATCH", "/v3/projects/" + parent, {"project": {"enabled": False}})
    assert disable.status == 403
    assert error(disable) == (
        "Cannot disable project %s since its subtree contains enabled projects." % parent
    )


def test_project_update_refusals(admin):
    project = new_project(admin, "fixed")
    for body in ({"project": {"domain_id": "other"}}, {"project": {"id": "other"}}):
        result = admin("PATCH", "/v3/projects/" + project, body)
        assert result.status == 400
        assert error(result) == real_message("PATCH", "/v3/projects/{id}", body=body)
    missing = admin("PATCH", "/v3/projects/nosuch", {"project": {"description": "x"}})
    assert (missing.status, error(missing)) == (404, real_message("PATCH", "/v3/projects/nosuch"))


def test_project_not_found_texts(admin):
    for method in ("GET", "DELETE"):
        result = admin(method, "/v3/projects/nosuch")
        assert (result.status, error(result)) == (404, real_message(method, "/v3/projects/nosuch"))


def test_disabling_a_project_revokes_its_tokens(client, admin):
    project = new_project(admin, "soon-off")
    user = new_user(admin, "worker", password="pw")
    grant(admin, project, user, role_id(admin, "member"))
    token = client.token("worker", password="pw", scope={"project": {"id": project}})
    assert client.get("/image/v2/images", token=token).status == 200
    admin("PATCH", "/v3/projects/" + project, {"project": {"enabled": False}})
    admin("PATCH", "/v3/projects/" + project, {"project": {"enabled": True}})
    assert client.get("/image/v2/images", token=token).status == 401


def test_deleting_the_project_a_token_is_scoped_to(client, admin):
    """Keystone lets an admin delete its own project: 204, then that token
    is no longer valid (401) and the project's assignments are gone."""
    project = new_project(admin, "doomed")
    admin_user = admin("GET", "/v3/users?name=admin").json()["users"][0]
    grant(admin, project, admin_user["id"], role_id(admin, "admin"))
    token = client.token("admin", scope={"project": {"id": project}})
    result = client.delete("/v3/projects/" + project, token=token)
    assert result.status == 204
    after = client.get("/v3/users/" + admin_user["id"], token=token)
    assert after.status == 401
    assert (
        admin("GET", "/v3/role_assignments?scope.project.id=" + project).json()["role_assignments"]
        == []
    )


def test_is_domain_projects_are_domains(admin):
    result = admin("POST", "/v3/projects", {"project": {"name": "as-domain", "is_domain": True}})
    assert result.status == 201
    project = result.json()["project"]
    assert project["is_domain"] is True
    assert project["domain_id"] is None and project["parent_id"] is None
    recorded = next(
        item
        for item in RECORDED
        if item["request"]["path"] == "/v3/projects"
        and item["status"] == 201
        and item["request"]["body"]["project"].get("is_domain")
    )
    assert keys(project) == keys(recorded["body"]["project"])
    domain = admin("GET", "/v3/domains/" + project["id"]).json()["domain"]
    assert domain["name"] == "as-domain"
    listed = admin("GET", "/v3/projects?is_domain=true").json()["projects"]
    assert {p["name"] for p in listed} == {"Default", "as-domain"}
    assert admin("GET", "/v3/projects/" + project["id"]).json()["project"] == project
    refused = admin("DELETE", "/v3/projects/" + project["id"])
    assert refused.status == 400
    admin("PATCH", "/v3/projects/" + project["id"], {"project": {"enabled": False}})
    assert admin("DELETE", "/v3/projects/" + project["id"]).status == 204
    assert admin("GET", "/v3/domains/" + project["id"]).status == 404


# -- domains --------------------------------------------------------------------


def test_domain_lifecycle_matches_samples_and_keystone(client, admin):
    result = admin("POST", "/v3/domains", sample("domain-create-request.json"))
    assert result.status == 201
    domain = result.json()["domain"]
    assert keys(domain) == keys(real("POST", "/v3/domains", status=201)["body"]["domain"])
    assert keys(domain) - {"tags"} == keys(sample("domain-create-response.json")["domain"])
    listed = admin("GET", "/v3/domains").json()
    assert keys(listed) == keys(sample("domains-list-response.json"))
    assert [d["name"] for d in listed["domains"]] == ["Default", "myDomain"]
    default = admin("GET", "/v3/domains/default").json()
    assert default == real("GET", "/v3/domains/default", caller="u1@p1")["body"] | {
        "domain": dict(
            real("GET", "/v3/domains/default", caller="u1@p1")["body"]["domain"],
            links={"self": BASE + "/v3/domains/default"},
        )
    }
    dup = admin("POST", "/v3/domains", {"domain": {"name": "Default"}})
    assert (dup.status, error(dup)) == (
        409,
        real_message("POST", "/v3/domains", status=409, body={"domain": {"name": "Default"}}),
    )
    d = domain["id"]
    project = new_project(admin, "inside", domain_id=d)
    user = new_user(admin, "insider", domain_id=d, password="pw")
    grant(admin, project, user, role_id(admin, "member"))
    login = client.post(
        "/v3/auth/tokens",
        json={
            "auth": {
                "identity": {
                    "methods": ["password"],
                    "password": {
                        "user": {"name": "insider", "domain": {"id": d}, "password": "pw"}
                    },
                },
                "scope": {"project": {"id": project}},
            }
        },
    )
    token = login.header("X-Subject-Token")
    refused = admin("DELETE", "/v3/domains/" + d)
    assert (refused.status, error(refused)) == (
        403,
        real_message("DELETE", "/v3/domains/{id}", status=403),
    )
    off = admin(
        "PATCH",
        "/v3/domains/" + d,
        sample("domain-update-request.json") | {"domain": {"enabled": False}},
    )
    assert off.status == 200 and off.json()["domain"]["enabled"] is False
    assert client.get("/image/v2/images", token=token).status == 401
    assert admin("DELETE", "/v3/domains/" + d).status == 204
    for path in ("/v3/domains/" + d, "/v3/projects/" + project, "/v3/users/" + user):
        assert admin("GET", path).status == 404
    again = admin("DELETE", "/v3/domains/" + d)
    assert error(again) == "Could not find domain: %s." % d


def test_domain_not_found_and_schema_texts(admin):
    for method, path, body in (
        ("GET", "/v3/domains/nosuch", None),
        ("DELETE", "/v3/domains/nosuch", None),
        ("PATCH", "/v3/domains/nosuch", {"domain": {"enabled": False}}),
    ):
        result = admin(method, path, body)
        assert (result.status, error(result)) == (404, real_message(method, path))
    for body in ({"domain": {}}, {}):
        result = admin("POST", "/v3/domains", body)
        assert (result.status, error(result)) == (
            400,
            real_message("POST", "/v3/domains", body=body),
        )


# -- users ----------------------------------------------------------------------


def test_user_create_show_list_update_match_samples(admin):
    project = new_project(admin, "home")
    result = admin(
        "POST",
        "/v3/users",
        {
            "user": {
                "name": "u1",
                "password": "u1-secret",
                "email": "u1@example.com",
                "default_project_id": project,
                "description": "d",
            }
        },
    )
    assert result.status == 201
    user = result.json()["user"]
    expected = real("POST", "/v3/users", status=201)["body"]["user"]
    assert keys(user) == keys(expected)
    assert keys(user) <= keys(sample("user-create-response.json")["user"]) | {
        "email",
        "description",
    }
    assert user["email"] == "u1@example.com"
    assert user["default_project_id"] == project
    assert user["password_expires_at"] is None
    assert "password" not in user
    shown = admin("GET", "/v3/users/" + user["id"]).json()
    assert shown == {"user": user}
    listed = admin("GET", "/v3/users").json()
    assert keys(listed) == keys(sample("users-list-response.json"))
    assert [u["name"] for u in listed["users"]] == ["admin", "alt", "demo", "u1"]
    bare = admin("POST", "/v3/users", {"user": {"name": "u2"}}).json()["user"]
    assert keys(bare) == keys(
        real("POST", "/v3/users", status=201, body={"user": {"name": "u2"}})["body"]["user"]
    )
    updated = admin("PATCH", "/v3/users/" + user["id"], {"user": {"email": "new@example.com"}})
    assert updated.json()["user"]["email"] == "new@example.com"
    assert updated.json()["user"]["description"] == "d"


def test_user_name_is_unique_within_its_domain(admin):
    new_user(admin, "u1", password="x")
    dup = admin("POST", "/v3/users", {"user": {"name": "u1", "password": "x"}})
    assert (dup.status, error(dup)) == (409, real_message("POST", "/v3/users", status=409))
    other = new_user(admin, "u9")
    renamed = admin("PATCH", "/v3/users/" + other, {"user": {"name": "u1"}})
    assert (renamed.status, error(renamed)) == (
        409,
        real_message("PATCH", "/v3/users/{id}", status=409),
    )
    domain = _id(admin("POST", "/v3/domains", {"domain": {"name": "d2"}}), "domain")
    assert admin("POST", "/v3/users", {"user": {"name": "u1", "domain_id": domain}}).status == 201


def test_user_refusals(admin):
    cases = [
        ("POST", "/v3/users", {"user": {}}),
        ("POST", "/v3/users", {}),
        ("POST", "/v3/users", {"user": {"name": "u3", "password": 5}}),
        ("POST", "/v3/users", {"user": {"name": "u3", "domain_id": "nosuch"}}),
        ("GET", "/v3/users/nosuch", None),
        ("PATCH", "/v3/users/nosuch", {"user": {"email": "new@example.com"}}),
        ("DELETE", "/v3/users/nosuch", None),
        ("GET", "/v3/users/nosuch/projects", None),
    ]
    for method, path, body in cases:
        result = admin(method, path, body)
        if method == "DELETE":
            expected = (404, "Could not find user: nosuch.")
        else:
            item = real(method, path, body=body) if body is not None else real(method, path)
            expected = (item["status"], item["body"]["error"]["message"])
        assert (result.status, error(result)) == expected, (method, path)
    user = new_user(admin, "fixed")
    for body in ({"user": {}}, {"user": {"name": ""}}, {"user": {"domain_id": "other"}}):
        result = admin("PATCH", "/v3/users/" + user, body)
        assert (result.status, error(result)) == (
            400,
            real_message("PATCH", "/v3/users/{id}", body=body),
        )


def test_a_dangling_default_project_is_kept_as_keystone_does(admin):
    user = admin("POST", "/v3/users", {"user": {"name": "u3", "default_project_id": "nosuch"}})
    assert user.status == 201
    assert user.json()["user"]["default_project_id"] == "nosuch"
    project = new_project(admin, "gone")
    moved = admin(
        "PATCH",
        "/v3/users/" + user.json()["user"]["id"],
        {"user": {"default_project_id": project}},
    )
    assert moved.json()["user"]["default_project_id"] == project
    assert admin("DELETE", "/v3/projects/" + project).status == 204
    shown = admin("GET", "/v3/users/" + user.json()["user"]["id"]).json()
    assert shown["user"]["default_project_id"] == project


def test_user_without_password_cannot_log_in(client, admin):
    new_user(admin, "nopw")
    assert client.authenticate("nopw", password="").status == 401
    assert client.authenticate("nopw", password="x").status == 401


def test_admin_password_update_and_disabling_revoke_tokens(client, admin):
    user = new_user(admin, "pw-user", password="old")
    grant(
        admin,
        admin("GET", "/v3/projects?name=demo").json()["projects"][0]["id"],
        user,
        role_id(admin, "member"),
    )
    token = client.token(
        "pw-user", password="old", scope={"project": {"name": "demo", "domain": {"id": "default"}}}
    )
    assert admin("PATCH", "/v3/users/" + user, {"user": {"password": "new"}}).status == 200
    assert client.get("/v3/users/" + user, token=token).status == 401
    assert client.authenticate("pw-user", password="old").status == 401
    token = client.token("pw-user", password="new")
    admin("PATCH", "/v3/users/" + user, {"user": {"enabled": False}})
    admin("PATCH", "/v3/users/" + user, {"user": {"enabled": True}})
    assert client.get("/v3/users/" + user, token=token).status == 401
    assert client.authenticate("pw-user", password="new").status == 201


def test_deleting_a_user_revokes_its_tokens_and_assignments(client, admin):
    user = new_user(admin, "leaver", password="pw")
    demo_project = admin("GET", "/v3/projects?name=demo").json()["projects"][0]["id"]
    grant(admin, demo_project, user, role_id(admin, "member"))
    token = client.token("leaver", password="pw", scope={"project": {"id": demo_project}})
    cred = client.post(
        "/v3/users/%s/application_credentials" % user,
        token=token,
        json={"application_credential": {"name": "c"}},
    )
    assert cred.status == 201
    assert admin("DELETE", "/v3/users/" + user).status == 204
    assert client.get("/image/v2/images", token=token).status == 401
    assert admin("GET", "/v3/role_assignments?user.id=" + user).json()["role_assignments"] == []
    assert client.authenticate("leaver", password="pw").status == 401


def test_user_projects(client, admin):
    user = new_user(admin, "multi", password="pw")
    member = role_id(admin, "member")
    first, second = new_project(admin, "one"), new_project(admin, "two")
    grant(admin, first, user, member)
    grant(admin, second, user, member)
    token = client.token("multi", password="pw", scope={"project": {"id": first}})
    mine = client.get("/v3/users/%s/projects" % user, token=token)
    assert mine.status == 200
    body = mine.json()
    assert keys(body) == keys(sample("user-projects-list-response.json"))
    assert [p["name"] for p in body["projects"]] == ["one", "two"]
    assert keys(body["projects"][0]) == keys(
        real("GET", "/v3/users/{id}/projects")["body"]["projects"][0]
    )
    filtered = client.get("/v3/users/%s/projects?name=two" % user, token=token).json()["projects"]
    assert [p["name"] for p in filtered] == ["two"]
    admin_user = admin("GET", "/v3/users?name=admin").json()["users"][0]
    other = client.get("/v3/users/%s/projects" % admin_user["id"], token=token)
    assert (other.status, error(other)) == (
        403,
        real_message("GET", "/v3/users/{id}/projects", caller="u1@p1", status=403),
    )


# -- changing one's own password -------------------------------------------------


def test_password_change_by_the_user(client, admin):
    user = new_user(admin, "changer", password="old-secret")
    token = client.token("changer", password="old-secret", scope="unscoped")
    path = "/v3/users/%s/password" % user
    wrong = client.post(
        path, json={"user": {"password": "new-secret", "original_password": "wrong"}}
    )
    assert (wrong.status, error(wrong)) == (
        401,
        real_message(
            "POST",
            "/v3/users/{id}/password",
            caller="no token",
            body={"user": {"password": "new-secret", "original_password": "wrong"}},
        ),
    )
    assert wrong.header("WWW-Authenticate") == 'Keystone uri="%s/v3"' % BASE
    assert client.get("/v3/users/" + user, token=token).status == 200
    ok = client.post(
        path,
        json=sample("user-password-update-request.json")
        | {"user": {"original_password": "old-secret", "password": "new-secret"}},
    )
    assert ok.status == 204 and ok.body == b""
    assert client.get("/v3/users/" + user, token=token).status == 401
    assert client.authenticate("changer", password="old-secret").status == 401
    assert client.authenticate("changer", password="new-secret", scope="unscoped").status == 201


def test_password_change_refusals(client, admin):
    user = new_user(admin, "dis", password="old-secret", enabled=False)
    path = "/v3/users/%s/password" % user
    disabled = client.post(
        path, json={"user": {"password": "new-secret", "original_password": "old-secret"}}
    )
    assert (disabled.status, error(disabled)) == (
        401,
        "The account is disabled for user: %s." % user,
    )
    for body in (
        {"user": {"password": "new-secret"}},
        {},
        {"user": {"password": 5, "original_password": "old-secret"}},
        {"user": {"password": "new-secret", "original_password": "old-secret", "x": 1}},
    ):
        result = client.post(path, json=body)
        assert result.status == 400
        expected = next(
            item["body"]["error"]["message"]
            for item in RECORDED
            if item["request"]["path"].endswith("/password") and item["request"]["body"] == body
        )
        assert error(result) == expected
    unknown = client.post(
        "/v3/users/nosuch/password",
        json={"user": {"password": "new-secret", "original_password": "old-secret"}},
    )
    assert unknown.status == 401
    assert client.get(path).status == 405


def test_hashing_happens_outside_the_write_lock(client, admin, monkeypatch):
    store = client.cloud.store
    seen = []
    real_hash = passwords.hash_password

    def spy(password, salt=None):
        seen.append(store.writing())
        return real_hash(password, salt)

    monkeypatch.setattr(passwords, "hash_password", spy)
    user = new_user(admin, "hashed", password="a")
    admin("PATCH", "/v3/users/" + user, {"user": {"password": "b"}})
    client.post(
        "/v3/users/%s/password" % user, json={"user": {"original_password": "b", "password": "c"}}
    )
    assert seen == [False, False, False]


# -- roles ----------------------------------------------------------------------


def test_role_lifecycle_matches_samples(admin):
    result = admin("POST", "/v3/roles", sample("role-create-request.json"))
    assert result.status == 201
    role = result.json()["role"]
    assert keys(role) == keys(sample("role-show-response.json")["role"])
    assert keys(role) == keys(real("POST", "/v3/roles", status=201)["body"]["role"])
    assert role["domain_id"] is None and role["options"] == {}
    listed = admin("GET", "/v3/roles").json()
    assert keys(listed) == keys(sample("roles-list-response.json"))
    assert [r["name"] for r in listed["roles"]] == [
        "admin",
        "developer",
        "manager",
        "member",
        "reader",
        "service",
    ]
    seeded = next(r for r in listed["roles"] if r["name"] == "reader")
    assert seeded["options"] == {"immutable": True}
    assert admin("GET", "/v3/roles/" + role["id"]).json() == {"role": role}
    updated = admin("PATCH", "/v3/roles/" + role["id"], {"role": {"description": "new"}})
    assert updated.json()["role"]["description"] == "new"
    dup = admin("POST", "/v3/roles", {"role": {"name": "developer"}})
    assert (dup.status, error(dup)) == (409, error(dup))
    assert error(dup) == real_message("POST", "/v3/roles", status=409).replace("r1", "developer")
    assert admin("POST", "/v3/roles", {"role": {"name": "DEVELOPER"}}).status == 201
    assert admin("DELETE", "/v3/roles/" + role["id"]).status == 204
    gone = admin("GET", "/v3/roles/" + role["id"])
    assert (gone.status, error(gone)) == (404, "Could not find role: %s." % role["id"])


def test_seeded_roles_are_immutable(admin):
    member = role_id(admin, "member")
    result = admin("DELETE", "/v3/roles/" + member)
    assert (result.status, error(result)) == (
        403,
        real_message("DELETE", "/v3/roles/{id}", status=403).replace(
            real("DELETE", "/v3/roles/{id}", status=403)["request"]["path"].rsplit("/", 1)[1],
            member,
        ),
    )
    assert admin("PATCH", "/v3/roles/" + member, {"role": {"description": "x"}}).status == 403


def test_role_refusals(admin):
    for method, path, body in (
        ("GET", "/v3/roles/nosuch", None),
        ("DELETE", "/v3/roles/nosuch", None),
    ):
        result = admin(method, path, body)
        assert (result.status, error(result)) == (404, real_message(method, path))
    for body in ({"role": {}}, {}, {"role": {"name": ""}}):
        result = admin("POST", "/v3/roles", body)
        assert (result.status, error(result)) == (
            400,
            real_message("POST", "/v3/roles", body=body),
        )


def test_deleting_a_role_removes_its_assignments(client, admin):
    role = new_role(admin, "temporary")
    user = new_user(admin, "holder")
    project = new_project(admin, "held")
    assert grant(admin, project, user, role).status == 204
    assert admin("DELETE", "/v3/roles/" + role).status == 204
    assert admin("GET", "/v3/role_assignments?user.id=" + user).json()["role_assignments"] == []


# -- grants -----------------------------------------------------------------------


def test_grants_on_projects_and_domains(admin):
    user = new_user(admin, "granted")
    project = new_project(admin, "granting")
    member, reader = role_id(admin, "member"), role_id(admin, "reader")
    assert grant(admin, project, user, member).status == 204
    assert grant(admin, project, user, member).status == 204  # idempotent
    head = grant(admin, project, user, member, "HEAD")
    assert (head.status, head.body) == (204, b"")
    assert grant(admin, project, user, member, "GET").status == 204
    missing = grant(admin, project, user, reader, "GET")
    expected = real_message("GET", "/v3/projects/{id}/users/{id}/roles/{id}", status=404)
    ids = re.findall("[0-9a-f]{32}", expected)
    assert error(missing) == expected.replace(ids[0], reader).replace(ids[1], user).replace(
        ids[2], project
    )
    assert grant(admin, project, user, reader, "HEAD").status == 404
    assert grant(admin, project, user, reader, "DELETE").status == 404
    assert grant(admin, project, user, member, "DELETE").status == 204
    assert grant(admin, project, user, member, "HEAD").status == 404
    domain_path = "/v3/domains/default/users/%s/roles/%s" % (user, reader)
    assert admin("PUT", domain_path).status == 204
    assert admin("HEAD", domain_path).status == 204
    assert admin("DELETE", domain_path).status == 204
    for path, what in (
        ("/v3/projects/%s/users/%s/roles/nosuch" % (project, user), "role"),
        ("/v3/projects/%s/users/nosuch/roles/%s" % (project, member), "user"),
        ("/v3/projects/nosuch/users/%s/roles/%s" % (user, member), "project"),
        ("/v3/domains/nosuch/users/%s/roles/%s" % (user, member), "domain"),
    ):
        result = admin("PUT", path)
        assert (result.status, error(result)) == (404, "Could not find %s: nosuch." % what)
    gone_user = admin("DELETE", "/v3/projects/%s/users/nosuch/roles/%s" % (project, member))
    assert error(gone_user) == (
        "Could not find role assignment with role: %s, user or group: nosuch,"
        " project, domain, or system: %s." % (member, project)
    )


def test_a_granted_role_scopes_tokens(client, admin):
    user = new_user(admin, "newcomer", password="pw")
    project = new_project(admin, "newplace")
    scope = {"project": {"id": project}}
    assert client.authenticate("newcomer", password="pw", scope=scope).status == 401
    grant(admin, project, user, role_id(admin, "member"))
    token = client.token("newcomer", password="pw", scope=scope)
    assert client.get("/image/v2/images", token=token).status == 200
    grant(admin, project, user, role_id(admin, "member"), "DELETE")
    assert client.get("/image/v2/images", token=token).status == 401


# -- role assignments -----------------------------------------------------------


def test_role_assignments_match_keystone(admin):
    user = new_user(admin, "u1")
    project = new_project(admin, "p1")
    member = role_id(admin, "member")
    grant(admin, project, user, member)
    direct = admin("GET", "/v3/role_assignments?user.id=" + user).json()
    assert keys(direct) == keys(sample("role-assignments-list-response.json"))
    (item,) = direct["role_assignments"]
    assert item == {
        "links": {
            "assignment": BASE + "/v3/projects/%s/users/%s/roles/%s" % (project, user, member)
        },
        "scope": {"project": {"id": project}},
        "user": {"id": user},
        "role": {"id": member},
    }
    recorded = real(
        "GET",
        r"/v3/role_assignments\?user.id={id}&effective"
        "&include_names",
    )["body"]["role_assignments"]
    effective = admin(
        "GET", "/v3/role_assignments?user.id=%s&effective&include_names" % user
    ).json()["role_assignments"]
    assert len(effective) == len(recorded) == 2
    reader = role_id(admin, "reader")

    def anonymise(items, ids):
        text = json.dumps(items)
        for old, new in ids.items():
            text = text.replace(old, new)
        return json.loads(re.sub(r"https?://[^/]+", "URL", text))

    real_ids = {
        recorded[0]["user"]["id"]: "USER",
        recorded[0]["scope"]["project"]["id"]: "PROJECT",
        recorded[0]["role"]["id"]: "MEMBER",
        recorded[1]["role"]["id"]: "READER",
    }
    ours = {user: "USER", project: "PROJECT", member: "MEMBER", reader: "READER"}
    assert anonymise(effective, ours) == anonymise(recorded, real_ids)


def test_role_assignment_filters(admin):
    user = new_user(admin, "filtered")
    first, second = new_project(admin, "f1"), new_project(admin, "f2")
    member, reader = role_id(admin, "member"), role_id(admin, "reader")
    grant(admin, first, user, member)
    grant(admin, second, user, reader)
    admin("PUT", "/v3/domains/default/users/%s/roles/%s" % (user, reader))

    def listed(query):
        result = admin("GET", "/v3/role_assignments?" + query)
        assert result.status == 200, result.body
        return sorted(
            (a["scope"].get("project", a["scope"].get("domain"))["id"], a["role"]["id"])
            for a in result.json()["role_assignments"]
        )

    assert listed("user.id=" + user) == sorted(
        [(first, member), (second, reader), ("default", reader)]
    )
    assert listed("user.id=%s&scope.project.id=%s" % (user, first)) == [(first, member)]
    assert listed("user.id=%s&scope.domain.id=default" % user) == [("default", reader)]
    assert listed("user.id=%s&role.id=%s" % (user, reader)) == sorted(
        [(second, reader), ("default", reader)]
    )
    assert listed("user.id=%s&role.id=%s&effective" % (user, reader)) == (
        sorted([(first, reader), (second, reader), ("default", reader)])
    )
    assert listed("user.id=nosuch") == []
    assert listed("group.id=g") == []
    child = new_project(admin, "f1-child", parent_id=first)
    grant(admin, child, user, member)
    assert listed("scope.project.id=%s&include_subtree=true" % first) == (
        sorted([(first, member), (child, member)])
    )
    for query in (
        "scope.project.id=%s&scope.domain.id=default" % first,
        "group.id=x&effective",
        "include_subtree=true",
    ):
        result = admin("GET", "/v3/role_assignments?" + query)
        assert result.status == 400
        expected = next(
            item["body"]["error"]["message"]
            for item in RECORDED
            if item["request"]["path"].startswith("/v3/role_assignments?")
            and item["status"] == 400
            and set(re.findall(r"[\w.]+(?==)|effective", item["request"]["path"]))
            == set(re.findall(r"[\w.]+(?==)|effective", query))
        )
        assert error(result) == expected, query


# -- policies (keystone 30's defaults, checked against it) ------------------------

MEMBER_REFUSED = [
    ("GET", "/v3/projects"),
    ("POST", "/v3/projects"),
    ("GET", "/v3/users"),
    ("GET", "/v3/roles"),
    ("GET", "/v3/role_assignments"),
    ("GET", "/v3/domains"),
    ("POST", "/v3/domains"),
    ("POST", "/v3/roles"),
]


@pytest.mark.parametrize("caller", ["u1@p1", "ur@p1", "u1@unscoped"])
def test_non_admins_get_keystones_403s(client, admin, caller):
    user_name = caller.split("@")[0]
    project = new_project(admin, "p1")
    user = new_user(admin, user_name, password="pw")
    grant(admin, project, user, role_id(admin, "reader" if user_name == "ur" else "member"))
    scope = "unscoped" if caller.endswith("unscoped") else {"project": {"id": project}}
    token = client.token(user_name, password="pw", scope=scope)
    bodies = {
        "/v3/projects": {"project": {"name": "by-x"}},
        "/v3/domains": {"domain": {"name": "dx"}},
        "/v3/roles": {"role": {"name": "rx"}},
    }
    for method, path in MEMBER_REFUSED:
        result = client.request(
            method, path, token=token, json=bodies.get(path) if method == "POST" else None
        )
        expected = real_message(method, path, caller=caller)
        assert (result.status, error(result)) == (403, expected), path
    member = role_id(admin, "member")
    admin_user = admin("GET", "/v3/users?name=admin").json()["users"][0]["id"]
    admin_project = admin("GET", "/v3/projects?name=admin").json()["projects"][0]["id"]
    own_user = client.get("/v3/users/" + user, token=token)
    own_project = client.get("/v3/projects/" + project, token=token)
    assert own_user.status == 200  # keystone: user_id:%(target.user.id)s
    assert own_project.status == real("GET", "/v3/projects/{id}", caller=caller)["status"]
    for path, action in (
        ("/v3/users/" + admin_user, "get_user"),
        ("/v3/users/nosuch", "get_user"),
        ("/v3/projects/" + admin_project, "get_project"),
        ("/v3/projects/nosuch", "get_project"),
        ("/v3/users/%s/projects" % admin_user, "list_user_projects"),
    ):
        result = client.get(path, token=token)
        assert (result.status, error(result)) == (
            403,
            "You are not authorized to perform the requested action: identity:%s." % action,
        ), path
    grant_path = "/v3/projects/%s/users/%s/roles/%s" % (project, user, member)
    for method, action in (("PUT", "create_grant"), ("DELETE", "revoke_grant")):
        result = client.request(method, grant_path, token=token)
        assert (result.status, error(result)) == (
            403,
            "You are not authorized to perform the requested action: identity:%s." % action,
        )
    assert client.head(grant_path, token=token).status == 403
    unknown_role = client.request("PUT", grant_path.rsplit("/", 1)[0] + "/nosuch", token=token)
    assert (unknown_role.status, error(unknown_role)) == (404, "Could not find role: nosuch.")
    for method, path in (
        ("DELETE", "/v3/users/" + admin_user),
        ("DELETE", "/v3/projects/nosuch"),
        ("PATCH", "/v3/projects/" + project),
    ):
        result = client.request(
            method,
            path,
            token=token,
            json={"project": {"description": "x"}} if method == "PATCH" else None,
        )
        assert result.status == 403, path
    domain = client.get("/v3/domains/default", token=token)
    assert domain.status == real("GET", "/v3/domains/default", caller=caller)["status"]


def test_a_domain_scoped_admin_sees_its_domain_only(client, admin):
    other = _id(admin("POST", "/v3/domains", {"domain": {"name": "other"}}), "domain")
    new_project(admin, "elsewhere", domain_id=other)
    new_user(admin, "stranger", domain_id=other)
    token = client.token("admin", scope={"domain": {"id": "default"}})
    as_domain = Admin(client, token)
    names = [p["name"] for p in as_domain("GET", "/v3/projects").json()["projects"]]
    assert names == ["admin", "alt", "demo"]
    assert "stranger" not in [u["name"] for u in as_domain("GET", "/v3/users").json()["users"]]
    created = as_domain("POST", "/v3/projects", {"project": {"name": "mine"}})
    assert created.json()["project"]["domain_id"] == "default"
    assert [d["id"] for d in as_domain("GET", "/v3/domains").json()["domains"]] == [
        "default",
        other,
    ]


def test_a_domain_reader_reads_its_domain(client, admin):
    reader = role_id(admin, "reader")
    user = new_user(admin, "auditor", password="pw")
    admin("PUT", "/v3/domains/default/users/%s/roles/%s" % (user, reader))
    token = client.token("auditor", password="pw", scope={"domain": {"id": "default"}})
    as_reader = Admin(client, token)
    assert as_reader("GET", "/v3/projects").status == 200
    assert as_reader("GET", "/v3/users").status == 200
    assert as_reader("GET", "/v3/role_assignments").status == 200
    alt = admin("GET", "/v3/users?name=alt").json()["users"][0]["id"]
    assert as_reader("GET", "/v3/users/" + alt).status == 200
    assert as_reader("POST", "/v3/projects", {"project": {"name": "nope"}}).status == 403
    assert as_reader("GET", "/v3/roles").status == 403
