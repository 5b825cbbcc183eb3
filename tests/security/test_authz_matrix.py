"""Authorization matrix of the local cloud (issue 9): every route of every
service, read from the live route tables, called with every kind of
credential (authz_credentials.KINDS), against project A's real resources.

One full cloud (in-process WSGI, ``build_time=0``) holds two member
projects: A (``demo``: user ``demo`` member, user ``authz-reader`` reader)
and B (``authz-b``), plus the seeded admin. A's member owns one of each
resource (server with metadata, keypair, snapshot image, software config and
deployment on its server, Swift container/object with an account temp-URL
key, application credential); the admin owns an aggregate and a private
flavor. Path parameters are A's ids (``{project_id}`` and ``AUTH_…`` are A's
project, or the caller's own for the ``*_own_url`` kinds); identity's admin
API is called on the default domain, demo (A's member), the member role and
demo's grant on A, or the admin's grants (``Rule.params``).

Each route is classified in RULES (by service, method and pattern) with an
access category; :func:`expectation` turns a category and a kind into the
statuses the real services give. A route missing from RULES fails its cases
(and ``test_every_route_is_classified``), so new routes must be classified.

Properties checked per (route, kind):
- the status is one of the expected ones (unauthenticated → 401; unscoped
  and domain tokens → 403 on project services; B → never 2xx on A's
  resources; members → 403 on admin routes; A's member → 2xx);
- a refused write changes nothing (every table and the fault rules are
  compared before and after);
- a caller outside project A gets none of A's ids or names in the body or
  headers, beyond those it sent.

Writes that are allowed (or allowed by a known bug) run against throwaway
resources of A created for the case (identity: throwaway domains, projects,
users, roles and grants); refused ones against A's real ones.
"""

import dataclasses
import importlib
import itertools
import json
import pathlib
import re
import tempfile
import uuid

import pytest

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from tests.security import authz_credentials as creds
from tests.security.authz_credentials import KINDS
from tests.security.authz_credentials import OWN_URL_KINDS
from tests.security.authz_credentials import Client
from tests.security.heat_idle import wait_engine_idle

READ_METHODS = ("GET", "HEAD")
# services whose admins see other projects' resources (nova, glance, heat);
# Swift's keystoneauth gives the admin role no other project's account
ADMIN_SEES_ALL = ("compute", "image", "orchestration", "volume", "network")
# auth=False routes that authorize the request themselves (Swift: token or
# temp URL); every other auth=False route must be "public" in RULES
SELF_AUTHORIZING = ("objectstore",)
# the public routes of a self-authorizing service (Swift's /info)
PUBLIC_SELF_AUTHORIZING_ROUTES = (("objectstore", "GET", "/info"),)
# single auth=False routes that authorize the request themselves: Heat's
# resource signal (a Keystone token, else the resource's own signal token)
SELF_AUTHORIZING_ROUTES = (
    (
        "orchestration",
        "POST",
        "/v1/{project_id}/stacks/{stack_name}/{stack_id}/resources/{resource_name}/signal",
    ),
)
# the access categories of auth=False routes (version documents, tokens,
# keystone's password change: the body's original password authorizes it)
PUBLIC_ACCESS = ("public", "token_exchange", "password_change")

SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG8Bo9d8gkRYyT1tRKc6fPXvLZdJUBwr3x4ZNaGi8S0M authz"
TEMP_URL_KEY = "authz-a-temp-url-key-5e1f"
COMPUTE_VERSION = {"OpenStack-API-Version": "compute latest"}
PRIVATE_FLAVOR = "authz-private-flavor"


def _unique(prefix):
    return "%s-%s" % (prefix, uuid.uuid4().hex[:10])


def _extensions():
    """The ``authz_ext_*.py`` modules next to this one, by name: each adds
    its routes' ``rules()`` (RULES entries), ``FACTORIES`` (``{param:
    function(world) -> id}`` for ``fresh`` parameters) and ``setup(world,
    ids)`` (A's resources behind its routes' path parameters), so a new
    service or feature classifies its routes in a module of its own.
    Compute keys carry ``/v2.1`` (``("compute", "GET",
    "/v2.1/os-server-groups")``). An extension imports ``rule``,
    ``_unique`` and the like from this module inside its functions."""
    here = pathlib.Path(__file__).parent
    return [
        importlib.import_module("tests.security." + path.stem)
        for path in sorted(here.glob("authz_ext_*.py"))
    ]


# -- the declarative table ---------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Rule:
    """How a route is authorized.

    ``access`` (see :func:`expectation`): ``public`` (no auth, listed
    explicitly), ``any`` (any project-scoped token: lists, limits, …),
    ``create`` (creates in the caller's project; needs the member role),
    ``user_create`` (user-owned keypairs: any role), ``read``/``write`` (A's
    resource; ``write`` needs the member role), ``project_read`` (A's
    quotas and usage: A's readers and admins, else 403),
    ``user_read``/``user_write``
    (A's member's keypair), ``admin`` (admin only), ``admin_of`` (admin only,
    under A's resource: 404 for other projects), ``flavor`` (the admin's
    private flavor), ``gone`` (a route of older microversions only: 404 at
    the matrix's), ``account_read``/``account_write`` (Swift account),
    identity's ``token_exchange``, ``subject``, ``catalog``, ``owner_read``,
    ``owner_write``, and for its admin API (keystone 30's default
    policies) ``admin`` (keystone's ``admin_required``: the admin role, in
    any scope, domain included), ``domain_read`` (the default domain: any
    token scoped to it or to one of its projects, any role),
    ``scope_read`` (the URL's project: a token scoped to it, any role),
    ``self_read`` (the URL's user, demo: its own tokens, any scope, unscoped
    included), ``password_change`` (no token: the body's original password,
    wrong here, so 401 for every kind). ``ok``: the success statuses;
    ``body(ids)`` the request body (JSON, or bytes); ``headers(ids)``;
    ``params(ids)``: this route's own values of some path parameters
    (before ``fresh``); ``fresh``: the path parameters re-created for each
    allowed write (``project_grant``/``domain_grant``: also give the
    throwaway ``user_id`` the role ``role_id`` on the URL's project or
    domain); ``override``: ``{kind: statuses}``.
    """

    access: str
    ok: frozenset = frozenset({200})
    body: object = None
    headers: object = None
    params: object = None
    fresh: tuple = ()
    override: dict = dataclasses.field(default_factory=dict)


