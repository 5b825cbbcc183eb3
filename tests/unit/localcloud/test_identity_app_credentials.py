"""Keystone application credentials in the local cloud: the CRUD API under
/v3/users/{user_id}/application_credentials, the ``application_credential``
auth method, and password/secret checks outside the database write lock."""

import datetime
import sqlite3

import pytest

from occli.localcloud import common
from occli.localcloud.identity import passwords
from tests.unit.localcloud.wsgi_client import BASE

SECRET = "s3cret-for-tests"


def uid(client, name):
    with client.cloud.store.transaction() as db:
        return client.cloud.identity.user_id(db, name)


def pid(client, name):
    with client.cloud.store.transaction() as db:
        return client.cloud.identity.project_id(db, name)


def creds_url(user_id, cred_id=None):
    url = "/v3/users/%s/application_credentials" % user_id
    return url + "/" + cred_id if cred_id else url


def create(client, token, user_id, expect=201, **fields):
    fields.setdefault("name", "app")
    result = client.post(creds_url(user_id), token=token, json={"application_credential": fields})
    assert result.status == expect, result.body
    return result


def make_cred(client, user="demo", **fields):
    """(token used, user id, created credential incl. secret)."""
    token = client.token(user)
    user_id = uid(client, user)
    body = create(client, token, user_id, **fields).json()
    return token, user_id, body["application_credential"]


def ac_auth(client, query="", scope=None, **payload):
    auth = {"identity": {"methods": ["application_credential"], "application_credential": payload}}
    if scope is not None:
        auth["scope"] = scope
    return client.post("/v3/auth/tokens" + query, json={"auth": auth})


def ac_token(client, cred, secret=None):
    result = ac_auth(client, id=cred["id"], secret=secret or cred["secret"])
    assert result.status == 201, result.body
    return result.header("X-Subject-Token")


def assert_401(result, message=None):
    assert result.status == 401, result.body
    error = result.json()["error"]
    assert error["code"] == 401 and error["title"] == "Unauthorized"
    if message:
        assert message in error["message"]


# -- create / list / show / delete ------------------------------------------------


def test_create_returns_the_secret_once_and_keystones_fields(client):
    token, user_id, cred = make_cred(
        client, name="monitoring", description="for monitoring", secret=SECRET
    )
    assert set(cred) == {
        "id",
        "name",
        "description",
        "user_id",
        "project_id",
        "system",
        "expires_at",
        "unrestricted",
        "roles",
        "links",
        "secret",
    }
    assert cred["secret"] == SECRET
    assert cred["name"] == "monitoring"
    assert cred["description"] == "for monitoring"
    assert cred["user_id"] == user_id
    assert cred["project_id"] == pid(client, "demo")
    # keystone 30 keeps unrestricted as given: null (keystone-30-app_credentials.json)
    assert cred["expires_at"] is None and cred["unrestricted"] is None
    assert cred["system"] is None
    # default roles: all of the creating token's roles on its project
    assert sorted(r["name"] for r in cred["roles"]) == ["member", "reader"]
    keys = {"id", "name", "domain_id", "description", "options"}  # keystone 30's role refs
    assert all(set(r) == keys for r in cred["roles"])
    assert cred["links"]["self"] == BASE + creds_url(user_id, cred["id"])
    shown = client.get(creds_url(user_id, cred["id"]), token=token)
    assert shown.status == 200
    body = shown.json()["application_credential"]
    assert "secret" not in body
    assert body == {k: v for k, v in cred.items() if k != "secret"}


def test_generated_secret_is_long_and_random(client):
    _, _, first = make_cred(client, name="a")
    _, _, second = make_cred(client, name="b")
    assert len(first["secret"]) >= 64
    assert first["secret"] != second["secret"]
    assert ac_token(client, first) and ac_token(client, second)


