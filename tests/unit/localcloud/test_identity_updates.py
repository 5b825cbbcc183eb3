"""``PATCH`` of users, projects and roles in the local Keystone as
keystone does it (keystone/identity/core.py ``create_user``/``update_user``
strip the name; roles and project names are read again when a token is
validated, so a rename shows at once), and their refusals."""

from tests.unit.localcloud.test_identity_admin import ADMIN_SCOPE
from tests.unit.localcloud.test_identity_admin import Admin
from tests.unit.localcloud.test_identity_admin import new_project
from tests.unit.localcloud.test_identity_admin import new_role
from tests.unit.localcloud.test_identity_admin import new_user


def _admin(client):
    return Admin(client, client.token("admin", scope=ADMIN_SCOPE))


def _message(result):
    return result.json()["error"]["message"]


def test_a_user_name_is_stripped_on_create_and_update(client):
    admin = _admin(client)
    user = new_user(admin, "  spaced  ")
    assert admin("GET", "/v3/users/" + user).json()["user"]["name"] == "spaced"
    renamed = admin("PATCH", "/v3/users/" + user, {"user": {"name": " again\t"}})
    assert renamed.status == 200
    assert renamed.json()["user"]["name"] == "again"
    listed = admin("GET", "/v3/users?name=again").json()["users"]
    assert [u["id"] for u in listed] == [user]


def test_a_stripped_name_conflicts_as_the_same_name(client):
    admin = _admin(client)
    new_user(admin, "taken")
    other = new_user(admin, "other")
    dup = admin("POST", "/v3/users", {"user": {"name": "taken "}})
    assert dup.status == 409
    assert _message(dup) == (
        "Conflict occurred attempting to store user - Duplicate entry"
        " found with name taken at domain ID default."
    )
    renamed = admin("PATCH", "/v3/users/" + other, {"user": {"name": " taken"}})
    assert renamed.status == 409
    assert admin("GET", "/v3/users/" + other).json()["user"]["name"] == "other"


def test_a_renamed_role_and_project_show_in_a_token_at_once(client):
    admin = _admin(client)
    project = new_project(admin, "before")
    role = new_role(admin, "watcher")
    user = new_user(admin, "viewer", password="pw-secret")
    assert admin("PUT", "/v3/projects/%s/users/%s/roles/%s" % (project, user, role)).status == 204
    token = client.token("viewer", password="pw-secret", scope={"project": {"id": project}})
    assert admin("PATCH", "/v3/roles/" + role, {"role": {"name": "observer"}}).status == 200
    assert admin("PATCH", "/v3/projects/" + project, {"project": {"name": "after"}}).status == 200
    shown = client.get("/v3/auth/tokens", token=token, headers={"X-Subject-Token": token})
    assert shown.status == 200
    body = shown.json()["token"]
    assert [r["name"] for r in body["roles"]] == ["observer"]
    assert body["project"]["name"] == "after"


def test_role_update_refusals(client):
    admin = _admin(client)
    new_role(admin, "first")
    second = new_role(admin, "second")
    dup = admin("PATCH", "/v3/roles/" + second, {"role": {"name": "first"}})
    assert dup.status == 409
    assert _message(dup) == (
        "Conflict occurred attempting to store role - Duplicate entry found with name first."
    )
    missing = admin("PATCH", "/v3/roles/nosuch", {"role": {"name": "x"}})
    assert (missing.status, _message(missing)) == (404, "Could not find role: nosuch.")
    demo = Admin(client, client.token("demo"))
    assert demo("PATCH", "/v3/roles/" + second, {"role": {"name": "x"}}).status == 403
    assert admin("GET", "/v3/roles/" + second).json()["role"]["name"] == "second"


def test_only_an_admin_updates_a_user_or_a_project(client):
    admin = _admin(client)
    user = new_user(admin, "target")
    project = new_project(admin, "target-p")
    demo = Admin(client, client.token("demo"))
    assert demo("PATCH", "/v3/users/" + user, {"user": {"enabled": False}}).status == 403
    refused = demo("PATCH", "/v3/projects/" + project, {"project": {"enabled": False}})
    assert refused.status == 403
    assert admin("GET", "/v3/users/" + user).json()["user"]["enabled"] is True
    assert admin("GET", "/v3/projects/" + project).json()["project"]["enabled"] is True
