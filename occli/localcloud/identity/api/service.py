"""Keystone v3's HTTP edge: routes, request bodies, views, error body.

Handlers read the request, call the rules (:mod:`.tokens`,
:mod:`.app_credentials`, :mod:`.users`, …) with a sqlite3 connection and
plain values, and render what they return. A rule's ``errors.Unauthorized``
on the login path becomes a 401 with keystone's ``WWW-Authenticate``.

``POST /v3/auth/tokens`` runs outside the request transaction: the secrets'
stored hashes are read in one read transaction, checked with no lock held
(scrypt takes ~45 ms), and the token is issued in a second short
transaction that re-checks the hashes did not change meanwhile.
"""

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.app import Context
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.app import Service
from occli.localcloud.app import Unauthenticated
from occli.localcloud.identity import app_credentials
from occli.localcloud.identity import migrations
from occli.localcloud.identity import passwords
from occli.localcloud.identity import policy
from occli.localcloud.identity import projects
from occli.localcloud.identity import schemas
from occli.localcloud.identity import seed
from occli.localcloud.identity import tokens
from occli.localcloud.identity import users
from occli.localcloud.identity.api import admin as admin_api
from occli.localcloud.identity.catalog import catalog
from occli.localcloud.identity.projects import DEFAULT_DOMAIN

VERSION = "v3.14"
VERSION_UPDATED = "2020-04-07T00:00:00Z"
# the routes that hash or check a password or secret (scrypt, ~45 ms of a
# core each): slow routes, served by threads of their own
# (Config.slow_threads, server.SlowDispatcher), so that a flood of them
# never takes a thread from the requests of token holders
HASHING_ROUTES = (
    ("POST", "/v3/auth/tokens"),
    ("POST", "/v3/users"),
    ("PATCH", "/v3/users/{user_id}"),
    ("POST", "/v3/users/{user_id}/password"),
    ("POST", "/v3/users/{user_id}/application_credentials"),
)


def _unauthorized(req, exc):
    """A rule's Unauthorized as keystone's 401 (``WWW-Authenticate``)."""
    return HTTPError(
        401,
        exc.message,
        extra=exc.extra,
        headers={"WWW-Authenticate": 'Keystone uri="%s"' % req.base_url},
    )