def test_only_a_hash_of_the_secret_is_stored(client):
    _, _, cred = make_cred(client, secret=SECRET)
    with client.cloud.store.transaction() as db:
        stored = db.execute(
            "SELECT * FROM application_credentials WHERE id = ?", (cred["id"],)
        ).fetchone()
    assert stored["secret_hash"].startswith("scrypt$")
    assert passwords.verify_password(SECRET, stored["secret_hash"])
    assert SECRET not in [str(v) for v in tuple(stored)]


def test_list_with_name_filter_never_shows_secrets(client):
    token, user_id, one = make_cred(client, name="one")
    create(client, token, user_id, name="two")
    listed = client.get(creds_url(user_id), token=token)
    assert listed.status == 200
    body = listed.json()
    assert [c["name"] for c in body["application_credentials"]] == ["one", "two"]
    assert all("secret" not in c for c in body["application_credentials"])
    assert body["links"] == {"self": BASE + creds_url(user_id), "previous": None, "next": None}
    named = client.get(creds_url(user_id) + "?name=one", token=token).json()
    assert [c["id"] for c in named["application_credentials"]] == [one["id"]]
    none = client.get(creds_url(user_id) + "?name=zzz", token=token).json()
    assert none["application_credentials"] == []


def test_create_for_another_user_is_403(client):
    admin = client.token("admin")
    demo_id = uid(client, "demo")
    result = create(client, admin, demo_id, expect=403)
    assert result.json()["error"]["title"] == "Forbidden"
    demo = client.token("demo")
    create(client, demo, uid(client, "admin"), expect=403)


def test_list_show_delete_someone_elses_are_403(client):
    admin_token, admin_id, cred = make_cred(client, "admin")
    demo = client.token("demo")
    demo_id = uid(client, "demo")
    assert client.get(creds_url(admin_id), token=demo).status == 403
    assert client.get(creds_url(admin_id, cred["id"]), token=demo).status == 403
    # the owner is the credential's user, not the user in the URL
    assert client.get(creds_url(demo_id, cred["id"]), token=demo).status == 403
    assert client.delete(creds_url(demo_id, cred["id"]), token=demo).status == 403
    assert client.get(creds_url(admin_id, cred["id"]), token=admin_token).status == 200


def test_show_and_delete_unknown_are_404(client):
    token = client.token()
    user_id = uid(client, "demo")
    for method in ("GET", "DELETE"):
        result = client.request(method, creds_url(user_id, "f" * 32), token=token)
        assert result.status == 404
        assert result.json()["error"]["message"] == (
            "Could not find Application Credential: %s." % ("f" * 32)
        )


def test_duplicate_name_for_the_user_is_409(client):
    token, user_id, _ = make_cred(client, name="dup")
    result = create(client, token, user_id, name="dup", expect=409)
    assert result.json()["error"]["title"] == "Conflict"
    assert "Duplicate entry" in result.json()["error"]["message"]
    # the same name for another user is fine
    make_cred(client, "admin", name="dup")


def test_explicit_roles_must_be_a_subset_of_the_tokens(client):
    token = client.token()
    user_id = uid(client, "demo")
    only_reader = create(client, token, user_id, name="r", roles=[{"name": "reader"}]).json()
    assert [r["name"] for r in only_reader["application_credential"]["roles"]] == ["reader"]
    result = create(client, token, user_id, name="x", roles=[{"name": "admin"}], expect=400)
    assert "unassigned role" in result.json()["error"]["message"]
    with client.cloud.store.transaction() as db:
        admin_role = db.execute("SELECT id FROM roles WHERE name = 'admin'").fetchone()["id"]
    create(client, token, user_id, name="y", roles=[{"id": admin_role}], expect=400)
    create(client, token, user_id, name="z", roles=[{"name": "ghost"}], expect=404)


