"""Tokens: issue (scope resolution, exchange, expiry), load, revoke.

Tokens are opaque random strings stored only as sha256 hashes. A loaded
token is a dict: ``user``, ``methods``, ``audit_ids``, ``issued_at`` and
``expires_at`` (timestamps), ``project``/``domain`` (the scope or None),
``system`` (True for a token scoped to the system: keystone's
``system: {"all": true}``), ``roles``, ``application_credential``
(``id``, ``name``, ``restricted``, ``access_rules`` if it has any, or None)
and ``trust`` (keystone's ``OS-TRUST:trust`` member, or None).
"""

import base64
import json
import os
import secrets
import sqlite3
import threading

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.identity import app_credentials
from occli.localcloud.identity import assignments
from occli.localcloud.identity import projects
from occli.localcloud.identity import trusts
from occli.localcloud.identity import users
from occli.localcloud.identity.users import AUTH_REQUIRED

ALLOW_EXPIRED_WINDOW = 2 * 24 * 3600


def _audit_id():
    return base64.urlsafe_b64encode(os.urandom(16)).rstrip(b"=").decode()


def load(db, raw, allow_expired=False):
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
        " WHERE t.id_hash = ?",
        (common.hash_token(raw),),
    ).fetchone()
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
        "user": {
            "id": row["user_id"],
            "name": row["user_name"],
            "domain": {"id": row["user_domain_id"], "name": row["user_domain_name"]},
        },
        "methods": json.loads(row["methods"]),
        "audit_ids": json.loads(row["audit_ids"]),
        "issued_at": row["issued_at"],
        "expires_at": row["expires_at"],
        "project": None,
        "domain": None,
        "system": bool(row["system"]),
        "roles": [],
        "application_credential": None,
        "trust": None,
    }
    if row["ac_id"]:
        token["application_credential"] = {
            "id": row["ac_id"],
            "name": row["ac_name"],
            "restricted": not row["ac_unrestricted"],
        }
        rules = app_credentials.credential_access_rules(db, row["ac_id"])
        if rules is not None:
            token["application_credential"]["access_rules"] = rules
    if row["project_id"]:
        project = projects.scoped_project(db, row["project_id"])
        if project is None:
            return None
        token["project"] = project
        names = assignments.role_names(db, row["user_id"], "project", project["id"])
        if row["ac_id"]:
            # keystone: the credential's roles the user still has
            names &= {r["name"] for r in app_credentials.roles(db, row["ac_id"])}
        if row["trust_id"]:
            # keystone: the trust's roles its trustor still has
            names = trusts.token_role_names(db, row["trust_id"])
            if names is None:
                return None  # its trust was deleted
            token["trust"] = trusts.token_trust(db, row["trust_id"])
    elif row["domain_id"]:
        domain = projects.find_domain(db, {"id": row["domain_id"]})
        if not domain or not domain["enabled"]:
            return None
        token["domain"] = {"id": domain["id"], "name": domain["name"]}
        names = assignments.role_names(db, row["user_id"], "domain", domain["id"])
    elif row["system"]:
        names = assignments.system_role_names(db, row["user_id"])
    else:
        return token
    if not names:
        return None
    token["roles"] = assignments.roles_named(db, names)
    if token["trust"] is not None:
        # keystone 30 lists a trust-scoped token's roles as the roles' refs
        # (keystone-30-trusts.json); other tokens' as id and name
        token["roles"] = [_role_ref(db, r) for r in token["roles"]]
    return token


class Validated:
    """Tokens :func:`load` accepted, remembered per thread while the
    database is unchanged: every authenticated request validates its token
    (four queries), most between two writes with the same few tokens.

    Only a read-only connection (the store's read transactions) uses the
    memo, keyed by its ``PRAGMA data_version``, which changes with any
    commit of any other connection (the writes of every thread and
    process): a revocation, a disabled user or project, a removed role
    assignment or a deleted credential or trust is seen by the next
    request. A write connection never sees its own commits in that
    number, so a request in a write transaction always loads. Expiry is
    checked on every use. The tokens returned are shared: read, never
    change them.
    """

    MAX_TOKENS = 256

    def __init__(self) -> None:
        self._local = threading.local()

    def load(self, db: sqlite3.Connection, raw: str) -> dict | None:
        """:func:`load` ``raw`` (no expired window), memoised as above."""
        memo = getattr(self._local, "memo", None)
        if memo is None or memo["db"] is not db:
            if db.execute("PRAGMA query_only").fetchone()[0] != 1:
                return load(db, raw)  # a write connection: never memoised
            memo = self._local.memo = {"db": db, "version": None, "tokens": {}}
        version = db.execute("PRAGMA data_version").fetchone()[0]
        known = memo["tokens"]
        if memo["version"] != version or len(known) >= self.MAX_TOKENS:
            known.clear()
            memo["version"] = version
        key = common.hash_token(raw)
        if key not in known:
            known[key] = load(db, raw)
        token = known[key]
        if token is not None and token["expires_at"] <= common.utcnow().timestamp():
            return None
        return token


