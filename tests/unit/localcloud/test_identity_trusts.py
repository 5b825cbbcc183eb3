"""Keystone trusts in the local cloud (``/v3/OS-TRUST/trusts``) and
trust-scoped tokens: demo (the trustor, a member of project demo)
delegates its member role there to alt (the trustee), who then acts in
demo's project; keystone's texts for every refusal (keystone/api/trusts.py,
trust/core.py, models/token_model.py, auth/plugins/token.py)."""

import pytest

from tests.unit.localcloud.test_identity_admin import ADMIN_SCOPE
from tests.unit.localcloud.test_identity_admin import Admin
from tests.unit.localcloud.test_identity_admin import error
from tests.unit.localcloud.test_identity_app_credentials import ac_token
from tests.unit.localcloud.test_identity_app_credentials import create as create_cred
from tests.unit.localcloud.test_identity_app_credentials import pid
from tests.unit.localcloud.test_identity_app_credentials import uid

TRUSTS = "/v3/OS-TRUST/trusts"
DENIED = "You are not authorized to perform the requested action: %s."


@pytest.fixture
def admin(client):
    return Admin(client, client.token("admin", scope=ADMIN_SCOPE))


def trust_body(client, **fields):
    body = {
        "trustor_user_id": uid(client, "demo"),
        "trustee_user_id": uid(client, "alt"),
        "impersonation": False,
        "project_id": pid(client, "demo"),
        "roles": [{"name": "member"}],
    }
    body.update(fields)
    return {"trust": body}


def make_trust(client, token=None, **fields):
    result = client.post(
        TRUSTS, token=token or client.token("demo"), json=trust_body(client, **fields)
    )
    assert result.status == 201, result.body
    return result.json()["trust"]


def trust_auth(client, trust_id, user="alt"):
    return client.authenticate(user, scope={"OS-TRUST:trust": {"id": trust_id}})


def trust_token(client, trust_id, user="alt"):
    result = trust_auth(client, trust_id, user)
    assert result.status == 201, result.body
    return result.header("X-Subject-Token"), result.json()["token"]


def test_create_shows_keystones_fields(client):
    trust = make_trust(client, remaining_uses=3, expires_at="2099-01-02T03:04:05.000000Z")
    assert set(trust) == {
        "id",
        "trustor_user_id",
        "trustee_user_id",
        "project_id",
        "impersonation",
        "expires_at",
        "remaining_uses",
        "redelegated_trust_id",
        "redelegation_count",
        "deleted_at",
        "roles",
        "roles_links",
        "links",
    }
    assert trust["expires_at"] == "2099-01-02T03:04:05.000000Z"
    assert trust["remaining_uses"] == 3 and trust["impersonation"] is False
    assert [r["name"] for r in trust["roles"]] == ["member"]
    assert trust["links"]["self"].endswith(TRUSTS + "/" + trust["id"])
    assert trust["roles_links"]["self"].endswith(TRUSTS + "/%s/roles" % trust["id"])


def test_the_trustee_acts_in_the_trustors_project(client):
    trust = make_trust(client)
    raw, token = trust_token(client, trust["id"])
    assert token["user"]["id"] == uid(client, "alt")
    assert token["project"]["id"] == pid(client, "demo")
    assert "is_domain" not in token
    assert [r["name"] for r in token["roles"]] == ["member", "reader"]
    assert token["OS-TRUST:trust"] == {
        "id": trust["id"],
        "impersonation": False,
        "trustee_user": {"id": uid(client, "alt")},
        "trustor_user": {"id": uid(client, "demo")},
    }
    assert client.get("/image/v2/images", token=raw).status == 200


def test_impersonation_makes_the_token_the_trustors(client):
    trust = make_trust(client, impersonation=True)
    _, token = trust_token(client, trust["id"])
    assert token["user"]["id"] == uid(client, "demo")
    assert token["OS-TRUST:trust"]["impersonation"] is True