def rule(access, ok=200, **kw):
    ok = frozenset([ok] if isinstance(ok, int) else ok)
    override = {
        k: frozenset([v] if isinstance(v, int) else v) for k, v in kw.pop("override", {}).items()
    }
    return Rule(access, ok, override=override, **kw)


def _server_body(ids):
    return {
        "server": {
            "name": _unique("authz-new"),
            "flavorRef": "1",
            "imageRef": ids["cirros"],
            "networks": "none",
        }
    }


def _deployment_body(ids):
    return {
        "config_id": ids["config_id"],
        "server_id": ids["server_id"],
        "action": "CREATE",
        "status": "IN_PROGRESS",
    }


SERVER = "/servers/{server_id}"
QUOTA_SET = "/os-quota-sets/{tenant_id}"
CREDS = "/v3/users/{user_id}/application_credentials"
SC = "/v1/{project_id}/software_configs"
SD = "/v1/{project_id}/software_deployments"
ACCOUNT = "/v1/{account}"
CONTAINER = ACCOUNT + "/{container}"
OBJECT = CONTAINER + "/{object}"
DOMAIN = "/v3/domains/{domain_id}"
PROJECT = "/v3/projects/{project_id}"
USER = "/v3/users/{user_id}"
ROLE = "/v3/roles/{role_id}"
GRANT = "/users/{user_id}/roles/{role_id}"


def _compute_rules():
    """Compute's routes, without the ``/v2.1`` prefix and without the
    ``/{project_id}`` segment (each pattern has both forms)."""
    table = {
        ("GET", "/limits"): rule("any"),
        ("GET", "/os-aggregates"): rule("admin"),
        ("POST", "/os-aggregates"): rule(
            "admin", body=lambda ids: {"aggregate": {"name": _unique("authz-agg")}}
        ),
        ("GET", "/os-aggregates/{aggregate_id}"): rule("admin"),
        ("PUT", "/os-aggregates/{aggregate_id}"): rule(
            "admin",
            fresh=("aggregate_id",),
            body=lambda ids: {"aggregate": {"name": _unique("authz-agg")}},
        ),
        ("DELETE", "/os-aggregates/{aggregate_id}"): rule("admin", fresh=("aggregate_id",)),
        ("POST", "/os-aggregates/{aggregate_id}/action"): rule(
            "admin",
            fresh=("aggregate_id",),
            body=lambda ids: {"set_metadata": {"metadata": {"authz": "1"}}},
        ),
        ("POST", "/os-aggregates/{aggregate_id}/images"): rule(
            "admin", 202, body=lambda ids: {"cache": [{"id": ids["cirros"]}]}
        ),
        ("GET", "/os-keypairs"): rule("any"),
        ("POST", "/os-keypairs"): rule(
            "user_create",
            201,
            body=lambda ids: {
                "keypair": {"name": _unique("authz-key"), "type": "ssh", "public_key": SSH_KEY}
            },
        ),
        ("GET", "/os-keypairs/{name}"): rule("user_read"),
        ("DELETE", "/os-keypairs/{name}"): rule("user_write", 204, fresh=("name",)),
        ("GET", "/os-services"): rule("admin"),
        ("PUT", "/os-services/{service_id}"): rule(
            "admin", body=lambda ids: {"status": "enabled"}
        ),
        ("GET", "/os-hypervisors"): rule("admin"),
        ("GET", "/os-hypervisors/detail"): rule("admin"),
        ("GET", "/os-hypervisors/{hypervisor_id}"): rule("admin"),
        ("GET", "/os-availability-zone"): rule("any"),
        ("GET", "/os-availability-zone/detail"): rule("admin"),
        ("GET", SERVER + "/metadata"): rule("read"),
        ("POST", SERVER + "/metadata"): rule(
            "write", fresh=("server_id",), body=lambda ids: {"metadata": {"authz-more": "v"}}
        ),
        ("PUT", SERVER + "/metadata"): rule(
            "write", fresh=("server_id",), body=lambda ids: {"metadata": {"authz-only": "v"}}
        ),
        ("GET", SERVER + "/metadata/{key}"): rule("read"),
        ("PUT", SERVER + "/metadata/{key}"): rule(
            "write", fresh=("server_id",), body=lambda ids: {"meta": {ids["key"]: "changed"}}
        ),
        ("DELETE", SERVER + "/metadata/{key}"): rule("write", 204, fresh=("server_id",)),
        ("GET", "/flavors"): rule("any"),
        ("GET", "/flavors/detail"): rule("any"),
        ("GET", "/flavors/{flavor_id}"): rule("flavor"),
        # quotas, usage, audit log: {tenant_id} is project A
        ("GET", QUOTA_SET): rule("project_read"),
        ("GET", QUOTA_SET + "/detail"): rule("project_read"),
        ("GET", QUOTA_SET + "/defaults"): rule("any"),
        ("PUT", QUOTA_SET): rule("admin", body=lambda ids: {"quota_set": {"metadata_items": 128}}),
        ("DELETE", QUOTA_SET): rule("admin", 202),
        ("GET", "/os-quota-class-sets/{quota_class}"): rule("admin"),
        ("PUT", "/os-quota-class-sets/{quota_class}"): rule(
            "admin", body=lambda ids: {"quota_class_set": {"metadata_items": 128}}
        ),
        ("GET", "/os-simple-tenant-usage"): rule("admin"),
        ("GET", "/os-simple-tenant-usage/{tenant_id}"): rule("project_read"),
        ("GET", "/os-instance_usage_audit_log"): rule("admin"),
        ("GET", "/os-instance_usage_audit_log/{before_timestamp}"): rule("admin"),
        # flavor-manage, extra specs and flavor access (issue 12)
        ("POST", "/flavors"): rule(
            "admin",
            body=lambda ids: {
                "flavor": {"name": _unique("authz-flavor"), "ram": 64, "vcpus": 1, "disk": 1}
            },
        ),
        ("PUT", "/flavors/{flavor_id}"): rule(
            "admin", fresh=("flavor_id",), body=lambda ids: {"flavor": {"description": "authz"}}
        ),
        ("DELETE", "/flavors/{flavor_id}"): rule("admin", 202, fresh=("flavor_id",)),
        ("POST", "/flavors/{flavor_id}/action"): rule(
            "admin",
            fresh=("flavor_id",),
            body=lambda ids: {"addTenantAccess": {"tenant": ids["tenant"]}},
        ),
        ("GET", "/flavors/{flavor_id}/os-flavor-access"): rule("admin"),
        ("GET", "/flavors/{flavor_id}/os-extra_specs"): rule("flavor"),
        ("POST", "/flavors/{flavor_id}/os-extra_specs"): rule(
            "admin", fresh=("flavor_id",), body=lambda ids: {"extra_specs": {"authz": "1"}}
        ),
        ("GET", "/flavors/{flavor_id}/os-extra_specs/{key}"): rule("flavor"),
        ("PUT", "/flavors/{flavor_id}/os-extra_specs/{key}"): rule(
            "admin", fresh=("flavor_id",), body=lambda ids: {ids["key"]: "changed"}
        ),
        ("DELETE", "/flavors/{flavor_id}/os-extra_specs/{key}"): rule(
            "admin", fresh=("flavor_id",)
        ),
        ("DELETE", "/os-services/{service_id}"): rule("admin", 204, fresh=("service_id",)),
        # until 2.87 / 2.52: gone at the matrix's microversion (latest)
        ("GET", "/os-hypervisors/statistics"): rule("gone"),
        ("GET", "/os-hypervisors/{hypervisor_id}/uptime"): rule("gone"),
        ("GET", "/os-hypervisors/{hypervisor_id}/search"): rule("gone"),
        ("GET", "/os-hypervisors/{hypervisor_id}/servers"): rule("gone"),
    }
    for prefix in ("/servers", "/os-volumes_boot"):
        one = prefix + "/{server_id}"
        table.update(
            {
                ("GET", prefix): rule("any"),
                ("GET", prefix + "/detail"): rule("any"),
                ("POST", prefix): rule("create", 202, body=_server_body),
                ("GET", one): rule("read"),
                ("PUT", one): rule(
                    "write",
                    fresh=("server_id",),
                    body=lambda ids: {"server": {"name": _unique("authz-renamed")}},
                ),
                ("DELETE", one): rule("write", 204, fresh=("server_id",)),
                ("POST", one + "/action"): rule(
                    "write", 202, fresh=("server_id",), body=lambda ids: {"os-stop": None}
                ),
            }
        )
    return table