def _role_ref(db, role):
    row = db.execute("SELECT description FROM roles WHERE id = ?", (role["id"],)).fetchone()
    return dict(
        role,
        domain_id=None,
        description=row["description"],
        options={"immutable": True} if assignments.immutable(role) else {},
    )


def revoke(db, raw):
    db.execute("UPDATE tokens SET revoked = 1 WHERE id_hash = ?", (common.hash_token(raw),))


def issue(db, methods, identity, scope, checks, ttl):
    """Issue a token; ``(raw, token)`` or Unauthorized.

    ``identity`` is the request's ``auth.identity``, ``scope`` as
    ``schemas.parse_scope`` returns it, ``checks`` the verified
    :class:`~.passwords.SecretCheck` per secret method, ``ttl`` seconds.
    """
    user_ids, parent, app_cred = set(), None, None
    if "password" in methods:
        user_ids.add(users.password_user(db, checks["password"]))
    if "application_credential" in methods:
        app_cred = app_credentials.confirm(db, checks["application_credential"])
        user_ids.add(app_cred["user_id"])
    if "token" in methods:
        parent = load(db, identity["token"]["id"])
        if parent is None:
            raise errors.Unauthorized("Could not find token.")
        user_ids.add(parent["user"]["id"])
    if len(user_ids) != 1:
        raise errors.Unauthorized(AUTH_REQUIRED)
    user_id = user_ids.pop()
    app_cred_id = app_cred["id"] if app_cred else None
    trust = None
    if parent is not None and parent["trust"] is not None:
        raise errors.Forbidden(
            "You are not authorized to perform the requested action: Using trust-scoped"
            " token to create another token. Create a new trust-scoped token instead."
        )
    if parent is not None and parent["application_credential"]:
        # a token obtained with an application credential keeps its
        # restrictions (project, roles) when exchanged
        parent_cred = parent["application_credential"]["id"]
        if app_cred_id not in (None, parent_cred):
            raise errors.Unauthorized(AUTH_REQUIRED)
        app_cred_id = parent_cred
        if scope is not None and not (
            scope[0] == "project" and scope[1].get("id") == parent["project"]["id"]
        ):
            raise errors.Unauthorized(app_credentials.NO_SCOPE)
        project_id, domain_id, system = parent["project"]["id"], None, False
    elif app_cred is not None:
        project_id = projects.enabled_project(db, app_cred["project_id"])
        domain_id, system = None, False
    elif scope is not None and scope[0] == "OS-TRUST:trust":
        trust = trusts.consume(db, user_id, scope[1])
        project_id, domain_id, system = trust["project_id"], None, False
        if trust["impersonation"]:
            user_id = trust["trustor_user_id"]
    else:
        project_id, domain_id, system = resolve_scope(db, user_id, scope)

    now = common.utcnow().timestamp()
    if parent is not None:
        expires_at = parent["expires_at"]
        audit_ids = [_audit_id(), parent["audit_ids"][-1]]
        methods = list(dict.fromkeys(methods + parent["methods"]))
    else:
        expires_at = now + ttl
        audit_ids = [_audit_id()]
    if app_cred is not None and app_cred["expires_at"] is not None:
        # keystone: a token never outlives its application credential
        expires_at = min(expires_at, app_cred["expires_at"])
    if trust is not None and trust["expires_at"] is not None:
        expires_at = min(expires_at, trust["expires_at"])
    raw = secrets.token_urlsafe(32)
    db.execute("DELETE FROM tokens WHERE expires_at < ?", (now - ALLOW_EXPIRED_WINDOW,))
    db.execute(
        "INSERT INTO tokens (id_hash, user_id, project_id, domain_id,"
        " methods, audit_ids, issued_at, expires_at, app_cred_id, system, trust_id)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            common.hash_token(raw),
            user_id,
            project_id,
            domain_id,
            json.dumps(methods),
            json.dumps(audit_ids),
            now,
            expires_at,
            app_cred_id,
            int(system),
            trust["id"] if trust is not None else None,
        ),
    )
    token = load(db, raw)
    if token is None:
        raise errors.Unauthorized(AUTH_REQUIRED)
    return raw, token


