"""Keystone v3 emulation: discovery, token issue/validate/revoke, errors."""

import glob
import json
import os

import pytest

from occli.localcloud import common
from occli.localcloud.identity import passwords
from tests.unit.localcloud.wsgi_client import BASE
from tests.unit.localcloud.wsgi_client import Client
from tests.unit.localcloud.wsgi_client import make_cloud

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "identity")


def load(*parts):
    with open(os.path.join(FIXTURES, *parts)) as f:
        return json.load(f)


def shape(value):
    """Keys and value types, recursively (lists by their first item)."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    return type(value).__name__


def password_auth(user="demo", password="demo-secret", **user_extra):
    user_obj = {"name": user, "domain": {"id": "default"}, "password": password}
    user_obj.update(user_extra)
    return {"identity": {"methods": ["password"], "password": {"user": user_obj}}}


def project_id(client, name):
    with client.cloud.store.transaction() as db:
        return client.cloud.identity.project_id(db, name)


# -- discovery --------------------------------------------------------------------


def test_root_lists_v3_with_300_and_location(client):
    result = client.get("/")
    assert result.status == 300
    assert result.header("Location") == BASE + "/v3/"
    sample = load("versions", "identity-versions-response.json")
    body = result.json()
    assert shape(body) == shape({"versions": {"values": sample["versions"]["values"][:1]}})
    version = body["versions"]["values"][0]
    assert version["id"] == "v3.14"
    assert version["links"] == [{"rel": "self", "href": BASE + "/v3/"}]


def test_v3_document_matches_sample_shape(client):
    result = client.get("/v3")
    assert result.status == 200
    assert shape(result.json()) == shape(load("versions", "identity-version-response.json"))
    assert result.json()["version"]["status"] == "stable"


# -- issuing tokens ------------------------------------------------------------------


def test_project_scoped_token_matches_sample(client):
    result = client.authenticate(
        "admin", scope={"project": {"name": "admin", "domain": {"name": "Default"}}}
    )
    assert result.status == 201
    assert result.header("Content-Type") == "application/json"
    token = result.header("X-Subject-Token")
    assert token and token not in result.body.decode()
    body = result.json()
    sample = load("tokens", "responses", "project-scoped-password.json")
    expected = shape(sample)
    # keystone's default: no password expiry (null); the sample has one
    expected["token"]["user"]["password_expires_at"] = "NoneType"
    assert shape(body) == expected
    tok = body["token"]
    assert tok["project"]["name"] == "admin"
    assert tok["methods"] == ["password"]
    assert {r["name"] for r in tok["roles"]} == {"admin", "manager", "member", "reader"}
    assert tok["expires_at"].endswith("Z") and len(tok["expires_at"]) == 27


@pytest.fixture
def full_client(tmp_path):
    """A client of a cloud serving every service (the catalog lists what
    is served: the identity + image cloud of ``client`` lists those two)."""
    from occli.localcloud.cloud import Config
    from occli.localcloud.cloud import LocalCloud
    from occli.localcloud.cloud import default_services

    cloud = LocalCloud(
        Config(data_dir=str(tmp_path / "full"), build_time=0), services=default_services()
    )
    yield Client(cloud)
    cloud.close()


def test_catalog_lists_all_services_with_three_interfaces(full_client):
    client = full_client
    body = client.authenticate().json()["token"]
    pid = body["project"]["id"]
    urls = {}
    for service in body["catalog"]:
        assert sorted(e["interface"] for e in service["endpoints"]) == [
            "admin",
            "internal",
            "public",
        ]
        for endpoint in service["endpoints"]:
            assert endpoint["region"] == endpoint["region_id"] == "RegionOne"
        urls[service["type"]] = service["endpoints"][0]["url"]
    assert urls == {
        "identity": BASE + "/v3",
        "compute": BASE + "/compute/v2.1",
        "image": BASE + "/image",
        "orchestration": BASE + "/orchestration/v1/" + pid,
        "object-store": BASE + "/object-store/v1/AUTH_" + pid,
        "network": BASE + "/network",
        "volumev3": BASE + "/volume/v3/" + pid,
        "block-storage": BASE + "/volume/v3/" + pid,
    }


def test_default_scope_is_the_users_default_project(client):
    body = client.authenticate("demo").json()["token"]
    assert body["project"]["id"] == project_id(client, "demo")
    assert [r["name"] for r in body["roles"]] == ["member", "reader"]


def test_project_scope_by_id(client):
    pid = project_id(client, "demo")
    result = client.authenticate("admin", scope={"project": {"id": pid}})
    assert result.status == 201
    assert result.json()["token"]["project"]["id"] == pid


def test_explicit_unscoped_token_has_no_roles_or_catalog(client):
    for scope in ("unscoped", {"unscoped": {}}):
        result = client.authenticate("demo", scope=scope)
        assert result.status == 201
        body = result.json()
        assert shape(body) == shape(load("tokens", "responses", "unscoped-password.json"))


def test_domain_scoped_token(full_client):
    result = full_client.authenticate("admin", scope={"domain": {"name": "Default"}})
    assert result.status == 201
    tok = result.json()["token"]
    assert tok["domain"] == {"id": "default", "name": "Default"}
    assert "project" not in tok
    # keystone keeps a service whose endpoints all need a project, with
    # no endpoint (keystone/catalog/backends/sql.py, bug 1436704)
    types = {s["type"] for s in tok["catalog"] if s["endpoints"]}
    assert types == {"identity", "compute", "image", "network"}
    assert {s["type"] for s in tok["catalog"] if not s["endpoints"]} == {
        "volumev3",
        "block-storage",
        "orchestration",
        "object-store",
    }


def test_nocatalog(client):
    tok = client.authenticate(query="?nocatalog").json()["token"]
    assert "catalog" not in tok and "roles" in tok


def test_user_by_id_and_domain_by_name(client):
    with client.cloud.store.transaction() as db:
        uid = client.cloud.identity.user_id(db, "demo")
    auth = {
        "identity": {
            "methods": ["password"],
            "password": {"user": {"id": uid, "password": "demo-secret"}},
        }
    }
    assert client.post("/v3/auth/tokens", json={"auth": auth}).status == 201
    auth = password_auth(domain={"name": "Default"})
    assert client.post("/v3/auth/tokens", json={"auth": auth}).status == 201


def test_token_method_rescopes_and_keeps_expiry(client, clock):
    first = client.authenticate("admin", scope="unscoped")
    raw = first.header("X-Subject-Token")
    original = first.json()["token"]
    clock.advance(60)
    result = client.post(
        "/v3/auth/tokens",
        json={
            "auth": {
                "identity": {"methods": ["token"], "token": {"id": raw}},
                "scope": {"project": {"name": "demo", "domain": {"id": "default"}}},
            }
        },
    )
    assert result.status == 201
    tok = result.json()["token"]
    expected = shape(load("tokens", "responses", "project-scoped-token.json"))
    expected["token"]["user"]["password_expires_at"] = "NoneType"
    assert shape(result.json()) == expected
    assert tok["methods"] == ["token", "password"]
    assert tok["expires_at"] == original["expires_at"]
    assert tok["issued_at"] != original["issued_at"]
    assert len(tok["audit_ids"]) == 2
    assert tok["audit_ids"][1] == original["audit_ids"][0]
    assert tok["project"]["name"] == "demo"


# -- error statuses (CONTRACT §2.3) -----------------------------------------------

BAD_REQUESTS = [
    {},
    {"auth": "x"},
    {"auth": {}},
    {"auth": {"identity": {}}},
    {"auth": {"identity": {"methods": []}}},
    {"auth": {"identity": {"methods": ["password"]}}},
    {"auth": {"identity": {"methods": ["password"], "password": {}}}},
    {"auth": {"identity": {"methods": ["password"], "password": {"user": {"password": "x"}}}}},
    {
        "auth": {
            "identity": {
                "methods": ["password"],
                "password": {"user": {"name": "demo", "password": "demo-secret"}},
            }
        }
    },
    {"auth": {"identity": {"methods": ["token"], "token": {}}}},
    {"auth": dict(password_auth(), scope={"project": {"name": "demo"}})},
    {"auth": dict(password_auth(), scope={"project": {}})},
    {"auth": dict(password_auth(), scope={"domain": {}})},
    {"auth": dict(password_auth(), scope={"project": {"id": "x"}, "domain": {"id": "default"}})},
    {"auth": dict(password_auth(), scope="everything")},
]


@pytest.mark.parametrize("body", BAD_REQUESTS)
def test_400(client, body):
    result = client.post("/v3/auth/tokens", json=body)
    assert result.status == 400, body
    assert result.json()["error"]["title"] == "Bad Request"
    assert result.json()["error"]["code"] == 400


UNAUTHORIZED = [
    (password_auth(password="wrong"), None, "Invalid username or password"),
    (password_auth(user="nobody"), None, "Invalid username or password"),
    (
        {
            "identity": {
                "methods": ["password"],
                "password": {
                    "user": {
                        "name": "demo",
                        "domain": {"name": "Nowhere"},
                        "password": "demo-secret",
                    }
                },
            }
        },
        None,
        "Invalid username or password",
    ),
    (
        password_auth(),
        {"project": {"name": "ghost", "domain": {"id": "default"}}},
        "Could not find project: ghost",
    ),
    (password_auth(), {"project": {"id": "f" * 32}}, "Could not find project"),
    (password_auth(), {"domain": {"id": "ghost"}}, "Could not find domain"),
    (
        password_auth(),
        {"project": {"name": "admin", "domain": {"id": "default"}}},
        "has no access to project",
    ),
    (password_auth(), {"domain": {"id": "default"}}, "has no access to domain"),
    (password_auth(), {"system": {"all": True}}, "has no access to the system"),
    ({"identity": {"methods": ["token"], "token": {"id": "bogus"}}}, None, "Could not find token"),
]


@pytest.mark.parametrize("auth,scope,message", UNAUTHORIZED)
def test_401(client, auth, scope, message):
    body = {"auth": dict(auth)}
    if scope is not None:
        body["auth"]["scope"] = scope
    result = client.post("/v3/auth/tokens", json=body)
    assert result.status == 401
    error = result.json()["error"]
    assert error["title"] == "Unauthorized" and error["code"] == 401
    assert message in error["message"]
    assert result.header("WWW-Authenticate") == 'Keystone uri="%s"' % BASE


def test_401_unsupported_method_lists_methods(client):
    result = client.post(
        "/v3/auth/tokens", json={"auth": {"identity": {"methods": ["totp"], "totp": {"user": {}}}}}
    )
    assert result.status == 401
    assert result.json()["error"]["identity"] == {
        "methods": ["password", "token", "application_credential"]
    }
    assert result.json()["error"]["message"] == (
        "Attempted to authenticate with an unsupported method."
    )


def test_401_disabled_user_and_project(client):
    with client.cloud.store.transaction() as db:
        db.execute("UPDATE projects SET enabled = 0 WHERE name = 'admin'")
    result = client.authenticate(
        "admin", scope={"project": {"name": "admin", "domain": {"id": "default"}}}
    )
    assert result.status == 401
    with client.cloud.store.transaction() as db:
        db.execute("UPDATE users SET enabled = 0 WHERE name = 'demo'")
    assert client.authenticate("demo").status == 401


def test_403_validating_someone_elses_token(client):
    admin = client.token("admin")
    demo = client.token("demo")
    result = client.get("/v3/auth/tokens", token=demo, headers={"X-Subject-Token": admin})
    assert result.status == 403
    assert result.json()["error"]["title"] == "Forbidden"
    ok = client.get("/v3/auth/tokens", token=admin, headers={"X-Subject-Token": demo})
    assert ok.status == 200


def test_403_catalog_needs_a_scoped_token(client):
    token = client.token(scope="unscoped")
    assert client.get("/v3/auth/catalog", token=token).status == 403


def test_403_catalog_for_a_domain_scoped_token(client):
    # keystone AuthCatalogResource.get requires a *project* scope
    token = client.token("admin", scope={"domain": {"id": "default"}})
    result = client.get("/v3/auth/catalog", token=token)
    assert result.status == 403
    assert result.json()["error"]["message"] == (
        "You are not authorized to perform the requested action."
    )


# -- validation, revocation, expiry ---------------------------------------------------


def test_validate_get_and_head(client):
    token = client.token()
    result = client.get("/v3/auth/tokens", token=token, headers={"X-Subject-Token": token})
    assert result.status == 200
    assert result.header("X-Subject-Token") == token
    assert result.json()["token"]["user"]["name"] == "demo"
    head = client.head("/v3/auth/tokens", token=token, headers={"X-Subject-Token": token})
    assert head.status == 200 and head.body == b""
    missing = client.get("/v3/auth/tokens", token=token, headers={"X-Subject-Token": "nope"})
    assert missing.status == 404
    assert client.get("/v3/auth/tokens", token=token).status == 404  # keystone 30's
    nocat = client.get(
        "/v3/auth/tokens?nocatalog", token=token, headers={"X-Subject-Token": token}
    )
    assert "catalog" not in nocat.json()["token"]


def test_validate_requires_auth_token(client):
    token = client.token()
    result = client.get("/v3/auth/tokens", headers={"X-Subject-Token": token})
    assert result.status == 401
    assert result.json()["error"]["message"] == (
        "The request you have made requires authentication."
    )


def test_revoke(client):
    admin = client.token("admin")
    token = client.token()
    result = client.delete("/v3/auth/tokens", token=token, headers={"X-Subject-Token": token})
    assert result.status == 204 and result.body == b""
    assert client.get("/image/v2/images", token=token).status == 401
    assert (
        client.get("/v3/auth/tokens", token=admin, headers={"X-Subject-Token": token}).status
        == 404
    )
    assert (
        client.delete("/v3/auth/tokens", token=admin, headers={"X-Subject-Token": token}).status
        == 404
    )


def test_expiry(client, clock):
    token = client.token()
    assert client.get("/image/v2/images", token=token).status == 200
    clock.advance(client.cloud.config.token_ttl + 1)
    assert client.get("/image/v2/images", token=token).status == 401
    fresh = client.token()
    assert (
        client.get("/v3/auth/tokens", token=fresh, headers={"X-Subject-Token": token}).status
        == 404
    )
    assert (
        client.get(
            "/v3/auth/tokens?allow_expired=1", token=fresh, headers={"X-Subject-Token": token}
        ).status
        == 200
    )
    result = client.post(
        "/v3/auth/tokens",
        json={"auth": {"identity": {"methods": ["token"], "token": {"id": token}}}},
    )
    assert result.status == 401


def test_context_from_token(client):
    token = client.token("admin")
    with client.cloud.store.transaction() as db:
        req = type("Req", (), {})()
        req.db = db
        req.base_url = BASE
        req.header = lambda name, default=None: token
        ctx = client.cloud.identity.context_from_request(req)
    assert (ctx.user_name, ctx.project_name) == ("admin", "admin")
    assert ctx.is_admin and set(ctx.roles) == {"admin", "manager", "member", "reader"}
    assert ctx.token_id == common.hash_token(token)
    assert ctx.expires_at > common.utcnow()


def test_get_catalog(client):
    token = client.token()
    result = client.get("/v3/auth/catalog", token=token)
    assert result.status == 200
    body = result.json()
    sample = load("tokens", "get-service-catalog-response.json")
    assert set(body) == set(sample)
    # keystone 30's (keystone-30-tokens.json), though the api-ref's sample has the other two
    assert body["links"] == {"self": BASE + "/v3/auth/catalog"}
    # the served services' entries only: identity and image here
    assert [s["type"] for s in body["catalog"]] == ["identity", "image"]


# -- storage ----------------------------------------------------------------------------


def _db_bytes(cloud):
    data = b""
    for path in glob.glob(os.path.join(cloud.config.data_dir, "cloud.db*")):
        with open(path, "rb") as f:
            data += f.read()
    return data


def test_raw_tokens_and_passwords_never_stored(client):
    token = client.token()
    with client.cloud.store.transaction() as db:
        hashes = [r["id_hash"] for r in db.execute("SELECT id_hash FROM tokens")]
        stored = [r["password_hash"] for r in db.execute("SELECT password_hash FROM users")]
    assert hashes == [common.hash_token(token)]
    assert all(h.startswith("scrypt$") for h in stored)
    data = _db_bytes(client.cloud)
    assert token.encode() not in data
    assert b"demo-secret" not in data and b"admin-secret" not in data
    assert common.hash_token(token).encode() in data


def test_password_hashing():
    encoded = passwords.hash_password("pw")
    assert passwords.verify_password("pw", encoded)
    assert not passwords.verify_password("pW", encoded)
    assert encoded != passwords.hash_password("pw")
    assert not passwords.verify_password("pw", "garbage")


def test_a_hash_carries_its_cost_and_verifies_at_any_setting(monkeypatch):
    assert passwords.DEFAULT_SCRYPT == {"n": 2**14, "r": 8, "p": 1}
    cheap = passwords.hash_password("pw")  # the test suite's cost
    monkeypatch.setattr(passwords, "SCRYPT", {"n": 64, "r": 2, "p": 1})
    dearer = passwords.hash_password("pw")
    assert dearer.startswith("scrypt$64$2$1$")
    assert passwords.verify_password("pw", cheap)
    assert passwords.weaker_than_current(cheap)
    assert not passwords.weaker_than_current(dearer)
    monkeypatch.setattr(passwords, "SCRYPT", {"n": 16, "r": 1, "p": 1})
    assert passwords.verify_password("pw", dearer)
    assert not passwords.weaker_than_current(dearer)


def test_restart_rehashes_a_weaker_password_hash_keeping_tokens(tmp_path, monkeypatch):
    first = make_cloud(tmp_path / "d")
    token = Client(first).token("demo")
    first.close()
    monkeypatch.setattr(passwords, "SCRYPT", {"n": 64, "r": 2, "p": 1})
    second = make_cloud(tmp_path / "d")
    client = Client(second)
    with second.store.read() as db:
        stored = {
            r["name"]: r["password_hash"]
            for r in db.execute("SELECT name, password_hash FROM users")
        }
    assert all(h.startswith("scrypt$64$2$1$") for h in stored.values())
    assert client.get("/image/v2/images", token=token).status == 200
    assert client.authenticate("demo").status == 201
    second.close()


def test_restart_keeps_ids_and_updates_changed_password(tmp_path):
    first = make_cloud(tmp_path / "d", demo_password="one")
    c1 = Client(first)
    old_token = c1.token("demo", password="one")
    pid = project_id(c1, "demo")
    first.close()
    second = make_cloud(tmp_path / "d", demo_password="two")
    c2 = Client(second)
    assert project_id(c2, "demo") == pid
    assert c2.authenticate("demo", password="one").status == 401
    assert c2.authenticate("demo", password="two").status == 201
    assert c2.get("/image/v2/images", token=old_token).status == 401
    second.close()
    third = make_cloud(tmp_path / "d", demo_password="two")
    c3 = Client(third)
    token = c3.token("demo", password="two")
    assert c3.get("/image/v2/images", token=token).status == 200
    third.close()