class IdentityService(Service):
    """Keystone v3 (``/``, ``/v3``, ``/v3/auth/*``, application
    credentials, and the admin API of :mod:`.admin_api`)."""

    name = "identity"
    prefix = ""
    requires_project = False

    def __init__(self, cloud):
        super().__init__(cloud)
        self.route("GET", "/", self.versions, auth=False)
        self.route("GET", "/v3", self.version, auth=False)
        self.route("POST", "/v3/auth/tokens", self.issue_token, auth=False, mode=None)
        self.route("GET", "/v3/auth/tokens", self.validate_token)
        self.route("DELETE", "/v3/auth/tokens", self.revoke_token)
        self.route("GET", "/v3/auth/catalog", self.get_catalog)
        creds = "/v3/users/{user_id}/application_credentials"
        self.route("GET", creds, self.list_app_creds)
        self.route("POST", creds, self.create_app_cred, mode=None)
        self.route("GET", creds + "/{app_cred_id}", self.get_app_cred)
        self.route("DELETE", creds + "/{app_cred_id}", self.delete_app_cred)
        self.admin = admin_api.AdminAPI(self)
        self._hashing = [r for r in self.routes if (r.method, r.pattern) in HASHING_ROUTES]

    def slow_request(self, method: str, path: str) -> bool:
        """Whether a request (its method and path) is one of
        :data:`HASHING_ROUTES`."""
        return any(r.method == method and r.regex.match(path) for r in self._hashing)

    def migrations(self):
        return list(migrations.COMPONENTS)

    @property
    def lockout(self) -> users.Lockout:
        """The configured lockout (``Config.lockout_*``; off by default)."""
        cfg = self.cloud.config
        return users.Lockout(cfg.lockout_failure_attempts, cfg.lockout_duration)

    def error_body(self, status, message, extra):
        error = {"code": status, "title": common.reason(status), "message": message}
        error.update(extra)
        return {"error": error}

    def seed(self, db):
        """Create the Default domain, admin/demo/alt projects and users,
        roles."""
        cfg = self.cloud.config
        seed.seed(db, cfg.admin_password, cfg.demo_password, cfg.alt_password)

    # -- lookups other services may use --------------------------------------

    @staticmethod
    def project_id(db, name, domain_id=DEFAULT_DOMAIN):
        """The id of project ``name`` in ``domain_id``, or None."""
        return projects.project_id(db, name, domain_id)

    @staticmethod
    def user_id(db, name, domain_id=DEFAULT_DOMAIN):
        """The id of user ``name`` in ``domain_id``, or None."""
        return users.user_id(db, name, domain_id)

    @staticmethod
    def project(db, project_id):
        """``{"id", "name", "domain_id", "enabled"}`` of a project, or None."""
        return projects.project(db, project_id)

    @staticmethod
    def user(db, user_id):
        """``{"id", "name", "domain_id"}`` of a user, or None."""
        row = users.find(db, user_id)
        return None if row is None else {k: row[k] for k in ("id", "name", "domain_id")}

    def context_from_request(self, req):
        """Validate ``X-Auth-Token``: a :class:`Context`, or Unauthenticated."""
        raw = req.header("X-Auth-Token")
        token = tokens.load(req.db, raw) if raw else None
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
            domain_id=(
                project["domain"]["id"]
                if project
                else (token["domain"] or token["user"]["domain"])["id"]
            ),
            expires_at=common.from_timestamp(token["expires_at"]),
        )

    # -- discovery -------------------------------------------------------------

    def _version(self, req):
        return {
            "id": VERSION,
            "status": "stable",
            "updated": VERSION_UPDATED,
            "links": [{"rel": "self", "href": req.base_url + "/v3/"}],
            "media-types": [
                {"base": "application/json", "type": "application/vnd.openstack.identity-v3+json"}
            ],
        }

    def versions(self, req):
        return Response(
            300,
            {"versions": {"values": [self._version(req)]}},
            headers={"Location": req.base_url + "/v3/"},
        )

    def version(self, req):
        return {"version": self._version(req)}

    # -- tokens ----------------------------------------------------------------

    def issue_token(self, req):
        """``POST /v3/auth/tokens`` with the password, token and/or
        application_credential methods.

        Runs outside the request transaction (route ``mode=None``):
        1. a read transaction (no lock) reads the stored hashes (a locked
           user is refused here, before any hashing);
        2. the secrets are checked with no database lock held;
        3. a short transaction re-reads the hashes (a password changed or a
           credential deleted meanwhile fails the login) and issues the token
           (a read one when a secret was wrong: the login is refused; with
           the lockout on, a short write first counts the failure).
        """
        try:
            methods, identity, scope = schemas.parse_auth(req.json())
            store = self.cloud.store
            lockout = self.lockout
            checks = {}
            with store.read() as db:
                if "password" in methods:
                    checks["password"] = users.password_lookup(db, identity["password"], lockout)
                if "application_credential" in methods:
                    checks["application_credential"] = app_credentials.lookup(
                        db, identity["application_credential"]
                    )
            refused = not all([check.verify() for check in checks.values()])
            if users.counts_failure(checks.get("password"), lockout):
                with store.transaction() as db:
                    users.record_failure(db, checks["password"].row_id, lockout)
            with store.read() if refused else store.transaction() as db:
                raw, token = tokens.issue(
                    db, methods, identity, scope, checks, self.cloud.config.token_ttl
                )
        except errors.Unauthorized as exc:
            raise _unauthorized(req, exc) from None
        return Response(
            201,
            self._token_body(req, token),
            headers={"X-Subject-Token": raw, "Vary": "X-Auth-Token"},
        )

    def _token_body(self, req, token):
        with_catalog = "nocatalog" not in req.query
        body = {
            "audit_ids": token["audit_ids"],
            "expires_at": common.iso_micro_z(common.from_timestamp(token["expires_at"])),
            "issued_at": common.iso_micro_z(common.from_timestamp(token["issued_at"])),
            "methods": token["methods"],
            "user": dict(token["user"], password_expires_at=None),
        }
        if token["application_credential"] is not None:
            body["application_credential"] = dict(token["application_credential"])
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
            body["catalog"] = catalog(
                req.base_url, project["id"] if project else None, self.cloud.config.region
            )
        return {"token": body}

    def _subject_token(self, req, action):
        raw = req.header("X-Subject-Token")
        if not raw:
            raise HTTPError(400, "The X-Subject-Token header is required.")
        allow_expired = (req.arg("allow_expired") or "").lower() in ("1", "true", "yes", "on")
        token = tokens.load(req.db, raw, allow_expired=allow_expired)
        if token is None:
            raise HTTPError(404, "Could not find token: %s" % raw)
        caller = req.context
        if not caller.is_admin and caller.user_id != token["user"]["id"]:
            raise policy.forbidden(action)
        return raw, token

    def validate_token(self, req):
        """``GET``/``HEAD /v3/auth/tokens``: validate ``X-Subject-Token``."""
        raw, token = self._subject_token(req, "validate_token")
        return Response(
            200,
            self._token_body(req, token),
            headers={"X-Subject-Token": raw, "Vary": "X-Auth-Token"},
        )

    def revoke_token(self, req):
        """``DELETE /v3/auth/tokens``: revoke ``X-Subject-Token``."""
        raw, _token = self._subject_token(req, "revoke_token")
        tokens.revoke(req.db, raw)
        return Response(204)

    def get_catalog(self, req):
        """``GET /v3/auth/catalog`` for the caller's token."""
        token = tokens.load(req.db, req.header("X-Auth-Token"))
        # keystone AuthCatalogResource.get: only a project scope will do
        # (unscoped, domain- and system-scoped tokens are all 403)
        if token["project"] is None:
            raise HTTPError(
                403, "A project-scoped token is required to produce a service catalog."
            )
        return {
            "catalog": catalog(req.base_url, token["project"]["id"], self.cloud.config.region),
            "links": {"self": req.base_url + "/v3/auth/catalog", "previous": None, "next": None},
        }

    # -- application credentials -----------------------------------------------

    def _app_cred_url(self, req, user_id, cred_id=None):
        url = "%s/v3/users/%s/application_credentials" % (req.base_url, user_id)
        return url + "/" + cred_id if cred_id else url

    def _app_cred_body(self, req, db, row, secret=None):
        expires = row["expires_at"]
        body = {
            "id": row["id"],
            "name": row["name"],
            "description": row["description"],
            "user_id": row["user_id"],
            "project_id": row["project_id"],
            "system": None,
            "expires_at": (
                common.iso_naive_micro(common.from_timestamp(expires))
                if expires is not None
                else None
            ),
            "unrestricted": bool(row["unrestricted"]),
            "roles": [dict(r, domain_id=None) for r in app_credentials.roles(db, row["id"])],
            "links": {"self": self._app_cred_url(req, row["user_id"], row["id"])},
        }
        if secret is not None:
            body["secret"] = secret
        return body

    def create_app_cred(self, req):
        """``POST /v3/users/{user_id}/application_credentials``.

        Runs outside the request transaction (the secret is hashed with no
        lock held); the checks and the insert share one short transaction.
        """
        user_id = req.params["user_id"]
        if req.context.user_id != user_id:
            raise policy.forbidden("create_application_credential")
        data = schemas.app_cred_create_input(req.json())
        secret = data["secret"] or passwords.generate_secret()
        secret_hash = passwords.hash_password(secret)
        with self.cloud.store.transaction() as db:
            token = tokens.load(db, req.header("X-Auth-Token"))
            if token is None:
                raise Unauthenticated(req.base_url + "/v3")
            row = app_credentials.create(db, user_id, token, data, secret_hash)
            return Response(
                201, {"application_credential": self._app_cred_body(req, db, row, secret=secret)}
            )

    def list_app_creds(self, req):
        """``GET /v3/users/{user_id}/application_credentials[?name=]``."""
        user_id = req.params["user_id"]
        if req.context.user_id != user_id:
            raise policy.forbidden("list_application_credentials")
        rows = app_credentials.select(req.db, user_id, req.arg("name"))
        url = self._app_cred_url(req, user_id)
        if req.query_string:
            url += "?" + req.query_string
        return {
            "application_credentials": [self._app_cred_body(req, req.db, row) for row in rows],
            "links": {"self": url, "previous": None, "next": None},
        }

    def _owned_app_cred(self, req, action):
        return app_credentials.owned(
            req.db, req.context.user_id, req.params["user_id"], req.params["app_cred_id"], action
        )

    def get_app_cred(self, req):
        """``GET /v3/users/{user_id}/application_credentials/{id}``."""
        row = self._owned_app_cred(req, "get_application_credential")
        return {"application_credential": self._app_cred_body(req, req.db, row)}

    def delete_app_cred(self, req):
        """``DELETE /v3/users/{user_id}/application_credentials/{id}``:
        also invalidates the tokens obtained with it."""
        row = self._owned_app_cred(req, "delete_application_credential")
        app_credentials.check_unrestricted(tokens.load(req.db, req.header("X-Auth-Token")))
        app_credentials.delete(req.db, row["id"])
        return Response(204)
