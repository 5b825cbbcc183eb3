"""Keystone v3 for the local cloud: version discovery, tokens, catalog.

Mounted at the root of the URL space. Tokens are opaque random strings
stored only as sha256 hashes; passwords and application credential secrets
are stored as salted scrypt hashes. See CONTRACT.md §1–§2 for the behaviour
reproduced here, doc/localcloud-internals.md for application credentials.

``POST /v3/auth/tokens`` runs outside the request transaction: the secrets'
stored hashes are read in one short transaction, checked with no lock held
(scrypt takes ~45 ms), and the token is issued in a second short
transaction that re-checks the hashes did not change meanwhile.
"""

import base64
import datetime
import functools
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import uuid

from occli.localcloud import common
from occli.localcloud.app import Context, HTTPError, Response, Service
from occli.localcloud.app import Unauthenticated

VERSION = "v3.14"
VERSION_UPDATED = "2020-04-07T00:00:00Z"
METHODS = ("password", "token", "application_credential")
SCOPE_KEYS = ("project", "domain", "system", "OS-TRUST:trust", "unscoped")
ROLE_IMPLIES = {"admin": ("member",), "member": ("reader",)}
ALLOW_EXPIRED_WINDOW = 2 * 24 * 3600
DEFAULT_DOMAIN = "default"
INTERFACES = ("public", "internal", "admin")

# (type, name, URL template, needs a project)
CATALOG = (
    ("identity", "keystone", "{base}/v3", False),
    ("compute", "nova", "{base}/compute/v2.1", False),
    ("image", "glance", "{base}/image", False),
    ("orchestration", "heat", "{base}/orchestration/v1/{project_id}", True),
    ("object-store", "swift", "{base}/object-store/v1/AUTH_{project_id}", True),
)

_SCRYPT = {"n": 2 ** 14, "r": 8, "p": 1}
_ID_NAMESPACE = uuid.UUID("6f0f3c8e-5a53-4a8e-9d55-7c1c2c0a6e4b")

MIGRATIONS = [
    """
    CREATE TABLE domains (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        enabled INTEGER NOT NULL DEFAULT 1
    );
    CREATE TABLE projects (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        domain_id TEXT NOT NULL REFERENCES domains (id),
        enabled INTEGER NOT NULL DEFAULT 1,
        UNIQUE (domain_id, name)
    );
    CREATE TABLE users (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        domain_id TEXT NOT NULL REFERENCES domains (id),
        password_hash TEXT NOT NULL,
        default_project_id TEXT REFERENCES projects (id),
        enabled INTEGER NOT NULL DEFAULT 1,
        UNIQUE (domain_id, name)
    );
    CREATE TABLE roles (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE
    );
    CREATE TABLE role_assignments (
        user_id TEXT NOT NULL REFERENCES users (id),
        target_type TEXT NOT NULL CHECK (target_type IN ('project', 'domain')),
        target_id TEXT NOT NULL,
        role_id TEXT NOT NULL REFERENCES roles (id),
        PRIMARY KEY (user_id, target_type, target_id, role_id)
    );
    CREATE TABLE tokens (
        id_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users (id),
        project_id TEXT,
        domain_id TEXT,
        methods TEXT NOT NULL,
        audit_ids TEXT NOT NULL,
        issued_at REAL NOT NULL,
        expires_at REAL NOT NULL,
        revoked INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX tokens_expires_at ON tokens (expires_at);
    CREATE INDEX tokens_user_id ON tokens (user_id);
    """,
    """
    CREATE TABLE application_credentials (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        description TEXT,
        user_id TEXT NOT NULL REFERENCES users (id),
        project_id TEXT NOT NULL REFERENCES projects (id),
        secret_hash TEXT NOT NULL,
        expires_at REAL,
        unrestricted INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        UNIQUE (user_id, name)
    );
    CREATE TABLE application_credential_roles (
        application_credential_id TEXT NOT NULL
            REFERENCES application_credentials (id) ON DELETE CASCADE,
        role_id TEXT NOT NULL REFERENCES roles (id),
        PRIMARY KEY (application_credential_id, role_id)
    );
    ALTER TABLE tokens ADD COLUMN app_cred_id TEXT;
    CREATE INDEX tokens_app_cred_id ON tokens (app_cred_id);
    """,
]

APP_CRED_AUTH_FAILED = "Invalid application credential ID or secret"
APP_CRED_NO_SCOPE = ("Error authenticating with application credential:"
                     " Application credentials cannot request a scope.")
APP_CRED_RESTRICTED = (
    "You are not authorized to perform the requested action: Using method"
    " 'application_credential' is not allowed for managing additional"
    " application credentials.")


def hash_password(password, salt=None):
    """Salted scrypt hash of ``password`` as ``scrypt$n$r$p$salt$hash``."""
    salt = salt if salt is not None else os.urandom(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, dklen=32,
                            **_SCRYPT)
    return "scrypt$%d$%d$%d$%s$%s" % (_SCRYPT["n"], _SCRYPT["r"], _SCRYPT["p"],
                                      salt.hex(), digest.hex())