@pytest.mark.parametrize(
    "fields",
    [
        {"name": ""},
        {"name": 5},
        {"name": "n", "secret": 12},
        {"name": "n", "unrestricted": "yes"},
        {"name": "n", "roles": [{"id": "a", "name": "b"}]},
        {"name": "n", "roles": "member"},
        {"name": "n", "expires_at": "not a time"},
        {"name": "n", "expires_at": "2001-01-01T00:00:00Z"},
    ],
)
def test_create_400(client, fields):
    token = client.token()
    result = client.post(
        creds_url(uid(client, "demo")), token=token, json={"application_credential": fields}
    )
    assert result.status == 400, result.body
    result = client.post(creds_url(uid(client, "demo")), token=token, json={"name": "x"})
    assert result.status == 400


def test_create_needs_a_project_scoped_token(client):
    token = client.token(scope="unscoped")
    create(client, token, uid(client, "demo"), expect=400)


def test_delete_is_204_and_the_credential_is_gone(client):
    token, user_id, cred = make_cred(client)
    result = client.delete(creds_url(user_id, cred["id"]), token=token)
    assert result.status == 204 and result.body == b""
    assert client.get(creds_url(user_id, cred["id"]), token=token).status == 404
    assert client.get(creds_url(user_id), token=token).json()["application_credentials"] == []


# -- restricted / unrestricted -------------------------------------------------------


def test_restricted_credential_token_cannot_manage_credentials(client):
    token, user_id, cred = make_cred(client, name="restricted")
    ac = ac_token(client, cred)
    result = create(client, ac, user_id, name="child", expect=403)
    assert (
        "not allowed for managing additional application credentials"
        in result.json()["error"]["message"]
    )
    assert client.delete(creds_url(user_id, cred["id"]), token=ac).status == 403
    # listing and showing are allowed
    assert client.get(creds_url(user_id), token=ac).status == 200
    assert client.get(creds_url(user_id, cred["id"]), token=ac).status == 200


def test_unrestricted_credential_token_can_create_and_delete(client):
    token, user_id, cred = make_cred(client, name="free", unrestricted=True)
    ac_auth_body = ac_auth(client, id=cred["id"], secret=cred["secret"])
    assert ac_auth_body.json()["token"]["application_credential"]["restricted"] is False
    ac = ac_auth_body.header("X-Subject-Token")
    child = create(client, ac, user_id, name="child").json()["application_credential"]
    assert client.delete(creds_url(user_id, child["id"]), token=ac).status == 204


# -- the application_credential auth method -------------------------------------------


def test_token_by_id_and_secret(client):
    _, user_id, cred = make_cred(client, name="ci", roles=[{"name": "member"}])
    result = ac_auth(client, id=cred["id"], secret=cred["secret"])
    assert result.status == 201
    tok = result.json()["token"]
    assert tok["methods"] == ["application_credential"]
    assert tok["application_credential"] == {"id": cred["id"], "name": "ci", "restricted": True}
    assert tok["project"]["id"] == pid(client, "demo")
    assert tok["user"]["id"] == user_id
    # only the credential's roles, not the user's others (reader)
    assert [r["name"] for r in tok["roles"]] == ["member"]
    assert {s["type"] for s in tok["catalog"]} == {"image", "identity"}
    raw = result.header("X-Subject-Token")
    assert client.get("/image/v2/images", token=raw).status == 200
    validated = client.get("/v3/auth/tokens", token=raw, headers={"X-Subject-Token": raw})
    assert validated.status == 200
    assert validated.json()["token"]["application_credential"]["id"] == cred["id"]


def test_admin_credential_is_scoped_to_its_project(client):
    admin = client.token("admin", scope={"project": {"name": "demo", "domain": {"id": "default"}}})
    cred = create(
        client, admin, uid(client, "admin"), name="demo-admin", roles=[{"name": "reader"}]
    ).json()["application_credential"]
    tok = ac_auth(client, id=cred["id"], secret=cred["secret"]).json()["token"]
    assert tok["project"]["name"] == "demo"
    assert [r["name"] for r in tok["roles"]] == ["reader"]


