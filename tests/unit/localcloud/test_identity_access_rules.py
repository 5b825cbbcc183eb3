"""Application credential access rules in the local cloud: ``access_rules``
on create (kept as the user's rules, shared between credentials), the
``/v3/users/{user_id}/access_rules`` routes, and their enforcement on each
request to another service as keystonemiddleware's
``validate_allowed_request`` does (method, path with ``*``/``**``/``{x}``,
service type; any mismatch makes the token invalid there: 401)."""

import pytest

from occli.localcloud.identity import app_credentials
from tests.unit.localcloud.test_identity_app_credentials import ac_token
from tests.unit.localcloud.test_identity_app_credentials import create
from tests.unit.localcloud.test_identity_app_credentials import uid

SERVERS = {"service": "compute", "path": "/v2.1/servers", "method": "GET"}
IMAGES = {"service": "image", "path": "/v2/images/*", "method": "GET"}


def rules_url(user_id, rule_id=None):
    url = "/v3/users/%s/access_rules" % user_id
    return url + "/" + rule_id if rule_id else url


def make_cred(client, rules, name="app", user="demo"):
    token = client.token(user)
    user_id = uid(client, user)
    body = create(client, token, user_id, name=name, access_rules=rules).json()
    return token, user_id, body["application_credential"]


def error(result):
    return result.json()["error"]["message"]


@pytest.mark.parametrize(
    "path, pattern, matches",
    [
        ("/v2.1/servers", "/v2.1/servers", True),
        ("/v2.1/servers/abc", "/v2.1/servers", False),
        ("/v2.1/servers/abc", "/v2.1/servers/*", True),
        ("/v2.1/servers/abc/action", "/v2.1/servers/*", False),
        ("/v2.1/servers/abc/action", "/v2.1/servers/**", True),
        ("/v2.1/servers/abc/action", "/v2.1/servers/{server_id}/action", True),
        ("/v2.1/servers/abc/action", "/v2.1/**/action", True),
        ("/v2x1/servers", "/v2.1/servers", False),
    ],
)
def test_path_matching_as_keystonemiddleware(path, pattern, matches):
    assert app_credentials.path_matches(path, pattern) is matches


def test_create_keeps_the_rules_and_shows_them(client):
    token, user_id, cred = make_cred(client, [SERVERS, IMAGES])
    assert [{k: r[k] for k in ("service", "path", "method")} for r in cred["access_rules"]] == [
        SERVERS,
        IMAGES,
    ]
    assert all(len(r["id"]) == 32 for r in cred["access_rules"])
    shown = client.get(
        "/v3/users/%s/application_credentials/%s" % (user_id, cred["id"]), token=token
    ).json()["application_credential"]
    assert shown["access_rules"] == cred["access_rules"]
    listed = client.get(rules_url(user_id), token=token).json()
    assert [r["id"] for r in listed["access_rules"]] == [r["id"] for r in cred["access_rules"]]
    rule = listed["access_rules"][0]
    assert set(rule) == {"id", "service", "path", "method", "links"}
    assert rule["links"]["self"].endswith(rules_url(user_id, rule["id"]))
    filtered = client.get(rules_url(user_id) + "?service=image", token=token).json()
    assert [r["path"] for r in filtered["access_rules"]] == ["/v2/images/*"]
    one = client.get(rules_url(user_id, rule["id"]), token=token)
    assert one.status == 200 and one.json()["access_rule"] == rule


def test_a_credential_without_rules_has_no_access_rules_key(client):
    token = client.token("demo")
    body = create(client, token, uid(client, "demo")).json()["application_credential"]
    assert "access_rules" not in body


def test_an_identical_rule_or_its_id_is_shared_between_credentials(client):
    token, user_id, first = make_cred(client, [SERVERS])
    rule_id = first["access_rules"][0]["id"]
    second = create(client, token, user_id, name="two", access_rules=[dict(SERVERS)]).json()
    third = create(client, token, user_id, name="three", access_rules=[{"id": rule_id}]).json()
    assert second["application_credential"]["access_rules"][0]["id"] == rule_id
    assert third["application_credential"]["access_rules"][0]["id"] == rule_id
    assert len(client.get(rules_url(user_id), token=token).json()["access_rules"]) == 1