def verify_password(password, encoded):
    """Constant-time check of ``password`` against :func:`hash_password`."""
    try:
        scheme, n, r, p, salt, digest = encoded.split("$")
        if scheme != "scrypt":
            return False
        computed = hashlib.scrypt(password.encode("utf-8"),
                                  salt=bytes.fromhex(salt), n=int(n), r=int(r),
                                  p=int(p), dklen=len(digest) // 2)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(computed.hex(), digest)


@functools.lru_cache(maxsize=1)
def _dummy_hash():
    return hash_password(secrets.token_hex(16))


def _audit_id():
    return base64.urlsafe_b64encode(os.urandom(16)).rstrip(b"=").decode()


def _stable_id(*parts):
    return uuid.uuid5(_ID_NAMESPACE, "/".join(parts)).hex


def catalog(base_url, project_id, region):
    """The service catalog for ``base_url``; project-bound endpoints are
    omitted when ``project_id`` is None."""
    services = []
    for stype, name, template, needs_project in CATALOG:
        if needs_project and not project_id:
            continue
        url = template.format(base=base_url, project_id=project_id)
        services.append({
            "endpoints": [{
                "id": _stable_id("endpoint", stype, interface),
                "interface": interface,
                "region": region,
                "region_id": region,
                "url": url,
            } for interface in INTERFACES],
            "id": _stable_id("service", stype),
            "type": stype,
            "name": name,
        })
    return services


def _bad_request(message):
    return HTTPError(400, message)


class IdentityService(Service):
    """Keystone v3 (``/``, ``/v3``, ``/v3/auth/*``)."""

    name = "identity"
    prefix = ""
    requires_project = False

    def __init__(self, cloud):
        super().__init__(cloud)
        self.route("GET", "/", self.versions, auth=False)
        self.route("GET", "/v3", self.version, auth=False)
        self.route("POST", "/v3/auth/tokens", self.issue_token, auth=False,
                   mode=None)
        self.route("GET", "/v3/auth/tokens", self.validate_token)
        self.route("DELETE", "/v3/auth/tokens", self.revoke_token)
        self.route("GET", "/v3/auth/catalog", self.get_catalog)
        creds = "/v3/users/{user_id}/application_credentials"
        self.route("GET", creds, self.list_app_creds)
        self.route("POST", creds, self.create_app_cred, mode=None)
        self.route("GET", creds + "/{app_cred_id}", self.get_app_cred)
        self.route("DELETE", creds + "/{app_cred_id}", self.delete_app_cred)

    def migrations(self):
        return MIGRATIONS

    def error_body(self, status, message, extra):
        error = {"code": status, "title": common.reason(status), "message": message}
        error.update(extra)
        return {"error": error}

    # -- seed ---------------------------------------------------------------

    def seed(self, db):
        """Create the Default domain, admin/demo projects and users, roles."""
        cfg = self.cloud.config
        db.execute("INSERT OR IGNORE INTO domains (id, name) VALUES (?, ?)",
                   (DEFAULT_DOMAIN, "Default"))
        roles = {name: self._ensure_role(db, name)
                 for name in ("admin", "member", "reader")}
        admin_project = self._ensure_project(db, "admin")
        demo_project = self._ensure_project(db, "demo")
        admin = self._ensure_user(db, "admin", cfg.admin_password, admin_project)
        demo = self._ensure_user(db, "demo", cfg.demo_password, demo_project)
        for user, target_type, target, role in (
                (admin, "project", admin_project, "admin"),
                (admin, "project", demo_project, "admin"),
                (admin, "domain", DEFAULT_DOMAIN, "admin"),
                (demo, "project", demo_project, "member")):
            db.execute(
                "INSERT OR IGNORE INTO role_assignments"
                " (user_id, target_type, target_id, role_id)"
                " VALUES (?, ?, ?, ?)", (user, target_type, target, roles[role]))

    def _ensure_role(self, db, name):
        db.execute("INSERT OR IGNORE INTO roles (id, name) VALUES (?, ?)",
                   (uuid.uuid4().hex, name))
        return db.execute("SELECT id FROM roles WHERE name = ?",
                          (name,)).fetchone()["id"]

    def _ensure_project(self, db, name):
        db.execute("INSERT OR IGNORE INTO projects (id, name, domain_id)"
                   " VALUES (?, ?, ?)", (uuid.uuid4().hex, name, DEFAULT_DOMAIN))
        return self.project_id(db, name)

    def _ensure_user(self, db, name, password, project_id):
        row = db.execute(
            "SELECT id, password_hash FROM users"
            " WHERE name = ? AND domain_id = ?", (name, DEFAULT_DOMAIN)).fetchone()
        if row is None:
            user_id = uuid.uuid4().hex
            db.execute(
                "INSERT INTO users (id, name, domain_id, password_hash,"
                " default_project_id) VALUES (?, ?, ?, ?, ?)",
                (user_id, name, DEFAULT_DOMAIN, hash_password(password),
                 project_id))
            return user_id
        if not verify_password(password, row["password_hash"]):
            db.execute("UPDATE users SET password_hash = ? WHERE id = ?",
                       (hash_password(password), row["id"]))
            db.execute("UPDATE tokens SET revoked = 1 WHERE user_id = ?",
                       (row["id"],))
        db.execute("UPDATE users SET default_project_id = ? WHERE id = ?"
                   " AND default_project_id IS NULL", (project_id, row["id"]))
        return row["id"]

    # -- lookups other services may use ----------------------------------------

    def project_id(self, db, name, domain_id=DEFAULT_DOMAIN):
        """The id of project ``name`` in ``domain_id``, or None."""
        row = db.execute("SELECT id FROM projects WHERE name = ?"
                         " AND domain_id = ?", (name, domain_id)).fetchone()
        return row["id"] if row else None

    def user_id(self, db, name, domain_id=DEFAULT_DOMAIN):
        """The id of user ``name`` in ``domain_id``, or None."""
        row = db.execute("SELECT id FROM users WHERE name = ?"
                         " AND domain_id = ?", (name, domain_id)).fetchone()
        return row["id"] if row else None

    def project(self, db, project_id):
        """``{"id", "name", "domain_id", "enabled"}`` of a project, or None."""
        row = db.execute("SELECT id, name, domain_id, enabled FROM projects"
                         " WHERE id = ?", (project_id,)).fetchone()
        return dict(row) if row else None

    # -- middleware ------------------------------------------------------------

    def context_from_request(self, req):
        """Validate ``X-Auth-Token``: a :class:`Context`, or Unauthenticated."""
        raw = req.header("X-Auth-Token")
        token = self._load_token(req.db, raw) if raw else None
        if token is None:
            raise Unauthenticated(req.base_url + "/v3")
        project = token["project"]
        return Context(
            user_id=token["user"]["id"],
            user_name=token["user"]["name"],
            project_id=project["id"] if project else None,
            project_name=project["name"] if project else None,
            roles=[r["name"] for r in token["roles"]],
            token_id=common.hash_token(raw),
            domain_id=(project["domain"]["id"] if project else
                       (token["domain"] or token["user"]["domain"])["id"]),
            expires_at=common.from_timestamp(token["expires_at"]))

    # -- discovery -----------------------------------------------------------

    def _version(self, req):
        return {
            "id": VERSION,
            "status": "stable",
            "updated": VERSION_UPDATED,
            "links": [{"rel": "self", "href": req.base_url + "/v3/"}],
            "media-types": [{
                "base": "application/json",
                "type": "application/vnd.openstack.identity-v3+json"}],
        }

    def versions(self, req):
        return Response(300, {"versions": {"values": [self._version(req)]}},
                        headers={"Location": req.base_url + "/v3/"})

    def version(self, req):
        return {"version": self._version(req)}

    # -- tokens ----------------------------------------------------------------

    def issue_token(self, req):
        """``POST /v3/auth/tokens`` with the password, token and/or
        application_credential methods.

        Runs outside the request transaction (route ``mode=None``):
        1. a read transaction (no lock) reads the stored hashes;
        2. the secrets are checked with no database lock held;
        3. a short transaction re-reads the hashes (a password changed or a
           credential deleted meanwhile fails the login) and issues the token
           (a read one when a secret was wrong: the login is refused).
        """
        body = req.json()
        auth = body.get("auth") if isinstance(body, dict) else None
        if not isinstance(auth, dict):
            raise _bad_request("Invalid input for field 'auth': "
                               "'auth' is a required property.")
        identity = auth.get("identity")
        if not isinstance(identity, dict):
            raise _bad_request("Invalid input for field 'identity': "
                               "'identity' is a required property.")
        methods = identity.get("methods")
        if (not isinstance(methods, list) or not methods
                or not all(isinstance(m, str) for m in methods)):
            raise _bad_request("Invalid input for field 'identity/methods': "
                               "expected a non-empty list of strings.")
        methods = list(dict.fromkeys(methods))
        for method in methods:
            if not isinstance(identity.get(method), dict):
                raise _bad_request("Invalid input for field 'identity': "
                                   "'%s' is a required property." % method)
        scope = self._parse_scope(auth.get("scope"))
        if any(m not in METHODS for m in methods):
            raise self._unauthorized(
                req, "Attempted to authenticate with an unsupported method.",
                extra={"identity": {"methods": list(METHODS)}})
        if "application_credential" in methods and "scope" in auth:
            # keystone AuthInfo: the credential's project is the scope
            raise self._unauthorized(req, APP_CRED_NO_SCOPE)
        if "token" in methods:
            raw = identity["token"].get("id")
            if not isinstance(raw, str) or not raw:
                raise _bad_request("Invalid input for field 'identity/token':"
                                   " 'id' is a required property.")

        store = self.cloud.store
        checks = {}
        with store.read() as db:
            if "password" in methods:
                checks["password"] = self._password_lookup(
                    db, identity["password"])
            if "application_credential" in methods:
                checks["application_credential"] = self._app_cred_lookup(
                    db, identity["application_credential"])
        refused = not all([check.verify() for check in checks.values()])

        with store.read() if refused else store.transaction() as db:
            req.db = db
            try:
                return self._issue_token(req, db, methods, identity, scope,
                                         checks)
            finally:
                req.db = None

    def _issue_token(self, req, db, methods, identity, scope, checks):
        user_ids, parent, app_cred = set(), None, None
        if "password" in methods:
            user_ids.add(self._password_user(req, db, checks["password"]))
        if "application_credential" in methods:
            app_cred = self._app_cred_confirm(
                req, db, checks["application_credential"])
            user_ids.add(app_cred["user_id"])
        if "token" in methods:
            parent = self._token_method(req, identity["token"])
            user_ids.add(parent["user"]["id"])
        if len(user_ids) != 1:
            raise self._unauthorized(req, "The request you have made requires"
                                          " authentication.")
        user_id = user_ids.pop()
        app_cred_id = app_cred["id"] if app_cred else None
        if parent is not None and parent["application_credential"]:
            # a token obtained with an application credential keeps its
            # restrictions (project, roles) when exchanged
            parent_cred = parent["application_credential"]["id"]
            if app_cred_id not in (None, parent_cred):
                raise self._unauthorized(req, "The request you have made"
                                              " requires authentication.")
            app_cred_id = parent_cred
            if scope is not None and not (
                    scope[0] == "project"
                    and scope[1].get("id") == parent["project"]["id"]):
                raise self._unauthorized(req, APP_CRED_NO_SCOPE)
            project_id, domain_id = parent["project"]["id"], None
        elif app_cred is not None:
            project_id, domain_id = self._app_cred_project(req, db, app_cred)
        else:
            project_id, domain_id = self._resolve_scope(req, user_id, scope)

        now = common.utcnow().timestamp()
        if parent is not None:
            expires_at = parent["expires_at"]
            audit_ids = [_audit_id(), parent["audit_ids"][-1]]
            methods = list(dict.fromkeys(methods + parent["methods"]))
        else:
            expires_at = now + self.cloud.config.token_ttl
            audit_ids = [_audit_id()]
        if app_cred is not None and app_cred["expires_at"] is not None:
            # keystone: a token never outlives its application credential
            expires_at = min(expires_at, app_cred["expires_at"])
        raw = secrets.token_urlsafe(32)
        db.execute("DELETE FROM tokens WHERE expires_at < ?",
                   (now - ALLOW_EXPIRED_WINDOW,))
        db.execute(
            "INSERT INTO tokens (id_hash, user_id, project_id, domain_id,"
            " methods, audit_ids, issued_at, expires_at, app_cred_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (common.hash_token(raw), user_id, project_id, domain_id,
             json.dumps(methods), json.dumps(audit_ids), now, expires_at,
             app_cred_id))
        token = self._load_token(db, raw)
        if token is None:
            raise self._unauthorized(req, "The request you have made requires"
                                          " authentication.")
        return Response(201, self._token_body(req, token),
                        headers={"X-Subject-Token": raw,
                                 "Vary": "X-Auth-Token"})

    def _parse_scope(self, scope):
        """``None`` (default scoping), ``("unscoped",)``, or
        ``(kind, payload)`` for project/domain/system/trust."""
        if scope is None:
            return None
        if isinstance(scope, str):
            if scope != "unscoped":
                raise _bad_request("Invalid input for field 'scope': "
                                   "'%s' is not one of ['unscoped']." % scope)
            return ("unscoped",)
        if not isinstance(scope, dict):
            raise _bad_request("Invalid input for field 'scope': "
                               "expected an object or 'unscoped'.")
        keys = [k for k in scope if k in SCOPE_KEYS]
        if len(scope) > 1 or len(keys) != len(scope):
            raise _bad_request("Invalid input for field 'scope': exactly one"
                               " of %s is allowed." % ", ".join(SCOPE_KEYS))
        if not keys:
            return None
        kind = keys[0]
        if kind == "unscoped":
            return ("unscoped",)
        payload = scope[kind]
        if not isinstance(payload, dict):
            raise _bad_request("Invalid input for field 'scope/%s': "
                               "expected an object." % kind)
        if kind == "project":
            if "id" not in payload:
                if "name" not in payload:
                    raise _bad_request("Invalid input for field "
                                       "'scope/project': either id or name"
                                       " is required.")
                if not _domain_ref_ok(payload.get("domain")):
                    raise _bad_request("Invalid input for field "
                                       "'scope/project/domain': a domain id"
                                       " or name is required with a project"
                                       " name.")
        elif kind == "domain":
            if "id" not in payload and "name" not in payload:
                raise _bad_request("Invalid input for field 'scope/domain':"
                                   " either id or name is required.")
        return (kind, payload)

    def _unauthorized(self, req, message, extra=None):
        return HTTPError(401, message, extra=extra, headers={
            "WWW-Authenticate": 'Keystone uri="%s"' % req.base_url})

    def _password_lookup(self, db, payload):
        """The :class:`_SecretCheck` of a password method payload (400 for
        a malformed one); no hashing here, the caller holds the lock."""
        user = payload.get("user")
        if not isinstance(user, dict):
            raise _bad_request("Invalid input for field 'identity/password':"
                               " 'user' is a required property.")
        password = user.get("password")
        if "id" in user:
            row = db.execute("SELECT id, password_hash FROM users"
                             " WHERE id = ?", (str(user["id"]),)).fetchone()
        elif "name" in user:
            if not _domain_ref_ok(user.get("domain")):
                raise _bad_request("Invalid input for field 'identity/password"
                                   "/user/domain': a domain id or name is"
                                   " required with a user name.")
            domain = self._find_domain(db, user["domain"])
            row = domain and db.execute(
                "SELECT id, password_hash FROM users"
                " WHERE name = ? AND domain_id = ?",
                (str(user["name"]), domain["id"])).fetchone()
        else:
            raise _bad_request("Invalid input for field 'identity/password"
                               "/user': either id or name is required.")
        return _SecretCheck(row["id"] if row else None,
                            row["password_hash"] if row else None, password)

    def _password_user(self, req, db, check):
        """The user id of a verified password check, or 401."""
        row = check.row_id and db.execute(
            "SELECT * FROM users WHERE id = ?", (check.row_id,)).fetchone()
        if not row or not check.ok or row["password_hash"] != check.encoded:
            raise self._unauthorized(req, "Invalid username or password")
        self._check_user_enabled(req, db, row)
        return row["id"]

    def _check_user_enabled(self, req, db, row):
        domain = self._find_domain(db, {"id": row["domain_id"]})
        if not row["enabled"] or not domain or not domain["enabled"]:
            raise self._unauthorized(
                req, "The account is disabled for user: %s" % row["id"])

    def _app_cred_lookup(self, db, payload):
        """The :class:`_SecretCheck` of an application_credential method
        payload: by ``id``, or by ``name`` + ``user`` (``id``, or ``name``
        + ``domain``)."""
        secret = payload.get("secret")
        field = "identity/application_credential"
        if "id" in payload:
            row = db.execute(
                "SELECT id, secret_hash FROM application_credentials"
                " WHERE id = ?", (str(payload["id"]),)).fetchone()
        elif "name" in payload:
            user = payload.get("user")
            if not isinstance(user, dict):
                raise _bad_request("Invalid input for field '%s': 'user' is"
                                   " required with a name." % field)
            if "id" in user:
                user_id = str(user["id"])
            elif "name" in user:
                if not _domain_ref_ok(user.get("domain")):
                    raise _bad_request(
                        "Invalid input for field '%s/user/domain': a domain"
                        " id or name is required with a user name." % field)
                domain = self._find_domain(db, user["domain"])
                user_id = domain and self.user_id(db, str(user["name"]),
                                                  domain["id"])
            else:
                raise _bad_request("Invalid input for field '%s/user': either"
                                   " id or name is required." % field)
            row = user_id and db.execute(
                "SELECT id, secret_hash FROM application_credentials"
                " WHERE user_id = ? AND name = ?",
                (user_id, str(payload["name"]))).fetchone()
        else:
            raise _bad_request("Invalid input for field '%s': either id or"
                               " name is required." % field)
        return _SecretCheck(row["id"] if row else None,
                            row["secret_hash"] if row else None, secret)

    def _app_cred_confirm(self, req, db, check):
        """The application credential row of a verified check, or 401
        (unknown, deleted meanwhile, wrong secret, expired, user disabled)."""
        row = check.row_id and db.execute(
            "SELECT * FROM application_credentials WHERE id = ?",
            (check.row_id,)).fetchone()
        if not row or not check.ok or row["secret_hash"] != check.encoded:
            raise self._unauthorized(req, APP_CRED_AUTH_FAILED)
        if (row["expires_at"] is not None
                and row["expires_at"] <= common.utcnow().timestamp()):
            raise self._unauthorized(req, APP_CRED_AUTH_FAILED)
        user = db.execute("SELECT * FROM users WHERE id = ?",
                          (row["user_id"],)).fetchone()
        self._check_user_enabled(req, db, user)
        return row

    def _app_cred_project(self, req, db, app_cred):
        """``(project_id, None)``: the credential's project, checked."""
        project = db.execute(
            "SELECT p.id, p.enabled, d.enabled AS domain_enabled"
            " FROM projects p JOIN domains d ON d.id = p.domain_id"
            " WHERE p.id = ?", (app_cred["project_id"],)).fetchone()
        if not project or not project["enabled"] or not project[
                "domain_enabled"]:
            raise self._unauthorized(
                req, "Project %s is disabled." % app_cred["project_id"])
        return project["id"], None

    def _token_method(self, req, payload):
        token = self._load_token(req.db, payload["id"])
        if token is None:
            raise self._unauthorized(req, "Could not find token.")
        return token

    def _find_domain(self, db, ref):
        if "id" in ref:
            row = db.execute("SELECT * FROM domains WHERE id = ?",
                             (str(ref["id"]),)).fetchone()
        else:
            row = db.execute("SELECT * FROM domains WHERE name = ?",
                             (str(ref["name"]),)).fetchone()
        return row

    def _resolve_scope(self, req, user_id, scope):
        """``(project_id, domain_id)`` of the requested scope, checked."""
        db = req.db
        if scope is None:
            row = db.execute(
                "SELECT p.id FROM users u"
                " JOIN projects p ON p.id = u.default_project_id"
                " JOIN domains d ON d.id = p.domain_id"
                " WHERE u.id = ? AND p.enabled AND d.enabled",
                (user_id,)).fetchone()
            if row and self._role_names(db, user_id, "project", row["id"]):
                return row["id"], None
            return None, None
        kind = scope[0]
        if kind == "unscoped":
            return None, None
        payload = scope[1]
        if kind == "project":
            if "id" in payload:
                project = db.execute("SELECT * FROM projects WHERE id = ?",
                                     (str(payload["id"]),)).fetchone()
            else:
                domain = self._find_domain(db, payload["domain"])
                project = domain and db.execute(
                    "SELECT * FROM projects WHERE name = ? AND domain_id = ?",
                    (str(payload["name"]), domain["id"])).fetchone()
            if project is None:
                raise self._unauthorized(req, "Could not find project: %s" % (
                    payload.get("id") or payload.get("name")))
            domain = self._find_domain(db, {"id": project["domain_id"]})
            if not project["enabled"] or not domain["enabled"]:
                raise self._unauthorized(
                    req, "Project %s is disabled." % project["id"])
            if not self._role_names(db, user_id, "project", project["id"]):
                raise self._unauthorized(
                    req, "User %s has no access to project %s" % (
                        user_id, project["id"]))
            return project["id"], None
        if kind == "domain":
            domain = self._find_domain(db, payload)
            if domain is None:
                raise self._unauthorized(req, "Could not find domain: %s" % (
                    payload.get("id") or payload.get("name")))
            if not domain["enabled"]:
                raise self._unauthorized(
                    req, "Domain %s is disabled." % domain["id"])
            if not self._role_names(db, user_id, "domain", domain["id"]):
                raise self._unauthorized(
                    req, "User %s has no access to domain %s" % (
                        user_id, domain["id"]))
            return None, domain["id"]
        if kind == "system":
            raise self._unauthorized(
                req, "User %s has no access to the system" % user_id)
        raise self._unauthorized(req, "Trusts are not supported.")

    def _role_names(self, db, user_id, target_type, target_id):
        rows = db.execute(
            "SELECT r.name FROM role_assignments a JOIN roles r"
            " ON r.id = a.role_id WHERE a.user_id = ? AND a.target_type = ?"
            " AND a.target_id = ?", (user_id, target_type, target_id))
        names = {row["name"] for row in rows}
        pending = list(names)
        while pending:
            for implied in ROLE_IMPLIES.get(pending.pop(), ()):
                if implied not in names:
                    names.add(implied)
                    pending.append(implied)
        return names

    def _load_token(self, db, raw, allow_expired=False):
        """The token ``raw`` as a dict, or None if unknown/expired/revoked
        or its user, project or domain is disabled or without roles."""
        row = db.execute(
            "SELECT t.*, u.name AS user_name, u.domain_id AS user_domain_id,"
            " u.enabled AS user_enabled, ud.name AS user_domain_name,"
            " ud.enabled AS user_domain_enabled,"
            " ac.id AS ac_id, ac.name AS ac_name,"
            " ac.unrestricted AS ac_unrestricted"
            " FROM tokens t JOIN users u ON u.id = t.user_id"
            " JOIN domains ud ON ud.id = u.domain_id"
            " LEFT JOIN application_credentials ac ON ac.id = t.app_cred_id"
            " WHERE t.id_hash = ?", (common.hash_token(raw),)).fetchone()
        if row is None or row["revoked"]:
            return None
        if row["app_cred_id"] and row["ac_id"] is None:
            return None  # its application credential was deleted
        if not row["user_enabled"] or not row["user_domain_enabled"]:
            return None
        now = common.utcnow().timestamp()
        window = ALLOW_EXPIRED_WINDOW if allow_expired else 0
        if row["expires_at"] + window <= now:
            return None
        token = {
            "user": {"id": row["user_id"], "name": row["user_name"],
                     "domain": {"id": row["user_domain_id"],
                                "name": row["user_domain_name"]}},
            "methods": json.loads(row["methods"]),
            "audit_ids": json.loads(row["audit_ids"]),
            "issued_at": row["issued_at"],
            "expires_at": row["expires_at"],
            "project": None,
            "domain": None,
            "roles": [],
            "application_credential": None,
        }
        if row["ac_id"]:
            token["application_credential"] = {
                "id": row["ac_id"], "name": row["ac_name"],
                "restricted": not row["ac_unrestricted"]}
        if row["project_id"]:
            project = db.execute(
                "SELECT p.id, p.name, p.enabled, d.id AS domain_id,"
                " d.name AS domain_name, d.enabled AS domain_enabled"
                " FROM projects p JOIN domains d ON d.id = p.domain_id"
                " WHERE p.id = ?", (row["project_id"],)).fetchone()
            if not project or not project["enabled"] or not project[
                    "domain_enabled"]:
                return None
            token["project"] = {"id": project["id"], "name": project["name"],
                                "domain": {"id": project["domain_id"],
                                           "name": project["domain_name"]}}
            names = self._role_names(db, row["user_id"], "project",
                                     project["id"])
            if row["ac_id"]:
                # keystone: the credential's roles the user still has
                names &= {r["name"] for r in db.execute(
                    "SELECT r.name FROM application_credential_roles a"
                    " JOIN roles r ON r.id = a.role_id"
                    " WHERE a.application_credential_id = ?",
                    (row["ac_id"],))}
        elif row["domain_id"]:
            domain = self._find_domain(db, {"id": row["domain_id"]})
            if not domain or not domain["enabled"]:
                return None
            token["domain"] = {"id": domain["id"], "name": domain["name"]}
            names = self._role_names(db, row["user_id"], "domain", domain["id"])
        else:
            return token
        if not names:
            return None
        marks = ",".join("?" * len(names))
        token["roles"] = [dict(r) for r in db.execute(
            "SELECT id, name FROM roles WHERE name IN (%s) ORDER BY name"
            % marks, sorted(names))]
        return token

    def _token_body(self, req, token, with_catalog=None):
        if with_catalog is None:
            with_catalog = "nocatalog" not in req.query
        body = {
            "audit_ids": token["audit_ids"],
            "expires_at": common.iso_micro_z(
                common.from_timestamp(token["expires_at"])),
            "issued_at": common.iso_micro_z(
                common.from_timestamp(token["issued_at"])),
            "methods": token["methods"],
            "user": dict(token["user"], password_expires_at=None),
        }
        if token["application_credential"] is not None:
            body["application_credential"] = dict(
                token["application_credential"])
        project = token["project"]
        if project is not None:
            body["project"] = project
            body["is_domain"] = False
        elif token["domain"] is not None:
            body["domain"] = token["domain"]
        else:
            return {"token": body}
        body["roles"] = token["roles"]
        if with_catalog:
            body["catalog"] = catalog(req.base_url,
                                      project["id"] if project else None,
                                      self.cloud.config.region)
        return {"token": body}

    def _subject_token(self, req, action):
        raw = req.header("X-Subject-Token")
        if not raw:
            raise _bad_request("The X-Subject-Token header is required.")
        allow_expired = (req.arg("allow_expired") or "").lower() in (
            "1", "true", "yes", "on")
        token = self._load_token(req.db, raw, allow_expired=allow_expired)
        if token is None:
            raise HTTPError(404, "Could not find token: %s" % raw)
        caller = req.context
        if not caller.is_admin and caller.user_id != token["user"]["id"]:
            raise HTTPError(403, "You are not authorized to perform the"
                                 " requested action: identity:%s." % action)
        return raw, token

    def validate_token(self, req):
        """``GET``/``HEAD /v3/auth/tokens``: validate ``X-Subject-Token``."""
        raw, token = self._subject_token(req, "validate_token")
        return Response(200, self._token_body(req, token),
                        headers={"X-Subject-Token": raw,
                                 "Vary": "X-Auth-Token"})

    def revoke_token(self, req):
        """``DELETE /v3/auth/tokens``: revoke ``X-Subject-Token``."""
        raw, _token = self._subject_token(req, "revoke_token")
        req.db.execute("UPDATE tokens SET revoked = 1 WHERE id_hash = ?",
                       (common.hash_token(raw),))
        return Response(204)

    def get_catalog(self, req):
        """``GET /v3/auth/catalog`` for the caller's token."""
        token = self._load_token(req.db, req.header("X-Auth-Token"))
        # keystone AuthCatalogResource.get: only a project scope will do
        # (unscoped, domain- and system-scoped tokens are all 403)
        if token["project"] is None:
            raise HTTPError(403, "A project-scoped token is required to"
                                 " produce a service catalog.")
        project_id = token["project"]["id"]
        return {
            "catalog": catalog(req.base_url, project_id,
                               self.cloud.config.region),
            "links": {"self": req.base_url + "/v3/auth/catalog",
                      "previous": None, "next": None},
        }

    # -- application credentials -----------------------------------------------

    def _app_cred_url(self, req, user_id, cred_id=None):
        url = "%s/v3/users/%s/application_credentials" % (req.base_url, user_id)
        return url + "/" + cred_id if cred_id else url

    def _app_cred_body(self, req, db, row, secret=None):
        roles = [{"id": r["id"], "name": r["name"], "domain_id": None}
                 for r in db.execute(
                     "SELECT r.id, r.name FROM application_credential_roles a"
                     " JOIN roles r ON r.id = a.role_id"
                     " WHERE a.application_credential_id = ?"
                     " ORDER BY r.name", (row["id"],))]
        expires = row["expires_at"]
        body = {
            "id": row["id"],
            "name": row["name"],
            "description": row["description"],
            "user_id": row["user_id"],
            "project_id": row["project_id"],
            "system": None,
            "expires_at": (common.iso_naive_micro(common.from_timestamp(
                expires)) if expires is not None else None),
            "unrestricted": bool(row["unrestricted"]),
            "roles": roles,
            "links": {"self": self._app_cred_url(req, row["user_id"],
                                                 row["id"])},
        }
        if secret is not None:
            body["secret"] = secret
        return body

    def _caller_token(self, req):
        return self._load_token(req.db, req.header("X-Auth-Token"))

    def _forbidden(self, action):
        return HTTPError(403, "You are not authorized to perform the"
                              " requested action: %s." % action)

    def create_app_cred(self, req):
        """``POST /v3/users/{user_id}/application_credentials``.

        Runs outside the request transaction (the secret is hashed with no
        lock held); the checks and the insert share one short transaction.
        """
        user_id = req.params["user_id"]
        if req.context.user_id != user_id:
            raise self._forbidden("identity:create_application_credential")
        data = _app_cred_create_input(req.json())
        secret = data["secret"] or _generate_secret()
        secret_hash = hash_password(secret)
        with self.cloud.store.transaction() as db:
            req.db = db
            try:
                return self._create_app_cred(req, db, user_id, data, secret,
                                             secret_hash)
            finally:
                req.db = None

    def _create_app_cred(self, req, db, user_id, data, secret, secret_hash):
        token = self._caller_token(req)
        if token is None:
            raise Unauthenticated(req.base_url + "/v3")
        cred = token["application_credential"]
        if cred is not None and cred["restricted"]:
            raise HTTPError(403, APP_CRED_RESTRICTED)
        if token["project"] is None:
            raise _bad_request("Invalid application credential: a project"
                               "-scoped token is required to create an"
                               " application credential.")
        token_roles = {r["id"]: r for r in token["roles"]}
        if data["roles"] is None:
            roles = list(token_roles)
        else:
            roles = []
            for ref in data["roles"]:
                key = "id" if "id" in ref else "name"
                row = db.execute("SELECT id FROM roles WHERE %s = ?" % key,
                                 (str(ref[key]),)).fetchone()
                if row is None:
                    raise HTTPError(404, "Could not find role: %s." % ref[key])
                if row["id"] not in token_roles:
                    raise _bad_request(
                        "Invalid application credential: Cannot create an"
                        " application credential with unassigned role")
                if row["id"] not in roles:
                    roles.append(row["id"])
        cred_id = uuid.uuid4().hex
        try:
            db.execute(
                "INSERT INTO application_credentials (id, name, description,"
                " user_id, project_id, secret_hash, expires_at, unrestricted,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (cred_id, data["name"], data["description"], user_id,
                 token["project"]["id"], secret_hash, data["expires_at"],
                 int(data["unrestricted"]), common.utcnow().timestamp()))
        except sqlite3.IntegrityError:
            raise HTTPError(409, "Conflict occurred attempting to store"
                                 " application_credential - Duplicate entry"
                                 " found with name %s." % data["name"])
        db.executemany(
            "INSERT INTO application_credential_roles"
            " (application_credential_id, role_id) VALUES (?, ?)",
            [(cred_id, role_id) for role_id in roles])
        row = db.execute("SELECT * FROM application_credentials WHERE id = ?",
                         (cred_id,)).fetchone()
        return Response(201, {"application_credential": self._app_cred_body(
            req, db, row, secret=secret)})

    def list_app_creds(self, req):
        """``GET /v3/users/{user_id}/application_credentials[?name=]``."""
        user_id = req.params["user_id"]
        if req.context.user_id != user_id:
            raise self._forbidden("identity:list_application_credentials")
        sql = "SELECT * FROM application_credentials WHERE user_id = ?"
        args = [user_id]
        name = req.arg("name")
        if name is not None:
            sql += " AND name = ?"
            args.append(name)
        rows = req.db.execute(sql + " ORDER BY created_at, id", args)
        url = self._app_cred_url(req, user_id)
        if req.query_string:
            url += "?" + req.query_string
        return {"application_credentials": [
            self._app_cred_body(req, req.db, row) for row in rows],
            "links": {"self": url, "previous": None, "next": None}}

    def _owned_app_cred(self, req, action):
        """The credential of the URL, checked against the caller (as
        keystone: the owner is the credential's user, not the URL's)."""
        row = req.db.execute(
            "SELECT * FROM application_credentials WHERE id = ?",
            (req.params["app_cred_id"],)).fetchone()
        owner = row["user_id"] if row else req.params["user_id"]
        if req.context.user_id != owner:
            raise self._forbidden("identity:%s" % action)
        if row is None:
            raise HTTPError(404, "Could not find application credential: %s."
                            % req.params["app_cred_id"])
        return row

    def get_app_cred(self, req):
        """``GET /v3/users/{user_id}/application_credentials/{id}``."""
        row = self._owned_app_cred(req, "get_application_credential")
        return {"application_credential": self._app_cred_body(req, req.db,
                                                              row)}

    def delete_app_cred(self, req):
        """``DELETE /v3/users/{user_id}/application_credentials/{id}``:
        also invalidates the tokens obtained with it."""
        row = self._owned_app_cred(req, "delete_application_credential")
        cred = self._caller_token(req)["application_credential"]
        if cred is not None and cred["restricted"]:
            raise HTTPError(403, APP_CRED_RESTRICTED)
        req.db.execute("DELETE FROM application_credentials WHERE id = ?",
                       (row["id"],))
        req.db.execute("UPDATE tokens SET revoked = 1 WHERE app_cred_id = ?",
                       (row["id"],))
        return Response(204)