def _admin_grant(ids):
    """The admin's admin role (on A, its own project and the domain)."""
    return {"user_id": ids["admin_user"], "role_id": ids["admin_role"]}


def _escalation(ids):
    """demo asking for the admin role."""
    return {"role_id": ids["admin_role"]}


def _identity_admin_rules():
    """Keystone's admin API (keystone 30's default policies, no system
    scope): every write, every list and every role or grant route is
    ``admin_required``; a project is read by its own tokens, a user by
    itself, a domain by the tokens scoped to it or to its projects. The
    routes are keyed without the ``identity`` service."""

    def named(key, prefix):
        return lambda ids: {key: {"name": _unique(prefix)}}

    def described(key):
        return lambda ids: {key: {"description": "authz"}}

    table = {
        ("GET", "/v3/domains"): rule("admin"),
        ("POST", "/v3/domains"): rule("admin", 201, body=named("domain", "authz-domain")),
        ("GET", DOMAIN): rule("domain_read"),
        ("PATCH", DOMAIN): rule("admin", fresh=("domain_id",), body=described("domain")),
        ("DELETE", DOMAIN): rule("admin", 204, fresh=("domain_id",)),
        ("GET", "/v3/projects"): rule("admin"),
        ("POST", "/v3/projects"): rule("admin", 201, body=named("project", "authz-project")),
        ("GET", PROJECT): rule("scope_read"),
        ("PATCH", PROJECT): rule("admin", fresh=("project_id",), body=described("project")),
        ("DELETE", PROJECT): rule("admin", 204, fresh=("project_id",)),
        ("GET", "/v3/users"): rule("admin"),
        ("POST", "/v3/users"): rule("admin", 201, body=named("user", "authz-user")),
        ("GET", USER): rule("self_read"),
        # a user may not change itself (but its password, below)
        ("PATCH", USER): rule("admin", fresh=("user_id",), body=described("user")),
        ("DELETE", USER): rule("admin", 204, fresh=("user_id",)),
        ("GET", USER + "/projects"): rule("self_read"),
        ("POST", USER + "/password"): rule(
            "password_change",
            204,
            body=lambda ids: {
                "user": {
                    "original_password": "authz-wrong-password",
                    "password": "authz-new-password",
                }
            },
        ),
        ("GET", "/v3/roles"): rule("admin"),
        ("POST", "/v3/roles"): rule("admin", 201, body=named("role", "authz-role")),
        ("GET", ROLE): rule("admin"),
        # the member role for the refused ones (a throwaway role for the
        # admins: the seeded roles are immutable)
        ("PATCH", ROLE): rule("admin", fresh=("role_id",), body=described("role")),
        ("DELETE", ROLE): rule("admin", 204, fresh=("role_id",)),
        ("GET", "/v3/role_assignments"): rule("admin"),
    }
    for target in (PROJECT, DOMAIN):
        grant = target + GRANT
        table.update(
            {
                # demo asking for the admin role (a throwaway user for admins)
                ("PUT", grant): rule("admin", 204, params=_escalation, fresh=("user_id",)),
                ("GET", grant): rule("admin", 204, params=_admin_grant),
            }
        )
    # revoking demo's membership of A (of the caller's own project for the
    # *_own_url kinds, where demo has none), the admin's domain role
    table[("DELETE", PROJECT + GRANT)] = rule("admin", 204, fresh=("user_id", "project_grant"))
    table[("DELETE", DOMAIN + GRANT)] = rule(
        "admin", 204, params=_admin_grant, fresh=("user_id", "domain_grant")
    )
    return {("identity", method, path): value for (method, path), value in table.items()}


