"""``IdentityService``: keystone's framing around the resource modules.

Keystone's error body (``error_body``), the token check every service's
requests go through (``context_from_request``), the password-hashing routes
served as slow routes, the lockout, the tables (``migrations``), the seeded
domain, projects, users and roles (``seed``) and the lookups other services
use.
"""

import sqlite3
from typing import TypedDict

from occli.localcloud import common
from occli.localcloud import registry
from occli.localcloud.app import Context
from occli.localcloud.app import Request
from occli.localcloud.app import Service
from occli.localcloud.app import Unauthenticated
from occli.localcloud.identity import app_credentials as app_credentials_rules
from occli.localcloud.identity import catalog
from occli.localcloud.identity import migrations
from occli.localcloud.identity import projects
from occli.localcloud.identity import seed
from occli.localcloud.identity import tokens
from occli.localcloud.identity import users
from occli.localcloud.identity.api import app_credentials
from occli.localcloud.identity.api import auth
from occli.localcloud.identity.api import credentials
from occli.localcloud.identity.api import domain_config
from occli.localcloud.identity.api import domains
from occli.localcloud.identity.api import ec2
from occli.localcloud.identity.api import endpoints
from occli.localcloud.identity.api import grants
from occli.localcloud.identity.api import groups
from occli.localcloud.identity.api import implied_roles
from occli.localcloud.identity.api import oauth1
from occli.localcloud.identity.api import project_tags
from occli.localcloud.identity.api import projects as project_api
from occli.localcloud.identity.api import regions
from occli.localcloud.identity.api import role_assignments
from occli.localcloud.identity.api import roles
from occli.localcloud.identity.api import services
from occli.localcloud.identity.api import system
from occli.localcloud.identity.api import trusts
from occli.localcloud.identity.api import users as user_api
from occli.localcloud.identity.api import versions
from occli.localcloud.identity.projects import DEFAULT_DOMAIN

# The API modules, each with register(service), in route order.
RESOURCES = (
    versions,
    auth,
    app_credentials,
    domains,
    project_api,
    user_api,
    roles,
    grants,
    role_assignments,
    groups,
    regions,
    services,
    endpoints,
    implied_roles,
    system,
    trusts,
    project_tags,
    credentials,
    oauth1,
    domain_config,
    ec2,
)

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


class ProjectRef(TypedDict):
    """A project as other services see it (:meth:`IdentityService.project`)."""

    id: str
    name: str
    domain_id: str
    enabled: int


class UserRef(TypedDict):
    """A user as other services see it (:meth:`IdentityService.user`)."""

    id: str
    name: str
    domain_id: str


class IdentityService(Service):
    """Keystone v3 (``/``, ``/v3``, ``/v3/auth/*``, application
    credentials, domains, projects, users, roles, grants, role
    assignments)."""

    name = "identity"
    prefix = ""
    requires_project = False

    def __init__(self, cloud):
        super().__init__(cloud)
        self.add_resources(RESOURCES)
        self._hashing = [r for r in self.routes if (r.method, r.pattern) in HASHING_ROUTES]
        self._validated = tokens.Validated()

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
        seed_profile = seed.seed_devstack if cfg.seed == "devstack" else seed.seed
        seed_profile(db, cfg.admin_password, cfg.demo_password, cfg.alt_password)
        catalog.seed(db, cfg.region, [svc.name for svc in self.cloud.services])

    # -- lookups other services may use --------------------------------------

    @staticmethod
    def project_id(
        db: sqlite3.Connection, name: str, domain_id: str = DEFAULT_DOMAIN
    ) -> str | None:
        """The id of project ``name`` in ``domain_id``, or None."""
        return projects.project_id(db, name, domain_id)

    @staticmethod
    def user_id(db, name, domain_id=DEFAULT_DOMAIN):
        """The id of user ``name`` in ``domain_id``, or None."""
        return users.user_id(db, name, domain_id)

    @staticmethod
    def project(db: sqlite3.Connection, project_id: str) -> ProjectRef | None:
        """``{"id", "name", "domain_id", "enabled"}`` of a project, or None."""
        return projects.project(db, project_id)

    @staticmethod
    def user(db: sqlite3.Connection, user_id: str) -> UserRef | None:
        """``{"id", "name", "domain_id"}`` of a user, or None."""
        row = users.find(db, user_id)
        if row is None:
            return None
        return UserRef(id=row["id"], name=row["name"], domain_id=row["domain_id"])

    def _access_allowed(self, req: Request, cred: dict | None) -> bool:
        """Whether the access rules of a token's application credential
        allow ``req``, as keystonemiddleware checks them in each service
        (its ``service_type`` the serving service's catalog types, the
        path the one under the service's endpoint): else the token is
        invalid there (401)."""
        rules = cred.get("access_rules") if cred is not None else None
        if rules is None:
            return True
        svc = self.cloud.wsgi.service_for(req.path)
        try:
            types = {entry[0] for entry in registry.package(svc.name).CATALOG}
        except (AttributeError, ValueError):
            return False  # keystonemiddleware without a service_type refuses
        path = req.path[len(svc.prefix) :] if req.path.startswith(svc.prefix) else req.path
        return app_credentials_rules.request_allowed(rules, req.method, types, path or "/")

    def context_from_request(self, req: Request) -> Context:
        """Validate ``X-Auth-Token``: a :class:`Context`, or Unauthenticated."""
        raw = req.header("X-Auth-Token")
        token = self._validated.load(req.db, raw) if raw and req.db is not None else None
        if token is None or not self._access_allowed(req, token["application_credential"]):
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
            system_scope="all" if token["system"] else None,
        )
