"""``token revoke``, ``project set``, ``user set``, ``user password set``
and ``role set`` (requests-mock, keystone's samples): the requests they
make, what they refuse before any request, and that no password they send
reaches the output or the debug log."""

import copy
import io
import logging

import pytest

from .fakes import BASE
from .fakes import TOKEN
from .fakes import load_fixture
from .fakes import requests_to
from .fakes import token_body

IDENTITY = BASE + "/identity/v3"
PROJECT = "0c4e939acacf4376bdcd1129f1a054ad"  # project-show-response.json
USER = "9fe1d3"  # user-show-response.json
ROLE = "1e443fa8cee3482a8a2b6954dd5c8f12"  # role-show-response.json


def sample(name):
    return copy.deepcopy(load_fixture("identity", "admin", name))


@pytest.fixture
def keystone(mock_cloud):
    """The admin samples served by id, and their PATCHes."""
    m = mock_cloud.mock
    m.get(IDENTITY + "/projects/" + PROJECT, json=sample("project-show-response.json"))
    m.patch(IDENTITY + "/projects/" + PROJECT, json=sample("project-update-response.json"))
    m.get(IDENTITY + "/users/" + USER, json=sample("user-show-response.json"))
    m.patch(IDENTITY + "/users/" + USER, json=sample("user-update-response.json"))
    m.get(IDENTITY + "/roles/" + ROLE, json=sample("role-show-response.json"))
    m.patch(IDENTITY + "/roles/" + ROLE, json=sample("role-show-response.json"))
    return m


class _Tty(io.StringIO):
    def isatty(self):
        return True


def _patches(m, path):
    return [r.json() for r in requests_to(m, "PATCH", path)]


# -- token revoke --------------------------------------------------------------


def test_token_revoke_sends_the_token_as_subject(cli, mock_cloud):
    m = mock_cloud.mock
    m.delete(IDENTITY + "/auth/tokens", status_code=204)
    code, out, err = cli("token", "revoke", "gAAAAAB-other-token")
    assert code == 0, err
    sent = requests_to(m, "DELETE", "/auth/tokens")
    assert len(sent) == 1
    assert sent[0].headers["X-Subject-Token"] == "gAAAAAB-other-token"
    assert sent[0].headers["X-Auth-Token"] == TOKEN


def test_token_revoke_of_an_unknown_token_is_not_found(cli, mock_cloud):
    mock_cloud.mock.delete(
        IDENTITY + "/auth/tokens",
        status_code=404,
        json={"error": {"code": 404, "title": "Not Found", "message": "Could not find token: x."}},
    )
    code, out, err = cli("token", "revoke", "x")
    assert code == 1
    assert "Could not find token: x." in err


def test_token_revoke_needs_the_token(cli, mock_cloud):
    code, out, err = cli("token", "revoke")
    assert code == 2
    assert not requests_to(mock_cloud.mock, "DELETE", "/auth/tokens")


# -- project set ---------------------------------------------------------------


def test_project_set_patches_the_given_attributes(cli, keystone):
    code, out, err = cli(
        "project", "set", PROJECT, "--name", "renamed", "--disable", "--property", "tier=gold"
    )
    assert code == 0, err
    assert out == ""
    assert _patches(keystone, "/projects/" + PROJECT) == [
        {"project": {"name": "renamed", "enabled": False, "tier": "gold"}}
    ]
    code, out, err = cli("project", "set", PROJECT, "--enable", "--description", "d")
    assert code == 0, err
    assert _patches(keystone, "/projects/" + PROJECT)[-1] == {
        "project": {"description": "d", "enabled": True}
    }


@pytest.mark.parametrize(
    "argv",
    [
        ("project", "set", PROJECT),
        ("project", "set", PROJECT, "--property", "novalue"),
    ],
)
def test_project_set_refusals_make_no_request(cli, keystone, argv):
    code, out, err = cli(*argv)
    assert code == 2, err
    assert not requests_to(keystone, "PATCH", "/projects/" + PROJECT)


# -- user set ------------------------------------------------------------------


def test_user_set_patches_and_never_shows_the_password(cli, keystone, caplog):
    caplog.set_level(logging.DEBUG)
    code, out, err = cli(
        "--debug",
        "user",
        "set",
        USER,
        "--password",
        "n3w-Secret-pw",
        "--email",
        "a@example.com",
        "--project",
        PROJECT,
        "--disable",
    )
    assert code == 0, err
    assert _patches(keystone, "/users/" + USER) == [
        {
            "user": {
                "password": "n3w-Secret-pw",
                "email": "a@example.com",
                "default_project_id": PROJECT,
                "enabled": False,
            }
        }
    ]
    assert "n3w-Secret-pw" not in out + err + caplog.text


def test_user_set_password_prompt(cli, keystone, monkeypatch):
    prompts = []

    def fake_getpass(prompt="Password: ", stream=None):
        prompts.append(prompt)
        return "typed-secret"

    monkeypatch.setattr("getpass.getpass", fake_getpass)
    monkeypatch.setattr("sys.stdin", _Tty())
    code, out, err = cli("user", "set", USER, "--password-prompt")
    assert code == 0, err
    assert prompts == ["User Password: ", "Repeat User Password: "]
    assert _patches(keystone, "/users/" + USER) == [{"user": {"password": "typed-secret"}}]


