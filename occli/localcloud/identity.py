"""Keystone v3 for the local cloud: version discovery, tokens, catalog.

Mounted at the root of the URL space. Tokens are opaque random strings
stored only as sha256 hashes; passwords are stored as salted scrypt hashes.
See CONTRACT.md §1–§2 for the behaviour reproduced here.
"""

import base64
import functools
import hashlib
import hmac
import json
import os
import secrets
import uuid

from occli.localcloud import common
from occli.localcloud.app import Context, HTTPError, Response, Service
from occli.localcloud.app import Unauthenticated

VERSION = "v3.14"
VERSION_UPDATED = "2020-04-07T00:00:00Z"
METHODS = ("password", "token")
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
]


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
        self.route("POST", "/v3/auth/tokens", self.issue_token, auth=False)
        self.route("GET", "/v3/auth/tokens", self.validate_token)
        self.route("DELETE", "/v3/auth/tokens", self.revoke_token)
        self.route("GET", "/v3/auth/catalog", self.get_catalog)

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
        """``POST /v3/auth/tokens`` with the password and/or token methods."""
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

        db = req.db
        user_ids, parent = set(), None
        if "password" in methods:
            user_ids.add(self._password_user(req, identity["password"]))
        if "token" in methods:
            parent = self._token_method(req, identity["token"])
            user_ids.add(parent["user"]["id"])
        if len(user_ids) != 1:
            raise self._unauthorized(req, "The request you have made requires"
                                          " authentication.")
        user_id = user_ids.pop()
        project_id, domain_id = self._resolve_scope(req, user_id, scope)

        now = common.utcnow().timestamp()
        if parent is not None:
            expires_at = parent["expires_at"]
            audit_ids = [_audit_id(), parent["audit_ids"][-1]]
            methods = list(dict.fromkeys(methods + parent["methods"]))
        else:
            expires_at = now + self.cloud.config.token_ttl
            audit_ids = [_audit_id()]
        raw = secrets.token_urlsafe(32)
        db.execute("DELETE FROM tokens WHERE expires_at < ?",
                   (now - ALLOW_EXPIRED_WINDOW,))
        db.execute(
            "INSERT INTO tokens (id_hash, user_id, project_id, domain_id,"
            " methods, audit_ids, issued_at, expires_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (common.hash_token(raw), user_id, project_id, domain_id,
             json.dumps(methods), json.dumps(audit_ids), now, expires_at))
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

    def _password_user(self, req, payload):
        user = payload.get("user")
        if not isinstance(user, dict):
            raise _bad_request("Invalid input for field 'identity/password':"
                               " 'user' is a required property.")
        password = user.get("password")
        db = req.db
        if "id" in user:
            row = db.execute("SELECT * FROM users WHERE id = ?",
                             (str(user["id"]),)).fetchone()
        elif "name" in user:
            if not _domain_ref_ok(user.get("domain")):
                raise _bad_request("Invalid input for field 'identity/password"
                                   "/user/domain': a domain id or name is"
                                   " required with a user name.")
            domain = self._find_domain(db, user["domain"])
            row = domain and db.execute(
                "SELECT * FROM users WHERE name = ? AND domain_id = ?",
                (str(user["name"]), domain["id"])).fetchone()
        else:
            raise _bad_request("Invalid input for field 'identity/password"
                               "/user': either id or name is required.")
        if not isinstance(password, str):
            password = ""
        ok = verify_password(password, row["password_hash"] if row
                             else _dummy_hash())
        if row is None or not ok:
            raise self._unauthorized(req, "Invalid username or password")
        domain = self._find_domain(db, {"id": row["domain_id"]})
        if not row["enabled"] or not domain or not domain["enabled"]:
            raise self._unauthorized(
                req, "The account is disabled for user: %s" % row["id"])
        return row["id"]

    def _token_method(self, req, payload):
        raw = payload.get("id")
        if not isinstance(raw, str) or not raw:
            raise _bad_request("Invalid input for field 'identity/token':"
                               " 'id' is a required property.")
        token = self._load_token(req.db, raw)
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
            " ud.enabled AS user_domain_enabled"
            " FROM tokens t JOIN users u ON u.id = t.user_id"
            " JOIN domains ud ON ud.id = u.domain_id"
            " WHERE t.id_hash = ?", (common.hash_token(raw),)).fetchone()
        if row is None or row["revoked"]:
            return None
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
        }
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


def _domain_ref_ok(ref):
    return isinstance(ref, dict) and ("id" in ref or "name" in ref)
