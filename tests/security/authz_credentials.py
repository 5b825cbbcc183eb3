"""Callers of every kind for the authorization matrix (test_authz_matrix):
an in-process WSGI client, the extra principals (a second member project, a
reader of the first one) and one credential of each kind.

Only stable entry points of the local cloud are used: the cloud's WSGI app,
its HTTP API, ``cloud.identity``'s lookups, heat_swift_harness.add_member
(kept up to date with identity's modules), identity's tables (released
migrations never change) and ``occli.localcloud.common.set_clock``.
"""

import dataclasses
import datetime
import hashlib
import hmac
import json
import time

from occli.localcloud import common
from tests.unit.localcloud import wsgi_client
from tests.unit.localcloud.heat_swift_harness import add_member

# project A is the seeded "demo" (user demo, member); project B and A's
# reader are added by add_principals
PROJECT_A, PROJECT_B, PROJECT_ADMIN = "demo", "authz-b", "admin"
READER = "authz-reader"
PASSWORDS = {
    "demo": "demo-secret",
    "admin": "admin-secret",
    PROJECT_B: "authz-b-secret",
    READER: "authz-reader-secret",
}


class Client:
    """Calls the cloud's WSGI application directly (no sockets)."""

    def __init__(self, cloud):
        self.cloud = cloud

    def request(self, method, path, token=None, json_body=None, body=None, headers=None, query=""):
        if json_body is not None:
            body = json.dumps(json_body).encode()
        return wsgi_client.call(self.cloud, method, path, query, body, headers, token)

    def call(self, method, path, token=None, expect=(200, 201, 202, 204), **kw):
        """A request that must succeed (setup): the Result."""
        result = self.request(method, path, token=token, **kw)
        assert result.status in expect, (method, path, result.status, result.body[:500])
        return result

    def password_token(self, user, scope="project", project=None):
        """A token of ``user``: ``scope`` "project" (``project``, default the
        user's own), "unscoped" or "domain" (default domain)."""
        auth = {
            "identity": {
                "methods": ["password"],
                "password": {
                    "user": {
                        "name": user,
                        "domain": {"id": "default"},
                        "password": PASSWORDS[user],
                    }
                },
            }
        }
        if scope == "unscoped":
            auth["scope"] = "unscoped"
        elif scope == "domain":
            auth["scope"] = {"domain": {"id": "default"}}
        else:
            auth["scope"] = {"project": {"name": project or user, "domain": {"id": "default"}}}
        result = self.call("POST", "/v3/auth/tokens", expect=(201,), json_body={"auth": auth})
        return result.headers["x-subject-token"]

    def exchanged_token(self, token):
        """A new token for the same user and scope (``token`` method)."""
        result = self.call(
            "POST",
            "/v3/auth/tokens",
            expect=(201,),
            json_body={"auth": {"identity": {"methods": ["token"], "token": {"id": token}}}},
        )
        return result.headers["x-subject-token"]

    def app_cred(self, token, user_id, name, unrestricted=False):
        """``(id, secret)`` of a new application credential."""
        result = self.call(
            "POST",
            "/v3/users/%s/application_credentials" % user_id,
            token=token,
            expect=(201,),
            json_body={"application_credential": {"name": name, "unrestricted": unrestricted}},
        )
        cred = result.json()["application_credential"]
        return cred["id"], cred["secret"]

    def app_cred_token(self, cred_id, secret):
        result = self.call(
            "POST",
            "/v3/auth/tokens",
            expect=(201,),
            json_body={
                "auth": {
                    "identity": {
                        "methods": ["application_credential"],
                        "application_credential": {"id": cred_id, "secret": secret},
                    }
                }
            },
        )
        return result.headers["x-subject-token"]


def add_principals(cloud):
    """Project B with member user ``authz-b`` (heat_swift_harness's
    add_member), and user ``authz-reader`` whose only role in project A is
    ``reader`` (added like a member of a project of its own, then given the
    reader role on A in identity's ``role_assignments`` table)."""
    add_member(cloud, PROJECT_B, PASSWORDS[PROJECT_B])
    add_member(cloud, READER, PASSWORDS[READER])
    with cloud.store.transaction() as db:
        user_id = cloud.identity.user_id(db, READER)
        project_a = cloud.identity.project_id(db, PROJECT_A)
        (reader_role,) = db.execute("SELECT id FROM roles WHERE name = 'reader'").fetchone()
        db.execute(
            "INSERT INTO role_assignments (user_id, target_type,"
            " target_id, role_id) VALUES (?, 'project', ?, ?)",
            (user_id, project_a, reader_role),
        )
        roles = db.execute(
            "SELECT r.name FROM role_assignments a JOIN roles r"
            " ON r.id = a.role_id WHERE a.user_id = ? AND a.target_id = ?",
            (user_id, project_a),
        ).fetchall()
    assert [r[0] for r in roles] == ["reader"]


