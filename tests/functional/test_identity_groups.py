"""Groups with the real CLI and with openstacksdk against a local Keystone
of its own (issue 21): a member of a group with a role on a project gets a
token for it; removing it from the group takes that away; the refusals."""

import io
import json

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


def user_env(cloud, user, password, project):
    return {
        "OS_AUTH_URL": cloud.auth_url,
        "OS_USERNAME": user,
        "OS_PASSWORD": password,
        "OS_PROJECT_NAME": project,
        "OS_USER_DOMAIN_NAME": "Default",
        "OS_PROJECT_DOMAIN_NAME": "Default",
    }


def test_a_groups_role_gives_its_members_the_project(cloud, occli):
    project = as_json(occli("project", "create", "squad", "-f", "json"))
    ok(occli("user", "create", "dev1", "--password", "dev1-pw"))
    ok(occli("user", "create", "dev2", "--password", "dev2-pw"))
    group = as_json(occli("group", "create", "devs", "--description", "developers", "-f", "json"))
    assert set(group) == {"description", "domain_id", "id", "name"}
    assert (group["name"], group["domain_id"]) == ("devs", "default")
    again = as_json(occli("group", "create", "devs", "--or-show", "-f", "json"))
    assert again["id"] == group["id"]
    ok(occli("role", "add", "--group", "devs", "--project", "squad", "member"))
    env = user_env(cloud, "dev1", "dev1-pw", "squad")
    code, _, err = occli("--no-cache", "token", "issue", cloud=None, env=env)
    assert code == 1 and "(HTTP 401)" in err
    ok(occli("group", "add", "user", "devs", "dev1", "dev2"))
    assert ok(occli("group", "contains", "user", "devs", "dev1")) == "dev1 in group devs\n"
    listed = as_json(occli("group", "list", "--user", "dev1", "--long", "-f", "json"))
    assert [(g["Name"], g["Description"]) for g in listed] == [("devs", "developers")]
    members = ok(occli("user", "list", "-f", "value", "-c", "Name"))
    assert "dev1" in members.split()
    token = as_json(occli("--no-cache", "token", "issue", "-f", "json", cloud=None, env=env))
    assert token["project_id"] == project["id"]
    rows = as_json(occli("role", "assignment", "list", "--group", "devs", "--names", "-f", "json"))
    assert [(r["Role"], r["Group"], r["Project"]) for r in rows] == [
        ("member", "devs@Default", "squad@Default")
    ]
    effective = as_json(
        occli(
            "role",
            "assignment",
            "list",
            "--project",
            "squad",
            "--effective",
            "--names",
            "-f",
            "json",
        )
    )
    assert sorted((r["Role"], r["User"]) for r in effective) == [
        ("member", "dev1@Default"),
        ("member", "dev2@Default"),
        ("reader", "dev1@Default"),
        ("reader", "dev2@Default"),
    ]
    # out of the group: the token stops working, and no new one
    me = cloud.auth_url + "/auth/tokens"
    headers = {"X-Auth-Token": token["id"], "X-Subject-Token": token["id"]}
    assert requests.get(me, headers=headers).status_code == 200
    ok(occli("group", "remove", "user", "devs", "dev1"))
    assert requests.get(me, headers=headers).status_code == 401
    code, _, err = occli("--no-cache", "token", "issue", cloud=None, env=env)
    assert code == 1 and "(HTTP 401)" in err
    code, out, err = occli("group", "contains", "user", "devs", "dev1")
    assert (code, out, err) == (0, "", "dev1 not in group devs\n")
    # deleting the group takes its role from the others
    env2 = user_env(cloud, "dev2", "dev2-pw", "squad")
    ok(occli("--no-cache", "token", "issue", cloud=None, env=env2))
    ok(occli("group", "set", "devs", "--name", "developers"))
    ok(occli("group", "delete", "developers"))
    code, _, err = occli("--no-cache", "token", "issue", cloud=None, env=env2)
    assert code == 1 and "(HTTP 401)" in err
    for name in ("dev1", "dev2"):
        ok(occli("user", "delete", name))
    ok(occli("project", "delete", "squad"))


def test_group_refusals(cloud, occli):
    ok(occli("group", "create", "ops"))
    code, _, err = occli("group", "create", "ops")
    assert code == 1
    assert err.startswith(
        "Conflict occurred attempting to store group - Duplicate entry found with name ops"
        " at domain ID default."
    )
    code, _, err = occli("group", "show", "nosuch")
    assert code == 1 and "No group with a name or ID of 'nosuch' exists." in err
    code, _, err = occli("group", "add", "user", "ops", "nosuch")
    assert code == 1 and "Failed to add user nosuch to group ops" in err
    code, _, err = occli("group", "remove", "user", "ops", "demo")
    assert code == 1 and "not found in group" in err
    code, _, err = occli("group", "set", "ops")
    assert (code, err.strip()) == (2, "Nothing to change: give --name or --description.")
    code, _, err = occli(
        "role", "add", "--group", "ops", "--user", "demo", "--project", "demo", "member"
    )
    assert (code, err.strip()) == (2, "Give --user or --group, not both.")
    code, _, err = occli("role", "assignment", "list", "--group", "ops", "--effective")
    assert code == 2 and err.startswith("Give --group or --effective, not both")
    # a member manages no group, reads none, and lists only its own
    for argv, action in (
        (("group", "create", "mine"), "create_group"),
        (("group", "list"), "list_groups"),
        (("group", "delete", "ops"), "delete_group"),
    ):
        code, _, err = occli(*argv, cloud="local")
        assert code == 1, argv
        assert "identity:%s." % action in err, err
    # by id: a member may not look users up by name (OSC alike)
    me = as_json(occli("token", "issue", "-f", "json", cloud="local"))["user_id"]
    assert as_json(occli("group", "list", "--user", me, "-f", "json", cloud="local")) == []
    code, out, err = occli("group", "contains", "user", "ops", "demo", cloud="local")
    assert (code, out, err.splitlines()[-1]) == (0, "", "demo not in group ops")
    ok(occli("group", "delete", "ops"))


def test_openstacksdk_manages_groups(cloud, monkeypatch, tmp_path):
    """openstacksdk's identity proxy: a group, a member, a project role."""
    import openstack

    point_client_at(cloud, monkeypatch, tmp_path / "cache")
    conn = openstack.connect(cloud="local-admin")
    try:
        group = conn.identity.create_group(name="sdk-group", domain_id="default")
        assert conn.identity.find_group("sdk-group", ignore_missing=False).id == group.id
        user = conn.identity.create_user(name="sdk-member", password="pw", domain_id="default")
        conn.identity.add_user_to_group(user, group)
        assert conn.identity.check_user_in_group(user, group)
        assert [g.id for g in conn.identity.user_groups(user)] == [group.id]
        project = conn.identity.find_project("demo", ignore_missing=False)
        role = conn.identity.find_role("reader", ignore_missing=False)
        conn.identity.assign_project_role_to_group(project, group, role)
        assert conn.identity.validate_group_has_project_role(project, group, role)
        conn.identity.unassign_project_role_from_group(project, group, role)
        assert not conn.identity.validate_group_has_project_role(project, group, role)
        conn.identity.remove_user_from_group(user, group)
        assert not conn.identity.check_user_in_group(user, group)
        conn.identity.delete_group(group)
        conn.identity.delete_user(user)
        with pytest.raises(openstack.exceptions.NotFoundException):
            conn.identity.find_group("sdk-group", ignore_missing=False)
    finally:
        conn.close()
