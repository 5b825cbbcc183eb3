"""The operator's side (issue 12): projects, users and roles made with the
real CLI, and with openstacksdk, against a local cloud of its own; the two
seeded member projects (``local``: demo, ``local-alt``: alt) kept apart.

Until ``occli.v2.identity.commands.identity_admin`` is listed under
``occli.commands`` in setup.cfg, the ``occli`` fixture adds its commands to
the App itself; afterwards they come from the entry point.
"""

import io
import json
import os

import pytest
import requests

from tests.functional.harness import point_client_at
from tests.functional.harness import start_localcloud


@pytest.fixture(scope="module")
def cloud():
    from occli.localcloud.identity.api.service import IdentityService

    running = start_localcloud(services=[IdentityService])
    yield running
    running.stop()


@pytest.fixture
def occli(cloud, monkeypatch, tmp_path):
    """``occli(*argv, cloud="local-admin", env=None)`` → (exit code,
    stdout, stderr); ``cloud=None`` uses only the ``OS_*`` of ``env``."""
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

    point_client_at(cloud, monkeypatch, tmp_path / "cache")

    def run(*argv, cloud="local-admin", env=None):
        with monkeypatch.context() as patch:
            for key, value in (env or {}).items():
                patch.setenv(key, value)
            if cloud:
                argv = ("--os-cloud", cloud) + argv
            app = App()
            app.stdout, app.stderr = io.StringIO(), io.StringIO()
            code = app.run([str(a) for a in argv])
        return code, app.stdout.getvalue(), app.stderr.getvalue()

    return run


def ok(result):
    code, out, err = result
    assert code == 0, err
    return out


def as_json(result):
    return json.loads(ok(result))


def user_env(cloud, user, password, project):
    return {
        "OS_AUTH_URL": cloud.auth_url,
        "OS_USERNAME": user,
        "OS_PASSWORD": password,
        "OS_PROJECT_NAME": project,
        "OS_USER_DOMAIN_NAME": "Default",
        "OS_PROJECT_DOMAIN_NAME": "Default",
    }


def test_an_operator_onboards_a_team(cloud, occli):
    project = as_json(
        occli("project", "create", "team", "--description", "the team", "-f", "json")
    )
    assert (project["name"], project["domain_id"]) == ("team", "default")
    user = as_json(
        occli(
            "user",
            "create",
            "lead",
            "--password",
            "lead-pw",
            "--project",
            "team",
            "--email",
            "lead@example.com",
            "-f",
            "json",
        )
    )
    assert user["default_project_id"] == project["id"]
    assert "password" not in user
    ok(occli("role", "add", "--project", "team", "--user", "lead", "member"))
    rows = as_json(
        occli("role", "assignment", "list", "--project", "team", "--names", "-f", "json")
    )
    assert [(r["Role"], r["User"], r["Project"]) for r in rows] == [
        ("member", "lead@Default", "team@Default")
    ]
    names = [p["Name"] for p in as_json(occli("project", "list", "-f", "json"))]
    assert names == ["admin", "alt", "demo", "team"]
    users = as_json(occli("user", "list", "--project", "team", "--long", "-f", "json"))
    assert [(u["Name"], u["Email"]) for u in users] == [("lead", "lead@example.com")]
    # the new user works in its project with its own credentials
    env = user_env(cloud, "lead", "lead-pw", "team")
    token = as_json(occli("token", "issue", "-f", "json", cloud=None, env=env))
    assert token["project_id"] == project["id"]
    shown = as_json(occli("project", "show", project["id"], "-f", "json", cloud=None, env=env))
    assert shown["description"] == "the team"
    code, _, err = occli("project", "create", "side", cloud=None, env=env)
    assert code == 1
    assert err.startswith(
        "You are not authorized to perform the requested action: identity:create_project."
    )
    # taking the role away takes the project away
    ok(occli("role", "remove", "--project", "team", "--user", "lead", "member"))
    code, _, err = occli("--no-cache", "token", "issue", cloud=None, env=env)
    assert code == 1 and "(HTTP 401)" in err
    # deleting the user invalidates its tokens
    ok(occli("role", "add", "--project", "team", "--user", "lead", "reader"))
    raw = as_json(occli("--no-cache", "token", "issue", "-f", "json", cloud=None, env=env))["id"]
    me = cloud.auth_url + "/users/" + user["id"]
    assert requests.get(me, headers={"X-Auth-Token": raw}).status_code == 200
    ok(occli("user", "delete", "lead"))
    assert requests.get(me, headers={"X-Auth-Token": raw}).status_code == 401
    ok(occli("project", "delete", "team"))
    assert "team" not in ok(occli("project", "list", "-f", "value"))


def test_the_two_member_projects_are_apart(cloud, occli):
    demo = as_json(occli("token", "issue", "-f", "json", cloud="local"))
    alt = as_json(occli("token", "issue", "-f", "json", cloud="local-alt"))
    assert demo["project_id"] != alt["project_id"]
    mine = as_json(occli("project", "show", alt["project_id"], "-f", "json", cloud="local-alt"))
    assert mine["name"] == "alt"
    for cloud_name, other in (("local-alt", demo), ("local", alt)):
        code, _, err = occli("project", "show", other["project_id"], cloud=cloud_name)
        assert code == 1
        assert "identity:get_project." in err
        code, _, err = occli("user", "show", other["user_id"], cloud=cloud_name)
        assert code == 1 and "identity:get_user." in err
    own = as_json(
        occli("project", "list", "--user", alt["user_id"], "-f", "json", cloud="local-alt")
    )
    assert [p["Name"] for p in own] == ["alt"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (("project", "list"), "identity:list_projects."),
        (("user", "list"), "identity:list_users."),
        (("role", "list"), "identity:list_roles."),
        (("role", "assignment", "list", "--auth-user"), "identity:list_role_assignments."),
        (("user", "create", "intruder", "--password", "x"), "identity:create_user."),
        (("domain", "create", "mine"), "identity:create_domain."),
    ],
)
def test_members_are_refused_admin_commands(occli, argv, message):
    code, out, err = occli(*argv, cloud="local")
    assert (code, out) == (1, "")
    assert message in err