def _rules():
    table = {
        # identity (keystone)
        ("identity", "GET", "/"): rule("public", 300),
        ("identity", "GET", "/v3"): rule("public"),
        ("identity", "POST", "/v3/auth/tokens"): rule("token_exchange", 201),
        ("identity", "GET", "/v3/auth/tokens"): rule(
            "subject", headers=lambda ids: {"X-Subject-Token": ids["subject_token"]}
        ),
        ("identity", "DELETE", "/v3/auth/tokens"): rule(
            "subject",
            204,
            fresh=("subject_token",),
            headers=lambda ids: {"X-Subject-Token": ids["subject_token"]},
        ),
        ("identity", "GET", "/v3/auth/catalog"): rule("catalog"),
        # keystone 30's ADMIN_OR_SYSTEM_READER_OR_OWNER (keystone-30-app_credentials.json)
        ("identity", "GET", CREDS): rule("self_read"),
        ("identity", "POST", CREDS): rule(
            "owner_write",
            201,
            body=lambda ids: {"application_credential": {"name": _unique("authz-cred")}},
            # keystone would store a project-less credential; refused here
            override={"unscoped": 400},
        ),
        ("identity", "GET", CREDS + "/{app_cred_id}"): rule("owner_read"),
        ("identity", "DELETE", CREDS + "/{app_cred_id}"): rule(
            "owner_write", 204, fresh=("app_cred_id",)
        ),
        **_identity_admin_rules(),
        # compute (nova): version documents
        ("compute", "GET", "/"): rule("public"),
        ("compute", "GET", "/v2"): rule("public"),
        ("compute", "GET", "/v2.1"): rule("public"),
        # image (glance)
        ("image", "GET", "/"): rule("public", 300),
        ("image", "GET", "/versions"): rule("public"),
        ("image", "GET", "/v2/images"): rule("any"),
        ("image", "GET", "/v2/images/{image_id}"): rule("read"),
        # orchestration (heat)
        ("orchestration", "GET", "/"): rule("public", 300),
        ("orchestration", "GET", SC): rule("any"),
        ("orchestration", "POST", SC): rule(
            "create",
            body=lambda ids: {
                "name": _unique("authz-cfg"),
                "group": "script",
                "config": "echo authz",
            },
        ),
        ("orchestration", "GET", SC + "/{config_id}"): rule("read"),
        ("orchestration", "DELETE", SC + "/{config_id}"): rule("write", 204, fresh=("config_id",)),
        ("orchestration", "GET", SD): rule("any"),
        ("orchestration", "POST", SD): rule(
            "create",
            body=_deployment_body,
            # B may not deploy A's config (admins see every config)
            override={"b_own_url": 400},
        ),
        ("orchestration", "GET", SD + "/metadata/{server_id}"): rule(
            "read",
            # heat does not check the server: B's own (empty) list
            override={"b_own_url": 200},
        ),
        ("orchestration", "GET", SD + "/{deployment_id}"): rule("read"),
        ("orchestration", "PUT", SD + "/{deployment_id}"): rule(
            "write",
            fresh=("deployment_id",),
            body=lambda ids: {"status": "COMPLETE", "output_values": {"authz": 1}},
        ),
        ("orchestration", "DELETE", SD + "/{deployment_id}"): rule(
            "write", 204, fresh=("deployment_id",)
        ),
        ("orchestration", "POST", "/v1/{project_id}/validate"): rule(
            "create",
            body=lambda ids: {
                "template": {"heat_template_version": "2013-05-23", "resources": {}}
            },
        ),
        # object store (swift): auth=False routes authorizing themselves
        ("objectstore", "GET", ACCOUNT): rule("account_read", (200, 204)),
        ("objectstore", "POST", ACCOUNT): rule(
            "account_write", 204, headers=lambda ids: {"X-Account-Meta-Authz-Probe": "1"}
        ),
        ("objectstore", "GET", CONTAINER): rule("read", (200, 204)),
        ("objectstore", "PUT", CONTAINER): rule(
            "write",
            (201, 202),
            fresh=("container",),
            # a container of that name in the caller's own account
            override={k: 201 for k in OWN_URL_KINDS},
        ),
        ("objectstore", "DELETE", CONTAINER): rule("write", 204, fresh=("container",)),
        ("objectstore", "GET", OBJECT): rule("read", override={"temp_url": 200}),
        ("objectstore", "PUT", OBJECT): rule(
            "write", 201, fresh=("container", "object"), body=lambda ids: b"authz"
        ),
        ("objectstore", "DELETE", OBJECT): rule("write", 204, fresh=("container", "object")),
        # fault injection (admin API)
        ("localcloud", "GET", "/faults"): rule("admin"),
        ("localcloud", "POST", "/faults"): rule(
            "admin",
            201,
            body=lambda ids: {
                "method": "GET",
                "path": "^/authz-never-matches$",
                "count": 1,
                "kind": "status",
                "status": 503,
            },
        ),
        ("localcloud", "DELETE", "/faults"): rule("admin", 204),
        ("localcloud", "DELETE", "/faults/{rule_id}"): rule("admin", 204, fresh=("rule_id",)),
    }
    for (method, pattern), value in _compute_rules().items():
        table[("compute", method, "/v2.1" + pattern)] = value
    for extension in _extensions():
        extra = extension.rules()
        clash = set(extra) & set(table)
        assert not clash, "%s classifies routes twice: %s" % (extension.__name__, clash)
        table.update(extra)
    return table


