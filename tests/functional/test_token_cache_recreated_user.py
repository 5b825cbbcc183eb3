"""A user deleted and recreated under the same name and password (a new user
id), with the token cache on, against a local Keystone of its own: ``token
issue`` gives the new user's token, not the cached one of the deleted user,
and ``application credential list`` lists the new user's credentials
instead of being refused for the deleted user's URL (the operator tour run
twice found both)."""

import io
import json

import pytest

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
    """``occli(*argv, env=None)`` → (exit code, stdout, stderr), the cache on;
    as local-admin unless ``env`` gives the ``OS_*`` of another user."""
    from occli import shell

    point_client_at(cloud, monkeypatch, tmp_path / "cache")

    def run(*argv, env=None):
        with monkeypatch.context() as patch:
            for key, value in (env or {}).items():
                patch.setenv(key, value)
            if env is None:
                argv = ("--os-cloud", "local-admin") + argv
            app = shell.OcCLI()
            app.stdout, app.stderr = io.StringIO(), io.StringIO()
            code = app.run([str(a) for a in argv])
        return code, app.stdout.getvalue(), app.stderr.getvalue()

    return run


def as_json(result):
    code, out, err = result
    assert code == 0, err
    return json.loads(out)


def make_user(occli):
    """The user ``again`` (password ``again-pw``) with ``member`` on the
    project ``again-project``; its id."""
    user = as_json(occli("user", "create", "again", "--password", "again-pw", "-f", "json"))
    assert occli("role", "add", "--user", "again", "--project", "again-project", "member")[0] == 0
    return user["id"]


def test_a_recreated_user_gets_its_own_token_and_urls(cloud, occli):
    as_json(occli("project", "create", "again-project", "-f", "json"))
    env = {
        "OS_AUTH_URL": cloud.auth_url,
        "OS_USERNAME": "again",
        "OS_PASSWORD": "again-pw",
        "OS_PROJECT_NAME": "again-project",
        "OS_USER_DOMAIN_NAME": "Default",
        "OS_PROJECT_DOMAIN_NAME": "Default",
    }
    old_id = make_user(occli)
    first = as_json(occli("token", "issue", "-f", "json", env=env))
    assert first["user_id"] == old_id
    assert as_json(occli("application", "credential", "list", "-f", "json", env=env)) == []

    assert occli("user", "delete", "again")[0] == 0
    new_id = make_user(occli)
    assert new_id != old_id

    token = as_json(occli("token", "issue", "-f", "json", env=env))
    assert token["user_id"] == new_id
    assert token["id"] != first["id"]
    # the deleted user's cached token was replaced: a command that names the
    # token's user in its URL works on the first try
    assert occli("user", "delete", "again")[0] == 0
    newest = make_user(occli)
    made = as_json(occli("application", "credential", "create", "probe", "-f", "json", env=env))
    assert made["Name"] == "probe"
    listed = as_json(occli("application", "credential", "list", "-f", "json", env=env))
    assert [c["ID"] for c in listed] == [made["ID"]]
    owned = as_json(occli("application", "credential", "list", "--user", newest, "-f", "json"))
    assert [c["ID"] for c in owned] == [made["ID"]]  # the new user's, not the deleted's
    assert as_json(occli("token", "issue", "-f", "json", env=env))["user_id"] == newest