def test_duplicates_are_conflicts(occli):
    ok(occli("project", "create", "twin"))
    code, _, err = occli("project", "create", "twin")
    assert code == 1
    assert (
        "Conflict occurred attempting to store project - it is not"
        " permitted to have two projects with either the same name or"
        " same id in the same domain: name is twin"
    ) in err
    assert "(HTTP 409)" in err
    again = as_json(occli("project", "create", "twin", "--or-show", "-f", "json"))
    assert again["name"] == "twin"
    ok(occli("user", "create", "twin"))
    code, _, err = occli("user", "create", "twin")
    assert (
        code == 1
        and ("Duplicate entry found with name twin at domain ID default. (HTTP 409)") in err
    )
    ok(occli("role", "create", "twin"))
    code, _, err = occli("role", "create", "twin")
    assert code == 1 and "Duplicate entry found with name twin." in err
    ok(occli("domain", "create", "elsewhere"))
    # the same names are free in another domain
    ok(occli("project", "create", "twin", "--domain", "elsewhere"))
    ok(occli("user", "create", "twin", "--domain", "elsewhere"))
    code, _, err = occli("project", "show", "twin")
    assert code == 1 and "More than one project matches name 'twin'" in err
    shown = as_json(occli("project", "show", "twin", "--domain", "elsewhere", "-f", "json"))
    assert shown["domain_id"] != "default"


def test_unknown_names_are_not_found(occli):
    for argv, what in (
        (("project", "show", "nosuch"), "project"),
        (("user", "show", "nosuch"), "user"),
        (("role", "show", "nosuch"), "role"),
        (("domain", "show", "nosuch"), "domain"),
    ):
        code, _, err = occli(*argv)
        assert code == 1
        assert err.strip() == ("No %s with a name or ID of 'nosuch' exists. (HTTP 404)" % what)
    code, _, err = occli("role", "add", "--project", "demo", "--user", "demo", "nosuch")
    assert code == 1 and "No role with a name or ID of 'nosuch'" in err
    code, _, err = occli("role", "remove", "--project", "alt", "--user", "demo", "member")
    assert code == 1
    assert err.startswith("Could not find role assignment with role: ")
    assert "(HTTP 404)" in err


def test_usage_errors_send_nothing(cloud, occli):
    log = os.path.join(cloud.data_dir, "access.log")
    before = os.path.getsize(log)
    code, _, err = occli("role", "add", "--user", "demo", "member")
    assert code == 2 and err.strip() == "Give either --project or --domain."
    code, _, err = occli("user", "create", "x", "--password-prompt")
    assert code == 2 and "needs a terminal" in err
    assert os.path.getsize(log) == before


def test_a_domain_is_disabled_before_it_is_deleted(occli):
    ok(occli("domain", "create", "temporary"))
    ok(occli("project", "create", "inside", "--domain", "temporary"))
    code, _, err = occli("domain", "delete", "temporary")
    assert code == 1
    assert "Cannot delete a domain that is enabled, please disable it first. (HTTP 403)" in err
    ok(occli("domain", "set", "temporary", "--disable"))
    ok(occli("domain", "delete", "temporary"))
    assert "temporary" not in ok(occli("domain", "list", "-f", "value"))
    assert "inside" not in ok(occli("project", "list", "-f", "value"))


def test_openstacksdk_manages_identity(cloud, monkeypatch, tmp_path):
    """openstacksdk's identity proxy against the local cloud's clouds.yaml:
    a project, a user, a role assignment."""
    import openstack

    point_client_at(cloud, monkeypatch, tmp_path / "cache")
    conn = openstack.connect(cloud="local-admin")
    try:
        project = conn.identity.create_project(
            name="sdk-project", domain_id="default", description="from the SDK"
        )
        assert conn.identity.find_project("sdk-project", ignore_missing=False).id == project.id
        user = conn.identity.create_user(
            name="sdk-user", password="sdk-pw", default_project_id=project.id, domain_id="default"
        )
        assert conn.identity.get_user(user).default_project_id == project.id
        role = conn.identity.find_role("member", ignore_missing=False)
        conn.identity.assign_project_role_to_user(project, user, role)
        assert conn.identity.validate_user_has_project_role(project, user, role)
        assignments = list(
            conn.identity.role_assignments(user_id=user.id, scope_project_id=project.id)
        )
        assert [a.role["id"] for a in assignments] == [role.id]
        # the new user logs in to its project
        as_user = openstack.connect(
            auth_url=cloud.auth_url,
            username="sdk-user",
            password="sdk-pw",
            project_id=project.id,
            user_domain_id="default",
        )
        assert as_user.identity.get_project(project.id).name == "sdk-project"
        as_user.close()
        conn.identity.unassign_project_role_from_user(project, user, role)
        assert not conn.identity.validate_user_has_project_role(project, user, role)
        conn.identity.delete_user(user)
        conn.identity.delete_project(project)
        with pytest.raises(openstack.exceptions.NotFoundException):
            conn.identity.find_project("sdk-project", ignore_missing=False)
    finally:
        conn.close()
