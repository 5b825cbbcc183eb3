"""Identity admin managers and commands (requests-mock, keystone's samples).

The commands run through the real shell and cliff adapter; until the
``identity_admin`` module is listed under ``occli.commands`` in setup.cfg
the ``app`` fixture adds its commands to the App itself.
"""

import copy
import io

import pytest

from occli import exceptions

from .fakes import BASE
from .fakes import PASSWORD
from .fakes import load_fixture
from .fakes import requests_to

IDENTITY = BASE + "/identity/v3"
PROJECT = "0c4e939acacf4376bdcd1129f1a054ad"  # project-show-response.json
USER = "9fe1d3"  # user-show-response.json
ROLE = "1e443fa8cee3482a8a2b6954dd5c8f12"  # role-show-response.json


def sample(name):
    return copy.deepcopy(load_fixture("identity", "admin", name))


def keystone_error(status, message):
    return {
        "status_code": status,
        "json": {"error": {"code": status, "title": "Error", "message": message}},
    }


@pytest.fixture
def app(cli, monkeypatch):
    """Run ``occli ARGV…``: (exit code, stdout, stderr), the identity admin
    commands included whether or not setup.cfg lists them yet."""
    from occli import cliff_adapter
    from occli import plugins
    from occli import shell
    from occli.v2.identity.commands import identity_admin

    class App(shell.OcCLI):
        def _register_commands(self, plugin_dirs=()):
            super()._register_commands(plugin_dirs)
            for name, func in plugins.commands_of(identity_admin).items():
                self.command_manager.commands.setdefault(
                    name, cliff_adapter.LazyCommand(name, lambda f=func: f)
                )

    def run(*argv):
        application = App()
        application.stdout, application.stderr = io.StringIO(), io.StringIO()
        code = application.run(list(argv))
        return code, application.stdout.getvalue(), application.stderr.getvalue()

    return run


@pytest.fixture
def keystone(mock_cloud):
    """The admin samples served: one project, user, role (by id and name)."""
    m = mock_cloud.mock
    m.get(IDENTITY + "/projects", json=sample("projects-list-response.json"))
    m.get(IDENTITY + "/projects/" + PROJECT, json=sample("project-show-response.json"))
    m.get(IDENTITY + "/users", json=sample("users-list-response.json"))
    m.get(IDENTITY + "/users/" + USER, json=sample("user-show-response.json"))
    m.get(IDENTITY + "/roles", json=sample("roles-list-response.json"))
    m.get(IDENTITY + "/roles/" + ROLE, json=sample("role-show-response.json"))
    for kind in ("projects", "users", "roles", "domains"):
        m.get(
            IDENTITY + "/%s/nosuch" % kind,
            **keystone_error(404, "Could not find %s: nosuch." % kind[:-1]),
        )
    return m


# -- managers --------------------------------------------------------------------


def test_an_unversioned_catalog_endpoint_gets_v3(client, keystone):
    projects = list(client.projects.list())
    assert [p.name for p in projects][:2] == ["admin", "demo"]
    assert keystone.last_request.url == IDENTITY + "/projects"
    assert projects[0].to_dict() == sample("projects-list-response.json")["projects"][0]


def test_a_versioned_catalog_endpoint_is_kept(client, mock_cloud, monkeypatch):
    manager = client.projects
    monkeypatch.setattr(manager.api, "get_endpoint", lambda: BASE + "/keystone/v3/")
    mock_cloud.mock.get(BASE + "/keystone/v3/projects", json=sample("projects-list-response.json"))
    assert len(list(manager.list())) == 8


def test_project_list_filters(client, keystone):
    list(client.projects.list(domain="default", name="demo", enabled=False, parent="p0"))
    assert keystone.last_request.qs == {
        "domain_id": ["default"],
        "name": ["demo"],
        "enabled": ["false"],
        "parent_id": ["p0"],
    }


def test_project_create_update_delete_bodies(client, mock_cloud):
    m = mock_cloud.mock
    m.post(IDENTITY + "/projects", status_code=201, json=sample("project-create-response.json"))
    created = client.projects.create(
        "myNewProject", domain="default", description="My new project", tags=[], color="blue"
    )
    request = sample("project-create-request.json")["project"]
    body = m.last_request.json()["project"]
    assert body == {k: request[k] for k in ("name", "domain_id", "description", "enabled")} | {
        "tags": [],
        "color": "blue",
    }
    assert created.id == "93ebbcc35335488b96ff9cd7d18cbb2e"
    m.patch(IDENTITY + "/projects/" + created.id, json=sample("project-update-response.json"))
    updated = client.projects.update(
        created, name="myUpdatedProject", description="My updated project"
    )
    assert m.last_request.json() == sample("project-update-request.json")
    assert updated.name == "myUpdatedProject"
    with pytest.raises(exceptions.ValidationError):
        client.projects.update(created)
    m.delete(
        IDENTITY + "/projects/" + created.id,
        status_code=204,
        headers={"x-openstack-request-id": "req-1"},
    )
    assert client.projects.delete(created).request_ids == ["req-1"]