RULES = _rules()


def expectation(service, route_rule, kind, names_project):
    """``(statuses, known bug or None)`` for ``kind`` calling a route of
    ``service`` classified ``route_rule``; ``names_project``: whether the
    URL holds a project id (compute's ``/{project_id}`` form, heat, Swift,
    identity's ``/v3/projects/{project_id}``).
    """
    k = KINDS[kind]
    if kind in route_rule.override:
        return route_rule.override[kind], None
    ok, access = route_rule.ok, route_rule.access
    refused = frozenset({403})
    if access == "public":
        return ok, None
    if access == "password_change":
        # keystone takes no token there: the original password, wrong in
        # the matrix's body, is refused whatever the caller sends
        return frozenset({401}), None
    if access == "token_exchange":  # body: the kind's own token
        if not k.sends_token:
            return frozenset({400}), None
        return (ok if k.valid else frozenset({401})), None
    if not k.valid:
        return frozenset({401}), None
    if service == "identity":
        demo = k.user == "demo"
        if access == "subject":  # keystone: admin or the token's user
            return (ok if demo or k.admin else refused), None
        if access == "catalog":
            return (ok if k.project else refused), None
        # owner only: the local cloud refuses admins on purpose (doc:
        # "Identity: application credentials"); keystone 30's default
        # ADMIN_OR_SYSTEM_READER_OR_OWNER would also let project admins
        if access == "owner_read":
            return (ok if demo else refused), None
        if access == "owner_write":  # and not a restricted credential
            return (ok if demo and not k.restricted else refused), None
        # the admin API: the checks run before the lookups (but a grant's)
        if access == "admin":  # admin_required: the role, any scope
            return (ok if k.admin else refused), None
        if access == "domain_read":  # token.(project.)domain.id: any role
            return (ok if k.admin or k.project or k.domain else refused), None
        if access == "scope_read":  # project_id:%(target.project.id)s
            return (ok if k.admin or k.project == k.url_project else refused), None
        if access == "self_read":  # user_id:%(target.user.id)s
            return (ok if k.admin or demo else refused), None
        raise AssertionError("no identity access %r" % access)
    # project services
    if k.project is None:
        return refused, None
    # another project's URL: nova 400 (URL and token disagree), Swift 403
    # (keystoneauth), heat 403 unless admin (heat's tenant check)
    if (
        names_project
        and k.url_project != k.project
        and not (service == "orchestration" and k.admin)
    ):
        return frozenset(
            {{"compute": 400, "orchestration": 403, "objectstore": 403, "volume": 400}[service]}
        ), None
    # nova's PROJECT_MEMBER_OR_ADMIN, heat's PROJECT_MEMBER, Swift's
    # operator roles: a token with only the reader role never writes
    member_needed = k.reader_only and access in ("create", "write", "account_write")
    if access in ("any", "user_create", "account_read"):
        return ok, None
    if access in ("create", "account_write"):
        return (refused if member_needed else ok), None
    if access == "admin":
        return (ok if k.admin else refused), None
    if access == "admin_of":
        # an admin-only route under A's resource, looked up first (nova's
        # get_instance before the policy): others' resource is not found
        if k.admin:
            return ok, None
        return (refused if k.project == "A" else frozenset({404})), None
    if access == "project_read":
        # nova's PROJECT_READER_OR_ADMIN on A's {tenant_id}: a policy 403
        return (ok if k.project == "A" or k.admin else refused), None
    if access == "flavor":
        # nova's flavor lookup filters on is_public for non-admins (the
        # private flavor gives no project access)
        return (ok if k.admin else frozenset({404})), None
    if access == "gone":
        return frozenset({404}), None
    if access in ("user_read", "user_write"):
        return (ok if k.user == "demo" else frozenset({404})), None
    if access in ("read", "write"):
        if k.project == "A" or (k.admin and service in ADMIN_SEES_ALL):
            return (refused if member_needed else ok), None
        return frozenset({404}), None
    raise AssertionError("no access %r" % access)


# -- the routes ----------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class LiveRoute:
    service: str
    method: str  # HEAD for Swift's HEADs (served by the GET routes)
    template: str  # under the service's prefix, ``{param}`` placeholders
    prefix: str  # "" for the root alias of Swift (``/v1/AUTH_…``)
    auth: bool

    @property
    def key(self):
        """The RULES key: compute without ``/{project_id}``, HEAD as GET."""
        template = self.template
        if self.service == "compute":
            template = template.replace("/v2.1/{project_id}", "/v2.1", 1)
        if self.service == "volume":
            template = template.replace("/v3/{project_id}", "/v3", 1)
        method = "GET" if self.method == "HEAD" else self.method
        return (self.service, method, template)

    @property
    def names_project(self):
        return "{project_id}" in self.template or "{account}" in self.template

    @property
    def label(self):
        alias = " (root alias)" if self.prefix == "" and self.service == "objectstore" else ""
        return "%s %s %s%s" % (self.service, self.method, self.prefix + self.template, alias)


def _template(route):
    """A route's pattern with ``{name}`` placeholders (regex-only routes,
    as Swift's, are read from their regex)."""
    if "{" in route.pattern or "(?P<" not in route.regex.pattern:
        return route.pattern
    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", r"{\1}", route.regex.pattern)
    return path.lstrip("^").replace("/?$", "")


def live_routes(cloud):
    """Every route of every mounted service, from the live route tables
    (Swift's GETs also as HEAD, Swift also under its root alias)."""
    found = []
    for svc in cloud.services:
        for route in svc.routes:
            template = _template(route)
            methods = [route.method]
            if svc.name == "objectstore" and route.method == "GET":
                methods.append("HEAD")
            # Swift also answers /v1/AUTH_… unprefixed (its root_paths)
            sample = template.replace("{account}", "AUTH_x")
            prefixes = [svc.prefix] + (
                [""] if any(sample.startswith(r) for r in getattr(svc, "root_paths", ())) else []
            )
            for method, prefix in itertools.product(methods, prefixes):
                found.append(LiveRoute(svc.name, method, template, prefix, route.auth))
    return found