@dataclasses.dataclass(frozen=True)
class Kind:
    """One kind of credential (what it is; its token comes from
    :func:`make_tokens`).

    ``sends_token``: whether X-Auth-Token is sent; ``valid`` whether the
    cloud should accept it; ``user`` and ``project`` whose it is ("A", "B",
    "admin"; None when not project-scoped); ``domain``: the domain a
    domain-scoped token is scoped to (None otherwise); ``admin`` (admin role),
    ``reader_only``, ``restricted`` (a restricted application credential);
    ``url_project``: the project whose id fills ``{project_id}`` and
    ``AUTH_…`` in URLs ("A", or the caller's own for the ``*_own_url``
    kinds); ``temp_url``: the URL carries a GET temp URL signature for A's
    object instead of a token.
    """

    name: str
    sends_token: bool = True
    valid: bool = True
    user: str = None
    project: str = None
    domain: str = None
    admin: bool = False
    reader_only: bool = False
    restricted: bool = False
    url_project: str = "A"
    temp_url: bool = False


_A_MEMBER = dict(user="demo", project="A")
# in report order; the *_own_url ones only for routes whose URL names a
# project (same token as b_member / admin)
KINDS = {
    k.name: k
    for k in (
        Kind("none", sends_token=False, valid=False),
        Kind("malformed", valid=False),
        Kind("expired", valid=False),
        Kind("revoked", valid=False),
        Kind("unscoped", user="demo"),
        Kind("domain", user="admin", domain="default", admin=True),
        Kind("a_member", **_A_MEMBER),
        Kind("a_reader", user=READER, project="A", reader_only=True),
        Kind("b_member", user=PROJECT_B, project="B"),
        Kind("admin", user="admin", project="admin", admin=True),
        Kind("ac_unrestricted", **_A_MEMBER),
        Kind("ac_restricted", restricted=True, **_A_MEMBER),
        Kind("temp_url", sends_token=False, valid=False, temp_url=True),
        Kind("b_own_url", user=PROJECT_B, project="B", url_project="B"),
        Kind("admin_own_url", user="admin", project="admin", admin=True, url_project="admin"),
    )
}
OWN_URL_KINDS = ("b_own_url", "admin_own_url")
MALFORMED = "gAAAAAB-authz-not-a-token' OR 1=1 --"


def temp_url_query(key, method, path, expires):
    """Swift's temp URL query (HMAC-SHA256, hex) for ``path``
    (``/v1/AUTH_…/container/object``)."""
    body = "%s\n%d\n%s" % (method, expires, path)
    sig = hmac.new(key.encode(), body.encode(), hashlib.sha256).hexdigest()
    return "temp_url_sig=%s&temp_url_expires=%d" % (sig, expires)


def make_tokens(client):
    """``{kind name: X-Auth-Token value}`` for every kind that sends one."""
    demo_token = client.password_token("demo")
    # expired: issued two TTLs ago
    ttl = client.cloud.config.token_ttl
    then = common.utcnow() - datetime.timedelta(seconds=2 * ttl)
    common.set_clock(lambda: then)
    try:
        expired = client.password_token("demo")
    finally:
        common.set_clock(None)
    revoked = client.password_token("demo")
    client.call(
        "DELETE",
        "/v3/auth/tokens",
        token=revoked,
        headers={"X-Subject-Token": revoked},
        expect=(204,),
    )
    with client.cloud.store.read() as db:
        demo_id = client.cloud.identity.user_id(db, "demo")
    creds = {}
    for name, unrestricted in (("ac_unrestricted", True), ("ac_restricted", False)):
        cred_id, secret = client.app_cred(demo_token, demo_id, "authz-kind-" + name, unrestricted)
        creds[name] = client.app_cred_token(cred_id, secret)
    tokens = {
        "malformed": MALFORMED,
        "expired": expired,
        "revoked": revoked,
        "unscoped": client.password_token("demo", "unscoped"),
        "domain": client.password_token("admin", "domain"),
        "a_member": demo_token,
        "a_reader": client.password_token(READER, project=PROJECT_A),
        "b_member": client.password_token(PROJECT_B),
        "admin": client.password_token("admin"),
        **creds,
    }
    tokens["b_own_url"] = tokens["b_member"]
    tokens["admin_own_url"] = tokens["admin"]
    assert set(tokens) == {k for k, v in KINDS.items() if v.sends_token}
    return tokens


def expires_in(seconds):
    return int(time.time()) + seconds