def test_remaining_uses_are_used_up_one_per_token(client):
    trust = make_trust(client, remaining_uses=1)
    trust_token(client, trust["id"])
    again = trust_auth(client, trust["id"])
    assert again.status == 404
    assert error(again) == "Could not find trust: %s." % trust["id"]
    shown = client.get(TRUSTS + "/" + trust["id"], token=client.token("demo"))
    assert shown.status == 404


def test_an_expired_trust_is_not_found(client, clock):
    trust = make_trust(client, expires_at="2099-01-01T00:00:00Z")
    clock.advance(100 * 365 * 24 * 3600)
    assert trust_auth(client, trust["id"]).status == 404


def test_a_token_never_outlives_its_trust(client):
    trust = make_trust(client, expires_at="2099-01-01T00:00:00Z")
    assert trust_token(client, trust["id"])[1]["expires_at"] <= "2099-01-01T00:00:00.000000Z"


def test_only_the_trustee_gets_a_trust_token(client):
    trust = make_trust(client)
    result = trust_auth(client, trust["id"], user="demo")
    assert result.status == 403
    assert error(result) == "User is not a trustee."
    missing = client.authenticate("alt", scope={"OS-TRUST:trust": {}})
    assert missing.status == 400
    assert error(missing).startswith("Expecting to find trust_id in trust.")


def test_a_trustor_losing_the_role_ends_the_trust_tokens(client, admin):
    trust = make_trust(client)
    raw, _ = trust_token(client, trust["id"])
    demo, project = uid(client, "demo"), pid(client, "demo")
    (member,) = admin("GET", "/v3/roles?name=member").json()["roles"]
    revoked = admin("DELETE", "/v3/projects/%s/users/%s/roles/%s" % (project, demo, member["id"]))
    assert revoked.status == 204
    assert client.get("/image/v2/images", token=raw).status == 401


def test_deleting_the_trust_ends_its_tokens(client):
    trust = make_trust(client)
    raw, _ = trust_token(client, trust["id"])
    demo = client.token("demo")
    refused = client.delete(TRUSTS + "/" + trust["id"], token=client.token("alt"))
    assert refused.status == 403
    assert error(refused) == DENIED % "identity:delete_trust"
    assert client.delete(TRUSTS + "/" + trust["id"], token=demo).status == 204
    assert client.get("/image/v2/images", token=raw).status == 401
    assert client.get(TRUSTS + "/" + trust["id"], token=demo).status == 404


def test_a_trust_token_cannot_be_exchanged_nor_make_credentials(client):
    trust = make_trust(client)
    raw, _ = trust_token(client, trust["id"])
    auth = {"identity": {"methods": ["token"], "token": {"id": raw}}}
    exchanged = client.post("/v3/auth/tokens", json={"auth": auth})
    assert exchanged.status == 403
    assert error(exchanged) == DENIED % (
        "Using trust-scoped token to create another token. Create a new trust-scoped token instead"
    )
    cred = create_cred(client, raw, uid(client, "alt"), expect=403)
    assert error(cred) == (
        "Cannot manage application credentials with a token issued via delegation."
    )


def test_an_application_credential_cannot_manage_trusts(client):
    demo = client.token("demo")
    body = create_cred(client, demo, uid(client, "demo"), unrestricted=True).json()
    raw = ac_token(client, body["application_credential"])
    result = client.post(TRUSTS, token=raw, json=trust_body(client))
    assert result.status == 403
    assert error(result) == DENIED % (
        "Using method 'application_credential' is not allowed for managing trusts."
    )
    assert client.get(TRUSTS + "?trustor_user_id=" + uid(client, "demo"), token=raw).status == 403


# keystone.exception.ValidationExpirationError (keystone-30-app_credentials.json)
EXPIRED = (
    "The 'expires_at' must not be before now. The server could not comply with the request"
    " since it is either malformed or otherwise incorrect. The client is assumed to be in error."
)