class _SecretCheck:
    """A secret to check against a stored hash, outside any transaction.

    ``row_id`` is the user/credential id (None if unknown: the check then
    runs against a dummy hash so timing does not tell), ``encoded`` the
    stored hash as read, ``ok`` the result of :meth:`verify`.
    """

    def __init__(self, row_id, encoded, secret):
        self.row_id = row_id
        self.encoded = encoded
        self.secret = secret if isinstance(secret, str) else ""
        self.ok = False

    def verify(self):
        ok = verify_password(self.secret, self.encoded or _dummy_hash())
        self.ok = ok and self.encoded is not None
        return self.ok


def _generate_secret():
    """64 random bytes, url-safe base64 without padding (as keystone)."""
    return base64.urlsafe_b64encode(os.urandom(64)).rstrip(b"=").decode()


def _parse_expires_at(value):
    """An ISO 8601 time (naive = UTC) as a timestamp, not in the past."""
    try:
        parsed = datetime.datetime.fromisoformat(value.strip())
    except ValueError:
        raise _bad_request(
            "Timestamp not in expected format. The server could not comply"
            " with the request since it is either malformed or otherwise"
            " incorrect. The client is assumed to be in error.")
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=datetime.timezone.utc)
    if parsed <= common.utcnow():
        raise _bad_request("The 'expires_at' must not be before now.")
    return parsed.timestamp()