def test_an_unknown_rule_id_is_404(client):
    token = client.token("demo")
    result = create(client, token, uid(client, "demo"), expect=404, access_rules=[{"id": "nope"}])
    assert error(result) == "Could not find Access Rule: nope."


@pytest.mark.parametrize(
    "rule, field",
    [
        (dict(SERVERS, method="FETCH"), "access_rules/method"),
        (dict(SERVERS, path="v2.1/servers"), "access_rules/path"),
        (dict(SERVERS, path="/" + "x" * 225), "access_rules/path"),
        (dict(SERVERS, service="com pute"), "access_rules/service"),
        (dict(SERVERS, verb="GET"), "access_rules"),
    ],
)
def test_a_malformed_rule_is_400(client, rule, field):
    token = client.token("demo")
    result = create(client, token, uid(client, "demo"), expect=400, access_rules=[rule])
    assert error(result).startswith("Invalid input for field '%s'" % field)


def test_the_token_carries_the_rules(client):
    _, _, cred = make_cred(client, [SERVERS])
    token = ac_token(client, cred)
    body = client.get("/v3/auth/tokens", token=token, headers={"X-Subject-Token": token}).json()
    assert body["token"]["application_credential"]["access_rules"] == cred["access_rules"]


def test_rules_allow_only_their_requests(client):
    listing = {"service": "image", "path": "/v2/images", "method": "GET"}
    elsewhere = {"service": "compute", "path": "/v2/schemas/image", "method": "GET"}
    _, _, cred = make_cred(client, [listing, IMAGES, elsewhere])
    token = ac_token(client, cred)
    assert client.get("/image/v2/images", token=token).status == 200
    # another method, path or service type: the token is invalid there
    for method, path in [
        ("POST", "/image/v2/images"),
        ("GET", "/image/v2/images/abc/members"),
        ("DELETE", "/image/v2/images/abc"),
        ("GET", "/image/v2/schemas/image"),
        ("GET", "/v3/users/%s/application_credentials" % cred["user_id"]),
    ]:
        result = client.request(method, path, token=token, json={} if method == "POST" else None)
        assert result.status == 401, (method, path, result.body)
    # the "*": one segment (404: no such image, but allowed)
    assert client.get("/image/v2/images/abc", token=token).status == 404
    # validating the token itself is always allowed
    validated = client.get("/v3/auth/tokens", token=token, headers={"X-Subject-Token": token})
    assert validated.status == 200


def test_an_identity_rule_allows_keystone_requests(client):
    rule = {"service": "identity", "path": "/v3/users/*/access_rules", "method": "GET"}
    _, user_id, cred = make_cred(client, [rule])
    token = ac_token(client, cred)
    assert client.get(rules_url(user_id), token=token).status == 200
    assert client.get("/v3/projects", token=token).status == 401


def test_other_users_rules_are_forbidden_and_unknown_ones_404(client):
    _, user_id, cred = make_cred(client, [SERVERS])
    alt = client.token("alt")
    denied = client.get(rules_url(user_id), token=alt)
    assert denied.status == 403
    assert error(denied) == (
        "You are not authorized to perform the requested action: identity:list_access_rules."
    )
    rule_id = cred["access_rules"][0]["id"]
    assert client.get(rules_url(user_id, rule_id), token=alt).status == 403
    assert client.delete(rules_url(user_id, rule_id), token=alt).status == 403
    token = client.token("demo")
    missing = client.get(rules_url(user_id, "nope"), token=token)
    assert missing.status == 404
    assert error(missing) == "Could not find Access Rule: nope."


def test_a_rule_in_use_cannot_be_deleted_then_can(client):
    token, user_id, cred = make_cred(client, [SERVERS])
    rule_id = cred["access_rules"][0]["id"]
    refused = client.delete(rules_url(user_id, rule_id), token=token)
    assert refused.status == 403
    assert error(refused) == "May not delete access rule in use"
    gone = client.delete(
        "/v3/users/%s/application_credentials/%s" % (user_id, cred["id"]), token=token
    )
    assert gone.status == 204
    assert client.delete(rules_url(user_id, rule_id), token=token).status == 204
    assert client.get(rules_url(user_id, rule_id), token=token).status == 404