def test_find_resource_by_id_then_name(client, keystone):
    assert client.projects.find_resource(PROJECT).name == "admin"
    keystone.get(
        IDENTITY + "/projects/demo", **keystone_error(404, "Could not find project: demo.")
    )
    found = client.projects.find_resource("demo")
    assert found.id == "0cbd49cbf76d405d9c86562e1d579bd3"
    assert keystone.last_request.qs["name"] == ["demo"]
    keystone.get(IDENTITY + "/projects?name=nosuch", json={"projects": [], "links": {}})
    with pytest.raises(
        exceptions.NotFound, match="No project with a name or ID of 'nosuch' exists"
    ):
        client.projects.find_resource("nosuch")


def test_find_resource_in_a_domain(client, keystone):
    keystone.get(
        IDENTITY + "/domains/Default", **keystone_error(404, "Could not find domain: Default.")
    )
    keystone.get(IDENTITY + "/domains", json=sample("domains-list-response.json"))
    keystone.get(IDENTITY + "/users/demo", **keystone_error(404, "Could not find user: demo."))
    client.users.find_resource("demo", domain="Default")
    assert keystone.last_request.qs == {"name": ["demo"], "domain_id": ["default"]}


def test_a_refused_lookup_keeps_the_given_value(client, keystone):
    """As OSC's _find_identity_resource: a 403 on the lookup gives a
    resource holding the value, for the next request to be judged."""
    keystone.get(
        IDENTITY + "/projects/demo",
        **keystone_error(
            403, "You are not authorized to perform the requested action: identity:get_project."
        ),
    )
    project = client.projects.find_resource("demo")
    assert (project.id, project.name) == ("demo", "demo")


def test_user_create_and_password_change_bodies(client, mock_cloud):
    m = mock_cloud.mock
    m.post(IDENTITY + "/users", status_code=201, json=sample("user-create-response.json"))
    user = client.users.create(
        "James Doe",
        domain="1789d1",
        password="secretsecret",
        email="jdoe@example.com",
        description="James Doe user",
        default_project="263fd9",
    )
    request = sample("user-create-request.json")["user"]
    assert m.last_request.json()["user"] == {
        k: request[k]
        for k in (
            "name",
            "domain_id",
            "password",
            "email",
            "description",
            "default_project_id",
            "enabled",
        )
    }
    assert user.id == "ff4e51"
    m.post(IDENTITY + "/users/ff4e51/password", status_code=204)
    client.users.change_password(user, "secretsecret", "new_secretsecret")
    assert m.last_request.json() == sample("user-password-update-request.json")
    m.patch(IDENTITY + "/users/ff4e51", json=sample("user-update-response.json"))
    client.users.update(user, default_project="263fd9", enabled=True)
    assert m.last_request.json() == {"user": {"default_project_id": "263fd9", "enabled": True}}


def test_user_projects(client, mock_cloud):
    mock_cloud.mock.get(
        IDENTITY + "/users/313233/projects", json=sample("user-projects-list-response.json")
    )
    names = [p.name for p in client.users.projects("313233")]
    assert names == ["a project name", "another domain"]


def test_grants(client, mock_cloud):
    m = mock_cloud.mock
    path = IDENTITY + "/projects/p1/users/u1/roles/r1"
    m.put(path, status_code=204)
    m.head(path, status_code=204)
    m.delete(path, status_code=204)
    client.roles.grant("r1", "u1", project="p1")
    assert client.roles.has_grant("r1", "u1", project="p1")
    client.roles.revoke("r1", "u1", project="p1")
    assert [r.method for r in m.request_history if "/roles/r1" in r.url] == [
        "PUT",
        "HEAD",
        "DELETE",
    ]
    m.head(IDENTITY + "/domains/d1/users/u1/roles/r1", status_code=404)
    assert not client.roles.has_grant("r1", "u1", domain="d1")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"user": "u1"},
        {"user": "u1", "project": "p1", "domain": "d1"},
        {"project": "p1"},
    ],
)
def test_a_grant_needs_a_user_and_one_target(client, mock_cloud, kwargs):
    with pytest.raises(exceptions.ValidationError):
        client.roles.grant("r1", **{"user": None, **kwargs})
    assert not [r for r in mock_cloud.mock.request_history if "/roles/" in r.url]