@pytest.mark.parametrize(
    "argv, text",
    [
        (("user", "set", USER), "Nothing to change"),
        (("user", "set", USER, "--password", "a", "--password-prompt"), "not both"),
        (("user", "set", USER, "--password-prompt"), "needs a terminal"),
    ],
)
def test_user_set_refusals_make_no_request(cli, keystone, monkeypatch, argv, text):
    monkeypatch.setattr("sys.stdin", io.StringIO("piped\n"))
    code, out, err = cli(*argv)
    assert code == 2 and text in err
    assert not requests_to(keystone, "PATCH", "/users/" + USER)


# -- user password set ---------------------------------------------------------

ME = token_body()["token"]["user"]["id"]


def test_user_password_set_posts_both_passwords_for_the_token_user(cli, mock_cloud, caplog):
    m = mock_cloud.mock
    m.post(IDENTITY + "/users/%s/password" % ME, status_code=204)
    caplog.set_level(logging.DEBUG)
    code, out, err = cli(
        "--debug",
        "user",
        "password",
        "set",
        "--original-password",
        "old-Secret-pw",
        "--password",
        "n3w-Secret-pw",
    )
    assert code == 0, err
    sent = requests_to(m, "POST", "/users/%s/password" % ME)
    assert [r.json() for r in sent] == [
        {"user": {"original_password": "old-Secret-pw", "password": "n3w-Secret-pw"}}
    ]
    for secret in ("old-Secret-pw", "n3w-Secret-pw"):
        assert secret not in out + err + caplog.text


def test_user_password_set_asks_on_a_terminal(cli, mock_cloud, monkeypatch):
    m = mock_cloud.mock
    m.post(IDENTITY + "/users/%s/password" % ME, status_code=204)
    answers = {
        "Current Password: ": "old",
        "New Password: ": "new",
        "Repeat New Password: ": "new",
    }
    prompts = []

    def fake_getpass(prompt="Password: ", stream=None):
        prompts.append(prompt)
        return answers[prompt]

    monkeypatch.setattr("getpass.getpass", fake_getpass)
    monkeypatch.setattr("sys.stdin", _Tty())
    code, out, err = cli("user", "password", "set")
    assert code == 0, err
    assert prompts == ["Current Password: ", "New Password: ", "Repeat New Password: "]
    assert requests_to(m, "POST", "/password")[0].json() == {
        "user": {"original_password": "old", "password": "new"}
    }


@pytest.mark.parametrize(
    "argv, text",
    [
        (("--password", "new"), "give --original-password"),
        (("--original-password", "old"), "give --password"),
    ],
)
def test_user_password_set_without_a_terminal_refuses(cli, mock_cloud, monkeypatch, argv, text):
    monkeypatch.setattr("sys.stdin", io.StringIO("piped\n"))
    code, out, err = cli("user", "password", "set", *argv)
    assert code == 2 and text in err
    assert not requests_to(mock_cloud.mock, "POST", "/password")


def test_user_password_set_wrong_original_is_refused(cli, mock_cloud):
    mock_cloud.mock.post(
        IDENTITY + "/users/%s/password" % ME,
        status_code=401,
        json={
            "error": {
                "code": 401,
                "title": "Unauthorized",
                "message": "The request you have made requires authentication.",
            }
        },
    )
    code, out, err = cli("user", "password", "set", "--original-password", "x", "--password", "y")
    assert code == 1
    assert "requires authentication" in err


# -- role set ------------------------------------------------------------------


def test_role_set(cli, keystone):
    code, out, err = cli("role", "set", ROLE, "--name", "auditor", "--description", "Reads")
    assert code == 0, err
    assert _patches(keystone, "/roles/" + ROLE) == [
        {"role": {"name": "auditor", "description": "Reads"}}
    ]
    code, out, err = cli("role", "set", ROLE)
    assert code == 2 and "Nothing to change" in err
    assert len(_patches(keystone, "/roles/" + ROLE)) == 1


@pytest.mark.parametrize("key", ["password", "original_password", "OS-X:password"])
def test_every_password_key_is_redacted(key):
    from occli import redaction

    text = redaction.redact('{"user": {"%s": "s3cret", "password_expires_at": null}}' % key)
    assert "s3cret" not in text and '"password_expires_at": null' in text


def _logins(m):
    return len(requests_to(m, "POST", "/auth/tokens"))


def test_revoking_the_token_in_use_drops_it_from_the_cache(cli, mock_cloud):
    m = mock_cloud.mock
    m.delete(IDENTITY + "/auth/tokens", status_code=204)
    assert cli("token", "issue")[0] == 0
    assert cli("token", "issue")[0] == 0
    assert _logins(m) == 1  # the second from the cache
    code, out, err = cli("token", "revoke", TOKEN)
    assert code == 0, err
    assert cli("token", "issue")[0] == 0
    assert _logins(m) == 2  # the revoked token was not kept
    code, out, err = cli("token", "revoke", "another-token")
    assert code == 0, err
    assert cli("token", "issue")[0] == 0
    assert _logins(m) == 2  # another token: the one in use is kept


def test_a_password_change_drops_the_cached_token(cli, mock_cloud):
    m = mock_cloud.mock
    m.post(IDENTITY + "/users/%s/password" % ME, status_code=204)
    assert cli("token", "issue")[0] == 0
    code, out, err = cli("user", "password", "set", "--original-password", "a", "--password", "b")
    assert code == 0, err
    assert cli("token", "issue")[0] == 0
    assert _logins(m) == 2