def test_token_by_name_and_user_id_or_user_name_and_domain(client):
    _, user_id, cred = make_cred(client, name="byname")
    by_id = ac_auth(client, name="byname", secret=cred["secret"], user={"id": user_id})
    assert by_id.status == 201, by_id.body
    by_name = ac_auth(
        client,
        name="byname",
        secret=cred["secret"],
        user={"name": "demo", "domain": {"name": "Default"}},
    )
    assert by_name.status == 201, by_name.body
    assert by_name.json()["token"]["application_credential"]["id"] == cred["id"]
    assert_401(
        ac_auth(client, name="byname", secret=cred["secret"], user={"id": uid(client, "admin")})
    )


def test_explicit_scope_is_401(client):
    _, _, cred = make_cred(client)
    for scope in ({"project": {"id": pid(client, "demo")}}, "unscoped"):
        assert_401(
            ac_auth(client, scope=scope, id=cred["id"], secret=cred["secret"]),
            "Application credentials cannot request a scope.",
        )


def test_wrong_secret_or_unknown_id_is_401(client):
    _, _, cred = make_cred(client)
    assert_401(
        ac_auth(client, id=cred["id"], secret="wrong"),
        "Invalid application credential ID or secret",
    )
    assert_401(ac_auth(client, id=cred["id"]))
    # keystone 30 answers an unknown id with ApplicationCredentialNotFound
    unknown = ac_auth(client, id="f" * 32, secret=cred["secret"])
    assert unknown.status == 404, unknown.body
    assert unknown.json()["error"]["message"] == (
        "Could not find Application Credential: %s." % ("f" * 32)
    )


def test_expired_credential_is_401_and_caps_token_expiry(client, clock):
    expires = clock.now + datetime.timedelta(seconds=600)
    _, _, cred = make_cred(client, expires_at=expires.strftime("%Y-%m-%dT%H:%M:%S.%f"))
    assert cred["expires_at"] == common.iso_naive_micro(expires)
    tok = ac_auth(client, id=cred["id"], secret=cred["secret"]).json()["token"]
    # the token (ttl 3600 s) does not outlive the credential
    assert tok["expires_at"] == common.iso_micro_z(expires)
    clock.advance(601)
    assert_401(
        ac_auth(client, id=cred["id"], secret=cred["secret"]),
        "Invalid application credential ID or secret",
    )


def test_disabled_user_is_401(client):
    _, user_id, cred = make_cred(client)
    with client.cloud.store.transaction() as db:
        db.execute("UPDATE users SET enabled = 0 WHERE id = ?", (user_id,))
    assert_401(ac_auth(client, id=cred["id"], secret=cred["secret"]), "disabled")


def test_deleting_the_credential_invalidates_its_tokens(client):
    token, user_id, cred = make_cred(client)
    ac = ac_token(client, cred)
    other = client.token()
    assert client.get("/image/v2/images", token=ac).status == 200
    assert client.delete(creds_url(user_id, cred["id"]), token=token).status == 204
    after = client.get("/image/v2/images", token=ac)
    assert after.status == 401
    assert after.json()["error"]["message"] == (
        "The request you have made requires authentication."
    )
    assert (
        client.get("/v3/auth/tokens", token=other, headers={"X-Subject-Token": ac}).status == 404
    )
    assert ac_auth(client, id=cred["id"], secret=cred["secret"]).status == 404  # keystone 30's
    # the password token is not affected
    assert client.get("/image/v2/images", token=other).status == 200


def test_deleted_credential_token_invalid_even_if_not_marked_revoked(client):
    token, user_id, cred = make_cred(client)
    ac = ac_token(client, cred)
    with client.cloud.store.transaction() as db:
        db.execute("DELETE FROM application_credentials WHERE id = ?", (cred["id"],))
    assert client.get("/image/v2/images", token=ac).status == 401


