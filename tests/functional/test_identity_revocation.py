"""Token revocation end to end: ``token revoke`` and ``user password
set`` against a fresh local cloud, the old tokens refused by Nova at once."""

import json

import requests


def _nova(local_cloud, token):
    return requests.get(
        local_cloud.url + "/compute/v2.1/flavors", headers={"X-Auth-Token": token}
    ).status_code


def _token(local_cloud, name, password):
    result = requests.post(
        local_cloud.url + "/v3/auth/tokens",
        json={
            "auth": {
                "identity": {
                    "methods": ["password"],
                    "password": {
                        "user": {"name": name, "domain": {"id": "default"}, "password": password}
                    },
                },
                "scope": {"project": {"name": "demo", "domain": {"id": "default"}}},
            }
        },
    )
    assert result.status_code == 201, result.text
    return result.headers["X-Subject-Token"]


def test_a_revoked_token_is_refused_by_nova_at_once(local_cloud, run_occli):
    token = _token(local_cloud, "demo", local_cloud.cloud.config.demo_password)
    assert _nova(local_cloud, token) == 200
    code, out, err = run_occli("token", "revoke", token)
    assert code == 0, err
    assert _nova(local_cloud, token) == 401
    code, out, err = run_occli("token", "revoke", token)
    assert code == 1 and "Failed to validate token" in err


def test_a_password_change_ends_the_old_tokens(local_cloud, run_occli):
    admin = ("--os-cloud", "local-admin")
    code, out, err = run_occli(*admin, "user", "create", "--password", "old-pw-1", "rotor")
    assert code == 0, err
    code, out, err = run_occli(
        *admin, "role", "add", "--user", "rotor", "--project", "demo", "member"
    )
    assert code == 0, err
    old = _token(local_cloud, "rotor", "old-pw-1")
    assert _nova(local_cloud, old) == 200
    code, out, err = run_occli(
        "--os-username",
        "rotor",
        "--os-password",
        "old-pw-1",
        "user",
        "password",
        "set",
        "--original-password",
        "old-pw-1",
        "--password",
        "new-pw-2",
    )
    assert code == 0, err
    assert _nova(local_cloud, old) == 401
    assert _nova(local_cloud, _token(local_cloud, "rotor", "new-pw-2")) == 200
    code, out, err = run_occli(*admin, "user", "show", "rotor", "-f", "json")
    assert json.loads(out)["name"] == "rotor"
