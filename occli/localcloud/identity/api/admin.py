"""Keystone v3's admin API on the identity service: domains, projects,
users, roles, grants and ``/v3/role_assignments``.

Each handler checks in keystone's order: the body or query schema (400,
:mod:`.admin_schemas`), the policy (403, :mod:`.policy`; keystone looks a
grant's role, user and target up first, so those are 404 before it), then
the rules (:mod:`.domains`, :mod:`.projects`, :mod:`.users`,
:mod:`.assignments`), and renders keystone's views. Creating or updating
a user with a password hashes it before the write transaction (route
``mode=None``), as logins do; so does ``POST /v3/users/{id}/password``,
which takes no token (keystone checks the original password instead).
"""

import json

from occli.localcloud import errors
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.identity import admin_schemas
from occli.localcloud.identity import assignments
from occli.localcloud.identity import domains
from occli.localcloud.identity import passwords
from occli.localcloud.identity import policy
from occli.localcloud.identity import projects
from occli.localcloud.identity import users
from occli.localcloud.identity.projects import DEFAULT_DOMAIN

GRANT_PATHS = {
    "project": "/v3/projects/{project_id}/users/{user_id}/roles/{role_id}",
    "domain": "/v3/domains/{domain_id}/users/{user_id}/roles/{role_id}",
}


def _url(req, *parts):
    return req.base_url + "/v3/" + "/".join(parts)


def _collection(req, key, items):
    url = req.base_url + req.path
    if req.query_string:
        url += "?" + req.query_string
    return {key: items, "links": {"next": None, "self": url, "previous": None}}


def _unauthorized(req, exc):
    """A 401 with keystone's ``WWW-Authenticate`` (as its password change
    answers: ``Keystone uri="<base>/v3"``)."""
    return HTTPError(
        401,
        exc.message,
        extra=exc.extra,
        headers={"WWW-Authenticate": 'Keystone uri="%s/v3"' % req.base_url},
    )


def _flag(req, name):
    """keystone's ``query_filter_is_true``: present and not ``0``."""
    return name in req.query and req.arg(name) != "0"


# -- views -------------------------------------------------------------------


def domain_view(req, row):
    return {
        "id": row["id"],
        "name": row["name"],
        "description": row["description"],
        "enabled": bool(row["enabled"]),
        "tags": json.loads(row["tags"]),
        "options": {},
        "links": {"self": _url(req, "domains", row["id"])},
    }


def domain_as_project_view(req, row):
    """A domain as keystone shows it on the projects API (``is_domain``)."""
    return {
        "id": row["id"],
        "name": row["name"],
        "domain_id": None,
        "description": row["description"],
        "enabled": bool(row["enabled"]),
        "parent_id": None,
        "is_domain": True,
        "tags": json.loads(row["tags"]),
        "options": {},
        "links": {"self": _url(req, "projects", row["id"])},
    }


def project_view(req, row):
    view = projects.extra(row)
    view.update(
        {
            "id": row["id"],
            "name": row["name"],
            "domain_id": row["domain_id"],
            "description": row["description"],
            "enabled": bool(row["enabled"]),
            "parent_id": row["parent_id"],
            "is_domain": False,
            "tags": json.loads(row["tags"]),
            "options": {},
            "links": {"self": _url(req, "projects", row["id"])},
        }
    )
    return view


def user_view(req, row):
    view = users.extra(row)
    view.update(
        {
            "id": row["id"],
            "name": row["name"],
            "domain_id": row["domain_id"],
            "enabled": bool(row["enabled"]),
        }
    )
    if row["default_project"] is not None:
        view["default_project_id"] = row["default_project"]
    view.update(
        {
            "password_expires_at": None,
            "options": {},
            "links": {"self": _url(req, "users", row["id"])},
        }
    )
    return view