def resolve_scope(db, user_id, scope):
    """``(project_id, domain_id, system)`` of the requested scope, checked
    (Unauthorized); ``scope`` None is the user's default project if the
    user has a role on it, else unscoped."""
    if scope is None:
        row = db.execute(
            "SELECT p.id FROM users u"
            " JOIN projects p ON p.id = u.default_project"
            " JOIN domains d ON d.id = p.domain_id"
            " WHERE u.id = ? AND p.enabled AND d.enabled",
            (user_id,),
        ).fetchone()
        if row and assignments.role_names(db, user_id, "project", row["id"]):
            return row["id"], None, False
        return None, None, False
    kind = scope[0]
    if kind == "unscoped":
        return None, None, False
    payload = scope[1]
    if kind == "project":
        project = projects.find_project(db, payload)
        if project is None:
            raise errors.Unauthorized(
                "Could not find project: %s" % (payload.get("id") or payload.get("name"))
            )
        domain = projects.find_domain(db, {"id": project["domain_id"]})
        if not project["enabled"] or not domain["enabled"]:
            raise errors.Unauthorized("Project %s is disabled." % project["id"])
        if not assignments.role_names(db, user_id, "project", project["id"]):
            raise errors.Unauthorized(
                "User %s has no access to project %s" % (user_id, project["id"])
            )
        return project["id"], None, False
    if kind == "domain":
        domain = projects.find_domain(db, payload)
        if domain is None:
            raise errors.Unauthorized(
                "Could not find domain: %s" % (payload.get("id") or payload.get("name"))
            )
        if not domain["enabled"]:
            raise errors.Unauthorized("Domain %s is disabled." % domain["id"])
        if not assignments.role_names(db, user_id, "domain", domain["id"]):
            raise errors.Unauthorized(
                "User %s has no access to domain %s" % (user_id, domain["id"])
            )
        return None, domain["id"], False
    if kind == "system":
        # keystone: only {"all": true} is a system scope
        if payload.get("all") is not True or not assignments.system_role_names(db, user_id):
            raise errors.Unauthorized("User %s has no access to the system" % user_id)
        return None, None, True
    raise errors.Unauthorized("Unknown scope: %s" % kind)


def refusal(db: sqlite3.Connection, raw: str) -> str:
    """Keystone 30's 404 text for a token :func:`load` refused: one never
    issued here is one fernet cannot decrypt, a revoked one (or its user's
    disabled) fails validation, one of a deleted trust names the trust, any
    other (its scope's roles gone, its project disabled) is not found."""
    row = db.execute(
        "SELECT t.revoked, t.trust_id, tr.id AS trust, u.enabled FROM tokens t"
        " JOIN users u ON u.id = t.user_id LEFT JOIN trusts tr ON tr.id = t.trust_id"
        " WHERE t.id_hash = ?",
        (common.hash_token(raw),),
    ).fetchone()
    if row is None:
        return "Could not recognize Fernet token"
    if row["trust_id"] and row["trust"] is None:
        return "Could not find trust: %s." % row["trust_id"]
    if row["revoked"] or not row["enabled"]:
        return "Failed to validate token"
    return "Could not find token: %s." % raw


def issue_for_project(
    db: sqlite3.Connection,
    user_id: str,
    project_id: str,
    methods: list[str],
    ttl: float,
    app_cred_id: str | None = None,
    trust_id: str | None = None,
) -> tuple[str, dict]:
    """Issue a project-scoped token whose secret the caller checked
    (``/v3/ec2tokens``: a signature); ``(raw, token)`` or Unauthorized."""
    now = common.utcnow().timestamp()
    raw = secrets.token_urlsafe(32)
    db.execute(
        "INSERT INTO tokens (id_hash, user_id, project_id, domain_id,"
        " methods, audit_ids, issued_at, expires_at, app_cred_id, system, trust_id)"
        " VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, 0, ?)",
        (
            common.hash_token(raw),
            user_id,
            project_id,
            json.dumps(methods),
            json.dumps([_audit_id()]),
            now,
            now + ttl,
            app_cred_id,
            trust_id,
        ),
    )
    token = load(db, raw)
    if token is None:
        raise errors.Unauthorized(AUTH_REQUIRED)
    return raw, token