def test_token_exchange_keeps_the_credentials_restrictions(client):
    _, _, cred = make_cred(client, "admin", roles=[{"name": "reader"}])
    ac = ac_token(client, cred)
    same = client.post(
        "/v3/auth/tokens", json={"auth": {"identity": {"methods": ["token"], "token": {"id": ac}}}}
    )
    assert same.status == 201, same.body
    tok = same.json()["token"]
    assert tok["application_credential"]["id"] == cred["id"]
    assert [r["name"] for r in tok["roles"]] == ["reader"]
    assert tok["methods"] == ["token", "application_credential"]
    other_project = client.post(
        "/v3/auth/tokens",
        json={
            "auth": {
                "identity": {"methods": ["token"], "token": {"id": ac}},
                "scope": {"project": {"name": "demo", "domain": {"id": "default"}}},
            }
        },
    )
    assert other_project.status == 401


@pytest.mark.parametrize(
    "payload",
    [
        {"secret": "x"},
        {"name": "app", "secret": "x"},
        {"name": "app", "secret": "x", "user": {"name": "demo"}},
        {"name": "app", "secret": "x", "user": {}},
    ],
)
def test_auth_400(client, payload):
    result = ac_auth(client, **payload)
    assert result.status == 400, result.body


# -- secrets are checked outside the database write lock ------------------------------


def _write_lock_free(cloud):
    """Can another connection take the write lock right now?"""
    conn = sqlite3.connect(cloud.store.path, timeout=0.05, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        conn.close()


@pytest.fixture
def hash_calls(client, monkeypatch):
    """Record, for each scrypt check/hash, whether the write lock was free."""
    calls = []
    real_verify, real_hash = passwords.verify_password, passwords.hash_password

    def verify(password, encoded):
        calls.append(("verify", _write_lock_free(client.cloud)))
        return real_verify(password, encoded)

    def hash_(password, salt=None):
        calls.append(("hash", _write_lock_free(client.cloud)))
        return real_hash(password, salt)

    monkeypatch.setattr(passwords, "verify_password", verify)
    monkeypatch.setattr(passwords, "hash_password", hash_)
    return calls


def test_password_check_runs_without_the_write_lock(client, hash_calls):
    assert client.authenticate().status == 201
    assert client.authenticate(password="wrong").status == 401
    assert client.authenticate(user="nobody", password="x").status == 401
    assert [c for c in hash_calls if c[0] == "verify"] == [("verify", True)] * 3


def test_app_cred_create_and_check_run_without_the_write_lock(client, hash_calls):
    _, _, cred = make_cred(client)
    ac_token(client, cred)
    assert_401(ac_auth(client, id=cred["id"], secret="wrong"))
    assert ("hash", True) in hash_calls
    assert all(free for _, free in hash_calls), hash_calls


def test_password_changed_during_the_check_fails_the_login(client, monkeypatch):
    real_verify = passwords.verify_password

    def verify(password, encoded):
        ok = real_verify(password, encoded)
        # another request changes the password while we were hashing
        with client.cloud.store.transaction() as db:
            db.execute(
                "UPDATE users SET password_hash = ? WHERE name = ?",
                (passwords.hash_password("new"), "demo"),
            )
        return ok

    monkeypatch.setattr(passwords, "verify_password", verify)
    assert_401(client.authenticate(), "Invalid username or password")


def test_credential_deleted_during_the_check_fails_the_login(client, monkeypatch):
    _, _, cred = make_cred(client)
    real_verify = passwords.verify_password

    def verify(password, encoded):
        with client.cloud.store.transaction() as db:
            db.execute("DELETE FROM application_credentials WHERE id = ?", (cred["id"],))
        return real_verify(password, encoded)

    monkeypatch.setattr(passwords, "verify_password", verify)
    assert_401(ac_auth(client, id=cred["id"], secret=cred["secret"]))