def role_view(req, row):
    return {
        "id": row["id"],
        "name": row["name"],
        "domain_id": None,
        "description": row["description"],
        "options": ({"immutable": True} if assignments.immutable(row) else {}),
        "links": {"self": _url(req, "roles", row["id"])},
    }


class AdminAPI:
    """The admin routes of an :class:`~.api.IdentityService`."""

    def __init__(self, service):
        self.service = service
        route = service.route
        route("GET", "/v3/domains", self.list_domains)
        route("POST", "/v3/domains", self.create_domain)
        route("GET", "/v3/domains/{domain_id}", self.get_domain)
        route("PATCH", "/v3/domains/{domain_id}", self.update_domain)
        route("DELETE", "/v3/domains/{domain_id}", self.delete_domain)
        route("GET", "/v3/projects", self.list_projects)
        route("POST", "/v3/projects", self.create_project)
        route("GET", "/v3/projects/{project_id}", self.get_project)
        route("PATCH", "/v3/projects/{project_id}", self.update_project)
        route("DELETE", "/v3/projects/{project_id}", self.delete_project)
        route("GET", "/v3/users", self.list_users)
        route("POST", "/v3/users", self.create_user, mode=None)
        route("GET", "/v3/users/{user_id}", self.get_user)
        route("PATCH", "/v3/users/{user_id}", self.update_user, mode=None)
        route("DELETE", "/v3/users/{user_id}", self.delete_user)
        route("POST", "/v3/users/{user_id}/password", self.change_password, auth=False, mode=None)
        route("GET", "/v3/users/{user_id}/projects", self.list_user_projects)
        route("GET", "/v3/roles", self.list_roles)
        route("POST", "/v3/roles", self.create_role)
        route("GET", "/v3/roles/{role_id}", self.get_role)
        route("PATCH", "/v3/roles/{role_id}", self.update_role)
        route("DELETE", "/v3/roles/{role_id}", self.delete_role)
        for path in GRANT_PATHS.values():
            route("PUT", path, self.create_grant)
            route("GET", path, self.check_grant)  # and HEAD
            route("DELETE", path, self.revoke_grant)
        route("GET", "/v3/role_assignments", self.list_role_assignments)

    @property
    def store(self):
        return self.service.cloud.store

    # -- domains -------------------------------------------------------------

    def list_domains(self, req):
        query = admin_schemas.check_query("DOMAIN_QUERY", req.query)
        ctx = req.context
        policy.admin_or_domain_reader(ctx, "list_domains")
        rows = domains.select(
            req.db,
            name=query.get("name"),
            enabled=admin_schemas.optional_boolean(query.get("enabled")),
            only=None if ctx.is_admin else policy.domain_scope(ctx),
        )
        return _collection(req, "domains", [domain_view(req, r) for r in rows])

    def create_domain(self, req):
        data = admin_schemas.check_body("DOMAIN_CREATE", req.json())["domain"]
        policy.admin_only(req.context, "create_domain")
        data["enabled"] = admin_schemas.boolean(data.get("enabled"))
        return Response(201, {"domain": domain_view(req, domains.create(req.db, data))})

    def get_domain(self, req):
        domain_id = req.params["domain_id"]
        policy.get_domain(req.context, domain_id)
        return {"domain": domain_view(req, domains.get(req.db, domain_id))}

    def update_domain(self, req):
        data = admin_schemas.check_body("DOMAIN_UPDATE", req.json())["domain"]
        policy.admin_only(req.context, "update_domain")
        if "enabled" in data:
            data["enabled"] = admin_schemas.boolean(data["enabled"])
        return {"domain": domain_view(req, domains.update(req.db, req.params["domain_id"], data))}

    def delete_domain(self, req):
        policy.admin_only(req.context, "delete_domain")
        domains.delete(req.db, req.params["domain_id"])
        return Response(204)

    # -- projects ------------------------------------------------------------

    def list_projects(self, req):
        query = admin_schemas.check_query("PROJECT_QUERY", req.query)
        ctx = req.context
        policy.admin_or_domain_reader(ctx, "list_projects")
        enabled = admin_schemas.optional_boolean(query.get("enabled"))
        scope = policy.domain_scope(ctx)
        if admin_schemas.boolean(query.get("is_domain"), default=False):
            rows = domains.select(req.db, name=query.get("name"), enabled=enabled, only=scope)
            if query.get("domain_id") or query.get("parent_id"):
                rows = []
            return _collection(req, "projects", [domain_as_project_view(req, r) for r in rows])
        domain_id = query.get("domain_id")
        if scope is not None and domain_id not in (None, scope):
            rows = []
        else:
            rows = projects.select(
                req.db,
                name=query.get("name"),
                domain_id=domain_id or scope,
                enabled=enabled,
                parent_id=query.get("parent_id"),
            )
        return _collection(req, "projects", [project_view(req, r) for r in rows])

    def create_project(self, req):
        data = admin_schemas.check_body("PROJECT_CREATE", req.json())["project"]
        ctx = req.context
        policy.admin_only(ctx, "create_project")
        data["enabled"] = admin_schemas.boolean(data.get("enabled"))
        if admin_schemas.boolean(data.get("is_domain"), default=False):
            if data.get("domain_id") or data.get("parent_id"):
                raise errors.BadRequest("only root projects are allowed to act as domains.")
            row = domains.create(req.db, data)
            return Response(201, {"project": domain_as_project_view(req, row)})
        data.pop("is_domain", None)
        row = projects.create(req.db, data, policy.domain_scope(ctx) or DEFAULT_DOMAIN)
        return Response(201, {"project": project_view(req, row)})

    def _project_or_domain(self, db, project_id):
        row = projects.find(db, project_id)
        if row is not None:
            return row, None
        return None, domains.find(db, project_id)

    def get_project(self, req):
        project_id = req.params["project_id"]
        row, domain = self._project_or_domain(req.db, project_id)
        target = row or (domain and {"id": domain["id"], "domain_id": None})
        policy.get_project(req.context, target)
        if row is not None:
            return {"project": project_view(req, row)}
        if domain is not None:
            return {"project": domain_as_project_view(req, domain)}
        raise projects.not_found(project_id)

    def update_project(self, req):
        data = admin_schemas.check_body("PROJECT_UPDATE", req.json())["project"]
        policy.admin_only(req.context, "update_project")
        if "enabled" in data:
            data["enabled"] = admin_schemas.boolean(data["enabled"])
        project_id = req.params["project_id"]
        row, domain = self._project_or_domain(req.db, project_id)
        if row is None and domain is not None:
            changes = {k: data[k] for k in ("name", "description", "enabled", "tags") if k in data}
            return {
                "project": domain_as_project_view(req, domains.update(req.db, project_id, changes))
            }
        return {"project": project_view(req, projects.update(req.db, project_id, data))}

    def delete_project(self, req):
        """``DELETE /v3/projects/{id}``: a token scoped to the project (the
        caller's own included) is invalid afterwards, as in keystone."""
        policy.admin_only(req.context, "delete_project")
        project_id = req.params["project_id"]
        row, domain = self._project_or_domain(req.db, project_id)
        if row is None and domain is not None:
            if domain["enabled"]:
                raise errors.BadRequest(
                    "cannot delete an enabled project acting as a domain."
                    " Please disable the project %s first." % project_id
                )
            domains.delete(req.db, project_id)
        else:
            projects.delete(req.db, project_id)
        return Response(204)

    # -- users ---------------------------------------------------------------

    def list_users(self, req):
        query = admin_schemas.check_query("USER_QUERY", req.query)
        ctx = req.context
        policy.admin_or_domain_reader(ctx, "list_users")
        scope = policy.domain_scope(ctx)
        domain_id = query.get("domain_id")
        if scope is not None and domain_id not in (None, scope):
            rows = []
        else:
            rows = users.select(
                req.db,
                name=query.get("name"),
                domain_id=domain_id or scope,
                enabled=admin_schemas.optional_boolean(query.get("enabled")),
            )
        return _collection(req, "users", [user_view(req, r) for r in rows])

    def _password_hash(self, data):
        """The hash of the body's password (no lock held: ~45 ms); "" for
        none (no password: the user cannot log in); None if absent."""
        if "password" not in data:
            return None
        if data["password"] is None:
            return ""
        return passwords.hash_password(data["password"])

    def create_user(self, req):
        """``POST /v3/users`` (no transaction held while hashing)."""
        data = admin_schemas.check_body("USER_CREATE", req.json())["user"]
        ctx = req.context
        policy.admin_only(ctx, "create_user")
        users.check_supported(data)
        data["enabled"] = admin_schemas.boolean(data.get("enabled"))
        password_hash = self._password_hash(data) or ""
        with self.store.transaction() as db:
            row = users.create(db, data, policy.domain_scope(ctx) or DEFAULT_DOMAIN, password_hash)
            return Response(201, {"user": user_view(req, row)})

    def get_user(self, req):
        user_id = req.params["user_id"]
        row = users.find(req.db, user_id)
        policy.user_target(req.context, "get_user", row)
        if row is None:
            raise users.not_found(user_id)
        return {"user": user_view(req, row)}

    def update_user(self, req):
        """``PATCH /v3/users/{id}`` (no transaction held while hashing); a
        new password or disabling revokes the user's tokens."""
        data = admin_schemas.check_body("USER_UPDATE", req.json())["user"]
        policy.admin_only(req.context, "update_user")
        users.check_supported(data)
        if "enabled" in data:
            data["enabled"] = admin_schemas.boolean(data["enabled"])
        password_hash = self._password_hash(data)
        with self.store.transaction() as db:
            row = users.update(db, req.params["user_id"], data, password_hash)
            return {"user": user_view(req, row)}

    def delete_user(self, req):
        policy.admin_only(req.context, "delete_user")
        users.delete(req.db, req.params["user_id"])
        return Response(204)

    def change_password(self, req):
        """``POST /v3/users/{id}/password`` ``{"user": {"original_password",
        "password"}}``: no token needed; 401 unless the original password is
        right (and the user enabled); 204, the user's tokens revoked."""
        data = admin_schemas.check_password_change(req.json())
        store = self.store
        try:
            lockout = self.service.lockout
            with store.read() as db:
                check = users.original_password_lookup(
                    db, req.params["user_id"], data["original_password"], lockout
                )
            new_hash = passwords.hash_password(data["password"]) if check.verify() else None
            if users.counts_failure(check, lockout):
                with store.transaction() as db:
                    users.record_failure(db, check.row_id, lockout)
            with store.transaction() if new_hash else store.read() as db:
                users.change_password(db, check, new_hash)
        except errors.Unauthorized as exc:
            raise _unauthorized(req, exc) from None
        return Response(204)

    def list_user_projects(self, req):
        user_id = req.params["user_id"]
        row = users.find(req.db, user_id)
        policy.user_target(req.context, "list_user_projects", row)
        if row is None:
            raise users.not_found(user_id)
        query = admin_schemas.check_query("PROJECT_QUERY", req.query)
        rows = projects.select(
            req.db,
            name=query.get("name"),
            domain_id=query.get("domain_id"),
            enabled=admin_schemas.optional_boolean(query.get("enabled")),
            ids=users.project_ids(req.db, user_id),
        )
        return _collection(req, "projects", [project_view(req, r) for r in rows])

    # -- roles ---------------------------------------------------------------

    def list_roles(self, req):
        query = admin_schemas.check_query("ROLE_QUERY", req.query)
        policy.admin_only(req.context, "list_roles")
        rows = assignments.select_roles(
            req.db, name=query.get("name"), domain_id=query.get("domain_id")
        )
        return _collection(req, "roles", [role_view(req, r) for r in rows])

    def create_role(self, req):
        data = admin_schemas.check_body("ROLE_CREATE", req.json())["role"]
        policy.admin_only(req.context, "create_role")
        return Response(201, {"role": role_view(req, assignments.create_role(req.db, data))})

    def get_role(self, req):
        policy.admin_only(req.context, "get_role")
        return {"role": role_view(req, assignments.get_role(req.db, req.params["role_id"]))}

    def update_role(self, req):
        data = admin_schemas.check_body("ROLE_UPDATE", req.json())["role"]
        policy.admin_only(req.context, "update_role")
        return {
            "role": role_view(req, assignments.update_role(req.db, req.params["role_id"], data))
        }

    def delete_role(self, req):
        policy.admin_only(req.context, "delete_role")
        assignments.delete_role(req.db, req.params["role_id"])
        return Response(204)

    # -- grants --------------------------------------------------------------

    def _grant(self, req, missing_user_ok=False):
        """``(user_id, target_type, target_id, role_id, user_domain,
        target_domain)`` of a grant URL, looked up in keystone's order:
        role, user (an unknown one only for a revoke), then the target."""
        params, db = req.params, req.db
        role_id = assignments.get_role(db, params["role_id"])["id"]
        user = users.find(db, params["user_id"])
        if user is None and not missing_user_ok:
            raise users.not_found(params["user_id"])
        if "project_id" in params:
            target = projects.get(db, params["project_id"])
            target_type, target_domain = "project", target["domain_id"]
        else:
            target = domains.get(db, params["domain_id"])
            target_type, target_domain = "domain", target["id"]
        return (
            params["user_id"],
            target_type,
            target["id"],
            role_id,
            user["domain_id"] if user else None,
            target_domain,
        )

    def create_grant(self, req):
        """``PUT …/users/{user_id}/roles/{role_id}``: 204 (also when the
        user already has the role)."""
        user_id, target_type, target_id, role_id, _, _ = self._grant(req)
        policy.admin_only(req.context, "create_grant")
        assignments.assign(req.db, user_id, target_type, target_id, role_id)
        return Response(204)

    def check_grant(self, req):
        """``HEAD``/``GET …/users/{user_id}/roles/{role_id}``: 204 if the
        user has the role directly, else 404."""
        (user_id, target_type, target_id, role_id, user_domain, target_domain) = self._grant(req)
        policy.check_grant(req.context, user_domain, target_domain)
        assignments.check_grant(req.db, user_id, target_type, target_id, role_id)
        return Response(204)

    def revoke_grant(self, req):
        user_id, target_type, target_id, role_id, _, _ = self._grant(req, missing_user_ok=True)
        policy.admin_only(req.context, "revoke_grant")
        assignments.revoke(req.db, user_id, target_type, target_id, role_id)
        return Response(204)

    # -- role assignments ----------------------------------------------------

    def list_role_assignments(self, req):
        """``GET /v3/role_assignments`` with keystone's filters (``user.id``,
        ``role.id``, ``scope.project.id``, ``scope.domain.id``,
        ``include_subtree``, ``effective``, ``include_names``). There are
        no groups, inherited or system assignments here: filtering on them
        lists nothing."""
        arg = req.arg
        ctx = req.context
        project_id = arg("scope.project.id")
        subtree = _flag(req, "include_subtree")
        if subtree and not project_id:
            raise errors.BadRequest("'scope.project.id' is a dependency of 'include_subtree'")
        if subtree:
            project = projects.find(req.db, project_id)
            policy.enforce(
                ctx,
                "list_role_assignments_for_tree",
                ctx.is_admin
                or (project is not None and policy.domain_reader(ctx, project["domain_id"])),
            )
            if project is None:
                raise projects.not_found(project_id)
        else:
            policy.admin_or_domain_reader(ctx, "list_role_assignments")
        effective = _flag(req, "effective")
        for one, other, message in (
            ("scope.domain.id", "scope.project.id", "Specify a domain or project, not both"),
            ("scope.system", "scope.domain.id", "Specify system or domain, not both"),
            ("scope.system", "scope.project.id", "Specify system or project, not both"),
            ("user.id", "group.id", "Specify a user or group, not both"),
        ):
            if arg(one) and arg(other):
                raise errors.BadRequest(message)
        if effective and arg("group.id"):
            raise errors.BadRequest(
                "Combining effective and group filter will always result in an empty list."
            )
        inherited = arg("scope.OS-INHERIT:inherited_to")
        if effective and inherited == "projects" and arg("scope.domain.id"):
            raise errors.BadRequest(
                "Combining effective, domain and"
                " inherited filters will always result"
                " in an empty list."
            )
        if arg("group.id") or arg("scope.system") or inherited == "projects":
            return _collection(req, "role_assignments", [])
        project_ids = None
        if project_id:
            project_ids = projects.subtree_ids(req.db, project_id) if subtree else [project_id]
        found = assignments.list_assignments(
            req.db,
            user_id=arg("user.id"),
            role_id=arg("role.id"),
            project_ids=project_ids,
            domain_id=arg("scope.domain.id"),
            effective=effective,
        )
        scope = policy.domain_scope(ctx)
        if scope is not None:
            in_domain = {r["id"] for r in projects.select(req.db, domain_id=scope)}
            found = [
                a
                for a in found
                if (a["target_type"] == "domain" and a["target_id"] == scope)
                or (a["target_type"] == "project" and a["target_id"] in in_domain)
            ]
        names = _Names(req.db) if _flag(req, "include_names") else None
        return _collection(
            req, "role_assignments", [self._assignment_view(req, a, names) for a in found]
        )

    def _assignment_view(self, req, item, names):
        kind, target_id = item["target_type"], item["target_id"]
        prior = item["prior_role_id"]
        grant = _url(
            req, kind + "s", target_id, "users", item["user_id"], "roles", prior or item["role_id"]
        )
        links = {"assignment": grant}
        if prior:
            links["prior_role"] = _url(req, "prior_role", item["role_id"], "implies", prior)
        view = {
            "links": links,
            "scope": {kind: {"id": target_id}},
            "user": {"id": item["user_id"]},
            "role": {"id": item["role_id"]},
        }
        if names is not None:
            view["scope"][kind] = names.target(kind, target_id)
            view["user"] = names.user(item["user_id"])
            view["role"] = names.role(item["role_id"])
        return view


class _Names:
    """Names for ``include_names``, read once each."""

    # what each kind of row is read with
    _FIND = {
        "domains": domains.find,
        "projects": projects.find,
        "users": users.find,
        "roles": assignments.find_role,
    }

    def __init__(self, db):
        self.db = db
        self._rows = {}

    def _row(self, table, row_id):
        """Row ``row_id`` of ``table`` (or None), read once."""
        key = (table, row_id)
        if key not in self._rows:
            self._rows[key] = self._FIND[table](self.db, row_id)
        return self._rows[key]

    def _domain(self, domain_id):
        row = self._row("domains", domain_id)
        return {"id": domain_id, "name": row["name"] if row else None}

    def _named(self, table, row_id):
        """``{"id", "name", "domain"}`` of a project or user."""
        row = self._row(table, row_id)
        return {
            "id": row_id,
            "name": row["name"] if row else None,
            "domain": self._domain(row["domain_id"] if row else None),
        }

    def target(self, kind, target_id):
        if kind == "domain":
            return self._domain(target_id)
        return self._named("projects", target_id)

    def user(self, user_id):
        return self._named("users", user_id)

    def role(self, role_id):
        row = self._row("roles", role_id)
        return {"id": role_id, "name": row["name"] if row else None}