def test_role_assignments(client, mock_cloud):
    m = mock_cloud.mock
    m.get(IDENTITY + "/role_assignments", json=sample("role-assignments-list-response.json"))
    got = list(
        client.role_assignments.list(
            user="313233", project="456789", role="123456", effective=True, include_names=True
        )
    )
    assert got[0].role == {"id": "123456"}
    assert m.last_request.qs == {
        "user.id": ["313233"],
        "scope.project.id": ["456789"],
        "role.id": ["123456"],
        "effective": ["true"],
        "include_names": ["true"],
    }
    with pytest.raises(exceptions.ValidationError):
        client.role_assignments.list(project="p", domain="d")


def test_roles_and_domains(client, mock_cloud):
    m = mock_cloud.mock
    m.post(IDENTITY + "/roles", status_code=201, json=sample("role-create-response.json"))
    role = client.roles.create("developer", description="My new role")
    assert m.last_request.json() == sample("role-create-request.json")
    assert role.name == "developer"
    m.post(IDENTITY + "/domains", status_code=201, json=sample("domain-create-response.json"))
    client.domains.create("myDomain", description="Domain description")
    assert m.last_request.json() == sample("domain-create-request.json")
    m.patch(IDENTITY + "/domains/161718", json=sample("domain-update-response.json"))
    client.domains.update("161718", description="Owns users and projects on Identity API v2.")
    assert m.last_request.json() == sample("domain-update-request.json")


# -- commands --------------------------------------------------------------------


def test_project_list_and_show(app, keystone):
    code, out, err = app("project", "list", "-f", "value")
    assert code == 0, err
    assert out.splitlines()[0] == PROJECT + " admin"
    code, out, err = app("project", "show", PROJECT, "-f", "json")
    assert code == 0, err
    assert '"links"' not in out and '"name": "admin"' in out


def test_project_create_with_properties(app, mock_cloud):
    m = mock_cloud.mock
    m.post(IDENTITY + "/projects", status_code=201, json=sample("project-create-response.json"))
    code, out, err = app(
        "project",
        "create",
        "myNewProject",
        "--description",
        "My new project",
        "--property",
        "color=blue",
        "--disable",
        "-f",
        "value",
        "-c",
        "id",
    )
    assert code == 0, err
    assert out.strip() == "93ebbcc35335488b96ff9cd7d18cbb2e"
    assert m.last_request.json() == {
        "project": {
            "name": "myNewProject",
            "description": "My new project",
            "enabled": False,
            "color": "blue",
        }
    }
    code, out, err = app("project", "create", "x", "--property", "novalue")
    assert code == 2 and "--property expects KEY=VALUE" in err


def test_project_create_conflict_and_or_show(app, keystone):
    keystone.post(
        IDENTITY + "/projects",
        **keystone_error(
            409,
            "Conflict occurred attempting to store project - it is not"
            " permitted to have two projects with either the same name or"
            " same id in the same domain: name is demo, project id x.",
        ),
    )
    keystone.get(
        IDENTITY + "/projects/demo", **keystone_error(404, "Could not find project: demo.")
    )
    code, out, err = app("project", "create", "demo")
    assert code == 1 and "(HTTP 409)" in err
    code, out, err = app("project", "create", "demo", "--or-show", "-f", "value", "-c", "name")
    assert (code, out.strip()) == (0, "demo"), err


def test_user_create_never_shows_or_logs_the_password(app, mock_cloud):
    m = mock_cloud.mock
    m.post(IDENTITY + "/users", status_code=201, json=sample("user-create-response.json"))
    code, out, err = app(
        "--debug",
        "user",
        "create",
        "James Doe",
        "--password",
        "secretsecret",
        "--email",
        "jdoe@example.com",
    )
    assert code == 0, err
    assert "secretsecret" not in out + err
    assert m.last_request.json()["user"]["password"] == "secretsecret"


def test_user_create_password_prompt(app, mock_cloud, monkeypatch):
    m = mock_cloud.mock
    m.post(IDENTITY + "/users", status_code=201, json=sample("user-create-response.json"))
    prompts = []

    def fake_getpass(prompt="Password: ", stream=None):
        prompts.append(prompt)
        return "typed-secret"

    monkeypatch.setattr("getpass.getpass", fake_getpass)
    monkeypatch.setattr("sys.stdin", _Tty())
    code, out, err = app("user", "create", "James Doe", "--password-prompt")
    assert code == 0, err
    assert prompts == ["User Password: ", "Repeat User Password: "]
    assert m.last_request.json()["user"]["password"] == "typed-secret"
    assert "typed-secret" not in out + err
    answers = iter(["one", "two"])
    monkeypatch.setattr("getpass.getpass", lambda *a, **k: next(answers))
    code, out, err = app("user", "create", "x", "--password-prompt")
    assert code == 1 and "not the same" in err
    monkeypatch.setattr("sys.stdin", io.StringIO("piped\n"))
    code, out, err = app("user", "create", "x", "--password-prompt")
    assert code == 2 and "needs a terminal" in err
    code, out, err = app("user", "create", "x", "--password", "a", "--password-prompt")
    assert code == 2 and "not both" in err
    assert len(requests_to(m, "POST", "/users")) == 1


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_user_create_resolves_the_default_project(app, keystone):
    keystone.post(IDENTITY + "/users", status_code=201, json=sample("user-create-response.json"))
    code, out, err = app("user", "create", "u", "--project", PROJECT, "--password", PASSWORD)
    assert code == 0, err
    assert keystone.last_request.json()["user"]["default_project_id"] == PROJECT


