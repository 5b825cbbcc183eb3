"""Token revocation in the local Keystone, as keystone's revoke events
(keystone/revoke/core.py, keystone/identity/core.py ``update_user``,
keystone/token/provider.py ``revoke_token``): a revoked token is refused
at once by every service (the memo of validated tokens lasts only while
nothing is committed: tests/unit/localcloud/test_identity_validated_tokens.py),
``GET``/``HEAD``/``DELETE /v3/auth/tokens`` answer 404 with keystone's
``TokenNotFound`` text, and only the token's user or an admin may revoke
it."""

import json

from tests.unit.localcloud.test_identity_admin import ADMIN_SCOPE
from tests.unit.localcloud.test_identity_admin import new_user

# another service than Keystone (the WSGI test cloud runs no Nova)
GLANCE = "/image/v2/images"


def _subject(token):
    return {"X-Subject-Token": token}


def _error(result):
    return json.loads(result.body)["error"]


def _admin(client):
    from tests.unit.localcloud.test_identity_admin import Admin

    return Admin(client, client.token("admin", scope=ADMIN_SCOPE))


def test_a_revoked_token_is_refused_by_another_service_at_once(client):
    admin = client.token("admin")
    token = client.token()
    assert client.get(GLANCE, token=token).status == 200
    assert client.delete("/v3/auth/tokens", token=token, headers=_subject(token)).status == 204
    assert client.get(GLANCE, token=token).status == 401
    missing = client.get("/v3/auth/tokens", token=admin, headers=_subject(token))
    assert missing.status == 404
    assert _error(missing)["message"] == "Failed to validate token"  # keystone 30's
    assert client.head("/v3/auth/tokens", token=admin, headers=_subject(token)).status == 404
    again = client.delete("/v3/auth/tokens", token=admin, headers=_subject(token))
    assert again.status == 404
    # still refused where an expired token is accepted
    allow = client.get("/v3/auth/tokens?allow_expired=1", token=admin, headers=_subject(token))
    assert allow.status == 404


def test_only_the_owner_or_an_admin_revokes_a_token(client):
    demo = client.token("demo")
    alt = client.token("alt")
    refused = client.delete("/v3/auth/tokens", token=alt, headers=_subject(demo))
    assert refused.status == 403
    assert client.get(GLANCE, token=demo).status == 200
    admin = client.token("admin")
    assert client.delete("/v3/auth/tokens", token=admin, headers=_subject(demo)).status == 204
    assert client.get(GLANCE, token=demo).status == 401
    assert client.get(GLANCE, token=alt).status == 200


def test_revoking_a_token_leaves_the_tokens_exchanged_from_it(client):
    """keystone revokes by the token's own audit id: a token obtained with
    it (the ``token`` method) has another one and stays valid."""
    parent = client.token()
    result = client.post(
        "/v3/auth/tokens",
        json={
            "auth": {
                "identity": {"methods": ["token"], "token": {"id": parent}},
                "scope": {"project": {"name": "demo", "domain": {"id": "default"}}},
            }
        },
    )
    assert result.status == 201
    child = result.header("X-Subject-Token")
    assert client.delete("/v3/auth/tokens", token=parent, headers=_subject(parent)).status == 204
    assert client.get(GLANCE, token=parent).status == 401
    assert client.get(GLANCE, token=child).status == 200


def test_a_password_change_ends_every_old_token_of_the_user(client):
    admin = _admin(client)
    user = new_user(admin, "rotator", password="old-secret")
    admin(
        "PUT",
        "/v3/projects/%s/users/%s/roles/%s"
        % (_project_id(admin, "demo"), user, _role_id(admin, "member")),
    )
    scope = {"project": {"name": "demo", "domain": {"id": "default"}}}
    first = client.token("rotator", password="old-secret", scope=scope)
    second = client.token("rotator", password="old-secret", scope="unscoped")
    other = client.token("demo")
    changed = client.post(
        "/v3/users/%s/password" % user,
        json={"user": {"original_password": "old-secret", "password": "new-secret"}},
    )
    assert changed.status == 204
    assert client.get(GLANCE, token=first).status == 401
    missing = client.get("/v3/auth/tokens", token=other, headers=_subject(second))
    assert missing.status in (403, 404)  # not demo's: refused either way
    assert client.get(GLANCE, token=other).status == 200
    fresh = client.token("rotator", password="new-secret", scope=scope)
    assert client.get(GLANCE, token=fresh).status == 200


def test_disabling_a_user_ends_its_tokens_and_deletes_its_app_credentials(client):
    admin = _admin(client)
    user = new_user(admin, "leaving", password="pw-secret")
    admin(
        "PUT",
        "/v3/projects/%s/users/%s/roles/%s"
        % (_project_id(admin, "demo"), user, _role_id(admin, "member")),
    )
    scope = {"project": {"name": "demo", "domain": {"id": "default"}}}
    token = client.token("leaving", password="pw-secret", scope=scope)
    made = client.post(
        "/v3/users/%s/application_credentials" % user,
        token=token,
        json={"application_credential": {"name": "ci"}},
    )
    assert made.status == 201
    cred = json.loads(made.body)["application_credential"]
    cred_auth = {
        "auth": {
            "identity": {
                "methods": ["application_credential"],
                "application_credential": {"id": cred["id"], "secret": cred["secret"]},
            }
        }
    }
    by_cred = client.post("/v3/auth/tokens", json=cred_auth)
    assert by_cred.status == 201
    cred_token = by_cred.header("X-Subject-Token")
    assert admin("PATCH", "/v3/users/" + user, {"user": {"enabled": False}}).status == 200
    assert client.get(GLANCE, token=token).status == 401
    assert client.get(GLANCE, token=cred_token).status == 401
    refused = client.post("/v3/auth/tokens", json=cred_auth)
    assert refused.status == 404  # keystone 30: the deleted credential is not found
    # enabling the user again brings back neither its tokens nor its
    # application credentials (keystone deletes them on disable)
    assert admin("PATCH", "/v3/users/" + user, {"user": {"enabled": True}}).status == 200
    assert client.get(GLANCE, token=token).status == 401
    assert client.post("/v3/auth/tokens", json=cred_auth).status == 404
    fresh = client.token("leaving", password="pw-secret", scope=scope)
    listed = client.get("/v3/users/%s/application_credentials" % user, token=fresh)
    assert listed.status == 200
    assert json.loads(listed.body)["application_credentials"] == []


def _project_id(admin, name):
    listed = admin("GET", "/v3/projects?name=" + name)
    return json.loads(listed.body)["projects"][0]["id"]


def _role_id(admin, name):
    listed = admin("GET", "/v3/roles?name=" + name)
    return json.loads(listed.body)["roles"][0]["id"]
