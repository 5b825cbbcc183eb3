"""System scope with the real CLI against a local Keystone of its own
(issue 21): ``--os-system-scope all`` gets a system-scoped token, cached
apart from the project-scoped one; a system reader lists users but cannot
create one; a user without a system role is refused the scope."""

import io
import json

import pytest

from tests.functional.harness import point_client_at
from tests.functional.harness import start_localcloud

PASSWORD = "auditor-pass-1"


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
    from occli import shell

    point_client_at(cloud, monkeypatch, tmp_path / "cache")

    def run(*argv, cloud="local-admin", env=None):
        with monkeypatch.context() as patch:
            for key, value in (env or {}).items():
                patch.setenv(key, value)
            if cloud:
                argv = ("--os-cloud", cloud) + argv
            app = shell.OcCLI()
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


def system_env(cloud, user, password):
    """``OS_*`` of a system-scoped login (no project)."""
    return {
        "OS_AUTH_URL": cloud.auth_url,
        "OS_USERNAME": user,
        "OS_PASSWORD": password,
        "OS_USER_DOMAIN_ID": "default",
        "OS_SYSTEM_SCOPE": "all",
        "OS_IDENTITY_API_VERSION": "3",
    }


def test_the_system_token_is_cached_apart(occli):
    system = as_json(occli("token", "issue", "-f", "json", cloud="local-system-admin"))
    assert (system["system"], system["project_id"]) == ("all", None)
    project = as_json(occli("token", "issue", "-f", "json"))
    assert project["project_id"] and "system" not in project
    assert project["id"] != system["id"]
    again = as_json(occli("token", "issue", "-f", "json", cloud="local-system-admin"))
    assert again["id"] == system["id"]
    env = {"OS_CLOUD": "local-system-admin"}
    assert (
        as_json(occli("token", "issue", "-f", "json", cloud=None, env=env))["id"] == system["id"]
    )


def test_os_system_scope_option(occli, cloud):
    env = system_env(cloud, "admin", cloud.config.admin_password)
    del env["OS_SYSTEM_SCOPE"]
    issued = as_json(
        occli("--os-system-scope", "all", "token", "issue", "-f", "json", cloud=None, env=env)
    )
    assert (issued["system"], issued["project_id"]) == ("all", None)


def test_clouds_yaml_has_the_system_admin(occli):
    users = as_json(occli("user", "list", "-f", "json", cloud="local-system-admin"))
    assert {"admin", "demo", "alt"} <= {u["Name"] for u in users}


def test_a_project_and_the_system_scope_together_are_refused(occli):
    # keystoneauth's own refusal, as with OSC: clouds.yaml's project stays
    code, _, err = occli("--os-system-scope", "all", "token", "issue")
    assert code == 1
    assert "Authentication cannot be scoped to multiple targets" in err


def test_system_reader_lists_users_but_cannot_create(occli, cloud):
    ok(occli("user", "create", "auditor", "--password", PASSWORD))
    ok(occli("role", "add", "--user", "auditor", "--system", "all", "reader"))
    env = system_env(cloud, "auditor", PASSWORD)
    issued = as_json(occli("token", "issue", "-f", "json", cloud=None, env=env))
    assert issued["system"] == "all"
    names = {u["Name"] for u in as_json(occli("user", "list", "-f", "json", cloud=None, env=env))}
    assert {"admin", "demo", "auditor"} <= names
    code, _, err = occli("user", "create", "intruder", cloud=None, env=env)
    assert code == 1
    assert "identity:create_user" in err
    listed = as_json(
        occli("role", "assignment", "list", "--system", "all", "--names", "-f", "json")
    )
    assert {"auditor@Default", "admin@Default"} <= {a["User"] for a in listed}
    assert {a["System"] for a in listed} == {"all"}
    ok(occli("role", "remove", "--user", "auditor", "--system", "all", "reader"))
    # the cached token lost its only system role: refused, and so is a new login
    code, _, err = occli("user", "list", cloud=None, env=env)
    assert code == 1
    assert "has no access to the system" in err


def test_a_user_without_a_system_role_is_refused(occli, cloud):
    env = system_env(cloud, "demo", cloud.config.demo_password)
    code, _, err = occli("token", "issue", cloud=None, env=env)
    assert code == 1
    assert "has no access to the system" in err


def test_implied_roles_with_the_cli(occli, cloud):
    listed = as_json(occli("implied", "role", "list", "-f", "json"))
    pairs = {(r["Prior Role Name"], r["Implied Role Name"]) for r in listed}
    assert pairs == {("admin", "manager"), ("manager", "member"), ("member", "reader")}
    assert set(listed[0]) == {
        "Prior Role ID",
        "Prior Role Name",
        "Implied Role ID",
        "Implied Role Name",
    }
    ok(occli("role", "create", "operator"))
    ok(occli("role", "create", "observer"))
    made = as_json(
        occli("implied", "role", "create", "operator", "--implied-role", "observer", "-f", "json")
    )
    assert set(made) == {"implies", "prior_role"}
    ok(occli("user", "create", "oper", "--password", PASSWORD))
    ok(occli("role", "add", "--user", "oper", "--project", "demo", "operator"))
    env = {
        "OS_AUTH_URL": cloud.auth_url,
        "OS_USERNAME": "oper",
        "OS_PASSWORD": PASSWORD,
        "OS_PROJECT_NAME": "demo",
        "OS_USER_DOMAIN_NAME": "Default",
        "OS_PROJECT_DOMAIN_NAME": "Default",
    }
    ok(occli("token", "issue", cloud=None, env=env))
    mine = as_json(
        occli(
            "role", "assignment", "list", "--user", "oper", "--effective", "--names", "-f", "json"
        )
    )
    assert {"operator", "observer"} <= {a["Role"] for a in mine}
    # an admin role cannot be implied; a member cannot make rules
    code, _, err = occli("implied", "role", "create", "operator", "--implied-role", "admin")
    assert code == 1 and "cannot be an implied roles" in err
    # (by ids: a member cannot look roles up by name)
    ids = [as_json(occli("role", "show", r, "-f", "json"))["id"] for r in ("operator", "reader")]
    code, _, err = occli(
        "implied", "role", "create", ids[0], "--implied-role", ids[1], cloud="local"
    )
    assert code == 1 and "identity:create_implied_role" in err
    ok(occli("implied", "role", "delete", "operator", "--implied-role", "observer"))
    code, _, err = occli("implied", "role", "delete", "operator", "--implied-role", "observer")
    assert code == 1 and "does not imply" in err


def test_openstacksdk_system_roles_and_a_system_cloud(cloud, monkeypatch, tmp_path):
    """openstacksdk's identity proxy grants a system role; the clouds.yaml
    entry ``local-system-admin`` gives openstacksdk a system-scoped token."""
    import openstack

    point_client_at(cloud, monkeypatch, tmp_path / "sdk-cache")
    conn = openstack.connect(cloud="local-admin")
    system = openstack.connect(cloud="local-system-admin")
    try:
        user = conn.identity.create_user(name="sdk-operator", password="pw", domain_id="default")
        role = conn.identity.find_role("reader", ignore_missing=False)
        conn.identity.assign_system_role_to_user(user, role, "all")
        assert conn.identity.validate_user_has_system_role(user, role, "all")
        conn.identity.unassign_system_role_from_user(user, role, "all")
        assert not conn.identity.validate_user_has_system_role(user, role, "all")
        access = system.session.auth.get_access(system.session)
        assert access.system_scoped and access.project_id is None
        assert "sdk-operator" in {u.name for u in system.identity.users()}
    finally:
        conn.close()
        system.close()