def _app_cred_create_input(body):
    """The checked ``application_credential`` of a create request (keystone's
    schema): ``name``, ``description``, ``secret``, ``expires_at`` (a
    timestamp or None), ``roles`` (None = the token's), ``unrestricted``."""
    field = "Invalid input for field '%s': %s"
    data = body.get("application_credential") if isinstance(body,
                                                            dict) else None
    if not isinstance(data, dict):
        raise _bad_request(field % ("application_credential",
                                    "'application_credential' is a required"
                                    " property."))
    name = data.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 255:
        raise _bad_request(field % ("name", "'name' is a required property"
                                    " (a string of 1 to 255 characters)."))
    for key in ("description", "secret", "expires_at"):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise _bad_request(field % (key, "expected a string or null."))
    unrestricted = data.get("unrestricted", False)
    if not isinstance(unrestricted, bool):
        raise _bad_request(field % ("unrestricted", "expected a boolean."))
    roles = data.get("roles")
    if roles is not None:
        if not isinstance(roles, list) or not all(
                isinstance(r, dict) and len(r) == 1
                and set(r) <= {"id", "name"} for r in roles):
            raise _bad_request(field % ("roles", "expected a list of objects"
                                        " with one of 'id' or 'name'."))
        roles = roles or None
    if data.get("access_rules"):
        raise _bad_request(field % ("access_rules", "access rules are not"
                                    " supported by the local cloud."))
    expires_at = data.get("expires_at")
    return {
        "name": name,
        "description": data.get("description"),
        "secret": data.get("secret") or None,
        "expires_at": (_parse_expires_at(expires_at) if expires_at
                       else None),
        "roles": roles,
        "unrestricted": unrestricted,
    }


def _domain_ref_ok(ref):
    return isinstance(ref, dict) and ("id" in ref or "name" in ref)