_ROUTES = []


def _collected_routes():
    """The live routes of a full cloud built once at collection time."""
    if not _ROUTES:
        with tempfile.TemporaryDirectory() as data_dir:
            cloud = LocalCloud(Config(data_dir=data_dir, build_time=0))
            try:
                _ROUTES.extend(live_routes(cloud))
            finally:
                cloud.close()
    return _ROUTES


def _cases():
    cases = []
    for route in _collected_routes():
        route_rule = RULES.get(route.key)
        for kind in KINDS:
            if kind in OWN_URL_KINDS and not route.names_project:
                continue
            marks = []
            if route_rule is not None:
                _, bug = expectation(route.service, route_rule, kind, route.names_project)
                if bug:
                    marks.append(pytest.mark.xfail(strict=True, reason=bug))
            cases.append(
                pytest.param(route, kind, marks=marks, id="%s :: %s" % (route.label, kind))
            )
    return cases


def pytest_generate_tests(metafunc):
    if {"route", "kind"} <= set(metafunc.fixturenames):
        metafunc.parametrize("route, kind", _cases())


# -- the cloud -------------------------------------------------------------------


class World:
    """The cloud, a client, the kinds' tokens, A's resources (``ids``) and
    what an outsider must never read (``secrets``)."""

    def __init__(self, cloud):
        self.cloud = cloud
        self.client = Client(cloud)
        self.secrets = set()
        self.factories = {}
        for extension in _extensions():
            self.factories.update(getattr(extension, "FACTORIES", {}))

    def as_(self, kind, method, path, **kw):
        return self.client.call(method, path, token=self.tokens[kind], **kw)

    def secret(self, *values):
        self.secrets.update(str(v) for v in values if v)
        return values[0]

    # throwaway resources of A (and the admin's), for allowed writes ------

    def new_server(self):
        name = self.secret(_unique("authz-a-server"))
        server = self.as_(
            "a_member",
            "POST",
            "/compute/v2.1/servers",
            headers=COMPUTE_VERSION,
            json_body={
                "server": {
                    "name": name,
                    "flavorRef": "1",
                    "imageRef": self.ids["cirros"],
                    "networks": "none",
                    "metadata": {self.ids["key"]: "authz-a-value"},
                }
            },
        ).json()["server"]["id"]
        # build_time=0: the next read completes the build
        body = self.as_(
            "a_member", "GET", "/compute/v2.1/servers/" + server, headers=COMPUTE_VERSION
        ).json()["server"]
        assert body["status"] == "ACTIVE", body
        return self.secret(server)

    def new_keypair(self):
        name = self.secret(_unique("authz-a-key"))
        self.as_(
            "a_member",
            "POST",
            "/compute/v2.1/os-keypairs",
            headers=COMPUTE_VERSION,
            json_body={"keypair": {"name": name, "type": "ssh", "public_key": SSH_KEY}},
        )
        return name

    def new_config(self):
        return self.secret(
            self.as_(
                "a_member",
                "POST",
                self.heat + "/software_configs",
                json_body={
                    "name": self.secret(_unique("authz-a-config")),
                    "group": "script",
                    "config": "echo authz-a",
                },
            ).json()["software_config"]["id"]
        )

    def new_deployment(self):
        return self.secret(
            self.as_(
                "a_member",
                "POST",
                self.heat + "/software_deployments",
                json_body=_deployment_body(self.ids),
            ).json()["software_deployment"]["id"]
        )

    def new_container(self):
        name = self.secret(_unique("authz-a-container"))
        self.as_("a_member", "PUT", "%s/%s" % (self.swift, name))
        return name

    def new_object(self, container):
        name = self.secret(_unique("authz-a-object"))
        self.as_(
            "a_member", "PUT", "%s/%s/%s" % (self.swift, container, name), body=b"authz-a-content"
        )
        return name

    def new_app_cred(self):
        cred_id, secret = self.client.app_cred(
            self.tokens["a_member"], self.ids["user_id"], self.secret(_unique("authz-a-cred"))
        )
        self.secret(secret)
        return self.secret(cred_id)

    def new_aggregate(self):
        return str(
            self.as_(
                "admin",
                "POST",
                "/compute/v2.1/os-aggregates",
                json_body={"aggregate": {"name": _unique("authz-agg")}},
            ).json()["aggregate"]["id"]
        )

    def new_flavor(self):
        """A private flavor of the admin's, with A's extra spec key."""
        flavor_id = _unique("authz-flavor")
        self.as_(
            "admin",
            "POST",
            "/compute/v2.1/flavors",
            headers=COMPUTE_VERSION,
            json_body={
                "flavor": {
                    "name": flavor_id,
                    "id": flavor_id,
                    "ram": 64,
                    "vcpus": 1,
                    "disk": 1,
                    "os-flavor-access:is_public": False,
                }
            },
        )
        self.as_(
            "admin",
            "POST",
            "/compute/v2.1/flavors/%s/os-extra_specs" % flavor_id,
            json_body={"extra_specs": {self.ids["key"]: "v"}},
        )
        return flavor_id

    def new_service(self):
        """A nova-compute service without servers (nor node)."""
        host = _unique("authz-host")
        with self.cloud.store.transaction() as db:
            db.execute(
                "INSERT INTO compute_services (uuid, binary, host,"
                " created_at) VALUES (?, 'nova-compute', ?, ?)",
                (str(uuid.uuid4()), host, "2026-01-01T00:00:00"),
            )
            return db.execute(
                "SELECT uuid FROM compute_services WHERE host = ?", (host,)
            ).fetchone()[0]

    def new_rule(self):
        return self.as_(
            "admin",
            "POST",
            "/localcloud/faults",
            json_body={
                "method": "GET",
                "path": "^/authz-never-matches$",
                "count": 1,
                "kind": "status",
                "status": 503,
            },
        ).json()["fault"]["id"]

    # identity's admin API: throwaway domains, projects, users, roles

    def new_domain(self):
        """A disabled domain (keystone deletes only disabled ones)."""
        return self.as_(
            "admin",
            "POST",
            "/v3/domains",
            json_body={"domain": {"name": _unique("authz-domain"), "enabled": False}},
        ).json()["domain"]["id"]

    def new_project(self):
        return self.as_(
            "admin",
            "POST",
            "/v3/projects",
            json_body={"project": {"name": _unique("authz-project")}},
        ).json()["project"]["id"]

    def new_user(self):
        """A user without a password (nothing to hash; it cannot log in)."""
        return self.as_(
            "admin", "POST", "/v3/users", json_body={"user": {"name": _unique("authz-user")}}
        ).json()["user"]["id"]

    def new_role(self):
        return self.as_(
            "admin", "POST", "/v3/roles", json_body={"role": {"name": _unique("authz-role")}}
        ).json()["role"]["id"]

    def new_grant(self, ids, target):
        """Give ``ids``' user its role on its ``target`` ("project" or
        "domain"); returns ``target`` (no path parameter of its own)."""
        self.as_(
            "admin",
            "PUT",
            "/v3/%ss/%s/users/%s/roles/%s"
            % (target, ids[target + "_id"], ids["user_id"], ids["role_id"]),
        )
        return target

    def new_subject_token(self):
        return self.secret(self.client.exchanged_token(self.tokens["a_member"]))

    def fresh(self, params, ids=None):
        """Throwaway values for ``params`` (path parameters, or
        ``subject_token``; ``project_grant``/``domain_grant``: a grant for
        the values known so far), over the route's ``ids``."""
        base, ids = dict(ids or {}), {}
        for param in params:
            if param == "object":
                ids[param] = self.new_object(ids["container"])
            elif param in ("project_grant", "domain_grant"):
                ids[param] = self.new_grant({**base, **ids}, param.split("_")[0])
            elif param in self.factories:
                ids[param] = self.factories[param](self)
            else:
                ids[param] = getattr(
                    self,
                    "new_"
                    + {
                        "server_id": "server",
                        "name": "keypair",
                        "config_id": "config",
                        "deployment_id": "deployment",
                        "container": "container",
                        "app_cred_id": "app_cred",
                        "aggregate_id": "aggregate",
                        "rule_id": "rule",
                        "flavor_id": "flavor",
                        "service_id": "service",
                        "subject_token": "subject_token",
                        "domain_id": "domain",
                        "project_id": "project",
                        "user_id": "user",
                        "role_id": "role",
                    }[param],
                )()
        return ids

    def shared_rule(self):
        """The shared fault rule, re-added if an admin cleared the rules."""
        rules = self.as_("admin", "GET", "/localcloud/faults").json()["faults"]
        if not any(r["id"] == self.ids.get("rule_id") for r in rules):
            self.ids["rule_id"] = self.new_rule()
        return self.ids["rule_id"]

    def dump(self):
        """Every table's rows, and the fault rules (once Heat's engine ran
        what earlier cases started)."""
        wait_engine_idle(self.cloud)
        with self.cloud.store.read() as db:
            tables = [
                r[0]
                for r in db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
                )
            ]
            data = {
                t: sorted(tuple(r) for r in db.execute('SELECT * FROM "%s"' % t)) for t in tables
            }
        data["<fault rules>"] = self.as_("admin", "GET", "/localcloud/faults").json()["faults"]
        return data


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    # every create case adds a server to project A: nova's default
    # instances, cores and RAM quotas are lifted
    cloud = LocalCloud(
        Config(
            data_dir=str(tmp_path_factory.mktemp("authz")),
            build_time=0,
            quota_instances=-1,
            quota_cores=-1,
            quota_ram=-1,
            # no simulated agent reading servers in the background
            heat_agent_opt_in=False,
        )
    )
    creds.add_principals(cloud)
    w = World(cloud)
    w.tokens = creds.make_tokens(w.client)
    with cloud.store.read() as db:
        identity = cloud.identity
        w.projects = {
            "A": identity.project_id(db, creds.PROJECT_A),
            "B": identity.project_id(db, creds.PROJECT_B),
            "admin": identity.project_id(db, creds.PROJECT_ADMIN),
        }
        user_id = identity.user_id(db, "demo")
        admin_user = identity.user_id(db, "admin")
        w.secret(w.projects["A"], user_id, identity.user_id(db, creds.READER))
    a = w.projects["A"]
    w.heat = "/orchestration/v1/" + a
    w.swift = "/object-store/v1/AUTH_" + a
    images = w.as_("a_member", "GET", "/image/v2/images").json()["images"]
    w.ids = ids = {
        "user_id": user_id,
        "key": w.secret("authz-a-meta-key"),
        "subject_token": w.tokens["a_member"],
        "cirros": next(i["id"] for i in images if i["name"].startswith("cirros")),
    }
    # A's member: one of each
    ids["server_id"] = w.new_server()
    ids["name"] = w.new_keypair()
    image_name = w.secret(_unique("authz-a-image"))
    ids["image_id"] = w.secret(
        w.as_(
            "a_member",
            "POST",
            "/compute/v2.1/servers/%s/action" % ids["server_id"],
            headers=COMPUTE_VERSION,
            json_body={"createImage": {"name": image_name}},
        ).json()["image_id"]
    )
    w.as_("a_member", "GET", "/compute/v2.1/servers/" + ids["server_id"])
    ids["config_id"] = w.new_config()
    ids["deployment_id"] = w.new_deployment()
    w.as_(
        "a_member",
        "POST",
        w.swift,
        headers={"X-Account-Meta-Temp-URL-Key": w.secret(TEMP_URL_KEY)},
    )
    ids["container"] = w.new_container()
    ids["object"] = w.new_object(ids["container"])
    ids["app_cred_id"] = w.new_app_cred()
    w.temp_url = creds.temp_url_query(
        TEMP_URL_KEY,
        "GET",
        "/v1/AUTH_%s/%s/%s" % (a, ids["container"], ids["object"]),
        creds.expires_in(3600),
    )
    # the admin: an aggregate, a private flavor, a fault rule; ids of the
    # compute service and node
    ids["aggregate_id"] = w.new_aggregate()
    with cloud.store.transaction() as db:
        db.execute(
            "INSERT INTO compute_flavors (id, name, memory_mb, vcpus,"
            " root_gb, is_public, extra_specs) VALUES (?, ?, 512, 1,"
            " 1, 0, ?)",
            (PRIVATE_FLAVOR, PRIVATE_FLAVOR, json.dumps({ids["key"]: "v"})),
        )
    ids["flavor_id"] = PRIVATE_FLAVOR
    # project A, as a flavor access body names it
    ids["tenant"] = a
    # quotas and usage: A's; the default quota class; an audit time
    ids["tenant_id"] = a
    ids["quota_class"] = "default"
    ids["before_timestamp"] = "2012-07-01 00:00:00"
    ids["rule_id"] = w.new_rule()
    # identity: the default domain; demo ({user_id}) and its member role on
    # A ({role_id}); the admin and its admin role (Rule.params)
    roles = {r["name"]: r["id"] for r in w.as_("admin", "GET", "/v3/roles").json()["roles"]}
    ids.update(
        domain_id="default",
        role_id=roles["member"],
        admin_role=roles["admin"],
        admin_user=admin_user,
    )
    services = w.as_("admin", "GET", "/compute/v2.1/os-services", headers=COMPUTE_VERSION).json()[
        "services"
    ]
    ids["service_id"] = next(s["id"] for s in services if s["binary"] == "nova-compute")
    hypervisors = w.as_(
        "admin", "GET", "/compute/v2.1/os-hypervisors", headers=COMPUTE_VERSION
    ).json()["hypervisors"]
    ids["hypervisor_id"] = hypervisors[0]["id"]
    for extension in _extensions():
        if hasattr(extension, "setup"):
            extension.setup(w, ids)
    w.crashes = []
    cloud.log_exception = w.crashes.append
    yield w
    cloud.close()