def test_role_add_and_remove(app, keystone):
    path = IDENTITY + "/projects/%s/users/%s/roles/%s" % (PROJECT, USER, ROLE)
    keystone.put(path, status_code=204)
    keystone.delete(path, status_code=204)
    code, out, err = app("role", "add", "--project", PROJECT, "--user", USER, ROLE)
    assert (code, out) == (0, ""), err
    code, out, err = app("role", "remove", "--project", PROJECT, "--user", USER, ROLE)
    assert (code, out) == (0, ""), err
    assert [r.method for r in keystone.request_history if r.url == path] == ["PUT", "DELETE"]


def test_role_add_checks_before_any_lookup(app, keystone):
    before = len(keystone.request_history)
    code, out, err = app("role", "add", "--user", USER, ROLE)
    assert code == 2
    assert err.strip() == "Give either --project or --domain."
    code, out, err = app("role", "add", "--project", "p", "--domain", "d", "--user", USER, ROLE)
    assert code == 2
    assert not [r for r in keystone.request_history[before:] if "/identity/v3/" in r.url]


def test_role_add_unknown_role(app, keystone):
    keystone.get(IDENTITY + "/roles?name=nosuch", json={"roles": [], "links": {}})
    code, out, err = app("role", "add", "--project", PROJECT, "--user", USER, "nosuch")
    assert code == 1
    assert "No role with a name or ID of 'nosuch' exists." in err


def test_role_list(app, keystone):
    code, out, err = app("role", "list", "-f", "csv")
    assert code == 0, err
    assert out.splitlines()[:2] == ['"ID","Name"', '"5318e65d75574c17bf5339d3df33a5a3","admin"']


def test_role_assignment_list_names(app, keystone):
    body = sample("role-assignments-effective-list-response.json")
    for item in body["role_assignments"]:
        item["role"]["name"] = "admin"
        item["user"].update(name="alice", domain={"id": "d", "name": "Default"})
        scope = item["scope"].get("project") or item["scope"].get("domain")
        scope["name"] = "p1"
        if "project" in item["scope"]:
            scope["domain"] = {"id": "d", "name": "Default"}
    keystone.get(IDENTITY + "/role_assignments", json=body)
    code, out, err = app("role", "assignment", "list", "--names", "--effective", "-f", "csv")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == ('"Role","User","Group","Project","Domain","System","Inherited"')
    assert '"admin","alice@Default","","p1@Default","","",False' in lines
    assert keystone.last_request.qs == {"effective": ["true"], "include_names": ["true"]}


def test_role_assignment_list_auth_user(app, keystone):
    keystone.get(IDENTITY + "/role_assignments", json={"role_assignments": [], "links": {}})
    code, out, err = app("role", "assignment", "list", "--auth-user", "--auth-project")
    assert code == 0, err
    qs = keystone.last_request.qs
    assert set(qs) == {"user.id", "scope.project.id"}


def test_forbidden_is_one_line_exit_1(app, keystone):
    keystone.post(
        IDENTITY + "/projects",
        **keystone_error(
            403, "You are not authorized to perform the requested action: identity:create_project."
        ),
    )
    code, out, err = app("project", "create", "p")
    assert code == 1
    assert err.startswith(
        "You are not authorized to perform the requested"
        " action: identity:create_project. (this operation"
        " needs the admin role"
    )
    assert err.rstrip().endswith("(HTTP 403)") and err.count("\n") == 1


def test_delete_commands_report_each_failure(app, keystone):
    keystone.delete(IDENTITY + "/users/" + USER, status_code=204)
    keystone.get(IDENTITY + "/users?name=nosuch", json={"users": [], "links": {}})
    code, out, err = app("user", "delete", USER, "nosuch")
    assert code == 1
    assert "Failed to delete user nosuch: No user with a name or ID of 'nosuch' exists." in err
    assert requests_to(keystone, "DELETE", "/users/" + USER)


def test_domain_set_needs_a_change(app, keystone):
    code, out, err = app("domain", "set", "default")
    assert code == 2 and "Nothing to change" in err