@pytest.mark.parametrize(
    "fields, status, message",
    [
        ({"roles": []}, 403, DENIED % "At least one role should be specified"),
        ({"trustor_user_id": "someone"}, 403, DENIED % "identity:create_trust"),
        ({"trustee_user_id": "nosuch"}, 404, "Could not find user: nosuch."),
        ({"roles": [{"name": "nosuch"}]}, 404, "Could not find role: nosuch."),
        ({"remaining_uses": 0}, 400, "remaining_uses must be a positive integer or null."),
        ({"impersonation": "yes"}, 400, None),
        ({"impersonation": None}, 400, None),
        ({"project_id": "nosuch"}, 404, "Could not find project: nosuch."),
        ({"expires_at": "2001-01-01T00:00:00Z"}, 400, EXPIRED),
    ],
)
def test_create_refusals(client, fields, status, message):
    result = client.post(TRUSTS, token=client.token("demo"), json=trust_body(client, **fields))
    assert result.status == status, result.body
    if message:
        assert error(result) == message


def test_a_role_the_trustor_lacks_cannot_be_delegated(client, admin):
    result = client.post(
        TRUSTS, token=client.token("demo"), json=trust_body(client, roles=[{"name": "admin"}])
    )
    assert result.status == 404
    (role,) = admin("GET", "/v3/roles?name=admin").json()["roles"]
    assert error(result) == "Could not find role: %s." % role["id"]


def test_list_show_and_roles_after_keystones_policy(client, admin):
    trust = make_trust(client)
    demo, alt = client.token("demo"), client.token("alt")
    path = TRUSTS + "/" + trust["id"]
    denied = client.get(TRUSTS, token=demo)
    assert denied.status == 403 and error(denied) == DENIED % "identity:list_trusts"
    assert [t["id"] for t in admin("GET", TRUSTS).json()["trusts"]] == [trust["id"]]
    mine = client.get(TRUSTS + "?trustor_user_id=" + uid(client, "demo"), token=demo).json()
    assert [t["id"] for t in mine["trusts"]] == [trust["id"]]
    assert "roles" not in mine["trusts"][0]
    theirs = client.get(TRUSTS + "?trustee_user_id=" + uid(client, "alt"), token=alt).json()
    assert [t["id"] for t in theirs["trusts"]] == [trust["id"]]
    other = client.get(TRUSTS + "?trustee_user_id=" + uid(client, "alt"), token=demo)
    assert other.status == 403 and error(other) == DENIED % "identity:list_trusts_for_trustee"
    assert client.get(path, token=alt).json()["trust"]["id"] == trust["id"]
    roles = client.get(path + "/roles", token=alt).json()
    assert [r["name"] for r in roles["roles"]] == ["member"]
    role = roles["roles"][0]
    assert client.get(path + "/roles/" + role["id"], token=demo).json()["role"] == role
    missing = client.get(path + "/roles/nosuch", token=demo)
    assert missing.status == 404 and error(missing) == "Could not find role: nosuch."
    assert client.get(TRUSTS + "/nosuch", token=demo).status == 404


def test_an_unrelated_user_cannot_see_a_trust(client, admin):
    trust = make_trust(client, trustee_user_id=uid(client, "demo"))
    alt = client.token("alt")
    shown = client.get(TRUSTS + "/" + trust["id"], token=alt)
    assert shown.status == 403 and error(shown) == DENIED % "identity:get_trust"
    roles = client.get(TRUSTS + "/%s/roles" % trust["id"], token=alt)
    assert roles.status == 403 and error(roles) == DENIED % "identity:list_roles_for_trust"
    assert admin("GET", TRUSTS + "/" + trust["id"]).status == 200


def test_a_missing_required_field_is_keystones_schema_text(client):
    body = trust_body(client)
    del body["trust"]["impersonation"]
    result = client.post(TRUSTS, token=client.token("demo"), json=body)
    assert result.status == 400
    assert error(result) == (
        "Invalid input for field/attribute trust. Value: %r. 'impersonation' is a required"
        " property" % body["trust"]
    )