# -- the matrix ------------------------------------------------------------------


def _fill(route, ids, kind, world):
    project = world.projects[kind.url_project]

    def value(match):
        name = match.group(1)
        if name == "project_id":
            return ids["project_id"]
        if name == "account":
            return "AUTH_" + project
        assert name in ids, "no value for path parameter {%s}" % name
        return ids[name]

    return route.prefix + re.sub(r"\{(\w+)\}", value, route.template)


def _outsider(kind, service):
    """Whether ``kind`` must read nothing of project A."""
    k = KINDS[kind]
    if k.project == "B" or not k.valid:
        return True
    return k.project is None and service != "identity"


def test_every_route_is_classified():
    routes = _collected_routes()
    missing = sorted({" ".join(r.key) for r in routes if r.key not in RULES})
    assert not missing, "classify these routes in RULES: %s" % missing
    stale = sorted(" ".join(key) for key in set(RULES) - {r.key for r in routes})
    assert not stale, "RULES entries matching no route: %s" % stale
    for route in routes:
        public = RULES[route.key].access in PUBLIC_ACCESS
        self_authorizing = (
            route.service in SELF_AUTHORIZING and route.key not in PUBLIC_SELF_AUTHORIZING_ROUTES
        ) or route.key in SELF_AUTHORIZING_ROUTES
        assert public == (not route.auth and not self_authorizing), route.label


def test_matrix(world, route, kind):
    route_rule = RULES.get(route.key)
    assert route_rule is not None, "unclassified route: %s" % (route.label,)
    k = KINDS[kind]
    expected, bug = expectation(route.service, route_rule, kind, route.names_project)
    allowed = any(200 <= s < 300 for s in expected)
    write = route.method not in READ_METHODS
    ids = dict(world.ids)
    # A's, or the caller's own for the *_own_url kinds (or a throwaway one)
    ids["project_id"] = world.projects[k.url_project]
    if route_rule.params:
        ids.update(route_rule.params(ids))
    if route.template.endswith("{rule_id}"):
        ids["rule_id"] = world.shared_rule()
    if write and (allowed or bug):
        ids.update(world.fresh(route_rule.fresh, ids))
    path = _fill(route, ids, k, world)
    body = route_rule.body(ids) if route_rule.body else None
    if isinstance(body, bytes):
        body_bytes = body
    elif body is not None:
        body_bytes = json.dumps(body).encode()
    elif route_rule.access == "token_exchange":
        body_bytes = json.dumps(
            {
                "auth": {
                    "identity": {"methods": ["token"], "token": {"id": world.tokens.get(kind, "")}}
                }
            }
        ).encode()
    else:
        body_bytes = b""
    headers = dict(route_rule.headers(ids) if route_rule.headers else {})
    if route.service == "compute":
        headers.update(COMPUTE_VERSION)
    compare = write and not allowed
    before = world.dump() if compare else None
    crashes = len(world.crashes)
    result = world.client.request(
        route.method,
        path,
        token=world.tokens.get(kind) if k.sends_token else None,
        body=body_bytes,
        headers=headers,
        query=world.temp_url if k.temp_url else "",
    )
    assert len(world.crashes) == crashes, "unhandled exception"
    assert result.status in expected, "%s %s as %s: %d, expected %s: %s" % (
        route.method,
        path,
        kind,
        result.status,
        sorted(expected),
        result.body[:300],
    )
    if compare:
        assert world.dump() == before, "a refused %s changed data" % (route.method,)
    if k.project == "B" or (_outsider(kind, route.service) and not allowed):
        sent = "\n".join([path, body_bytes.decode(), *headers.values()])
        leaked = sorted(s for s in world.secrets if s not in sent and s in result.text())
        assert not leaked, "%s read A's %s" % (kind, leaked)
