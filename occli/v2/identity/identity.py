"""Keystone v3's admin API: domains, projects, users, roles, role
assignments (``client.domains``, ``client.projects``, ``client.users``,
``client.roles``, ``client.role_assignments``) and token revocation
(``client.tokens``).

Requests go to the catalog's ``identity`` endpoint; one that names no
version (``http://host/identity``, as many catalogs list it) gets ``/v3``
appended, so no version discovery is needed.

Names resolve as OpenStackClient resolves them (``find_resource``): the
id first, then the exact name (the list filtered by name, in ``domain``
if given). A lookup the cloud refuses with 403 (a member naming another
project) yields a resource holding only the given value as id and name,
as OSC's ``_find_identity_resource`` does: the request that uses it then
tells what the caller may do.
"""

from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any

from occli import base
from occli import exceptions
from occli.v2.identity import base as identity


class Domain(base.Resource):
    pass


class Project(base.Resource):
    pass


class User(base.Resource):
    pass


class Role(base.Resource):
    pass


class RoleAssignment(base.Resource):
    pass


def _enabled(value: bool | None) -> str | None:
    """A list filter: None (any), or keystone's ``true``/``false``."""
    if value is None:
        return None
    return "true" if value else "false"


class DomainManager(identity.IdentityManager):
    resource_class = Domain
    collection, member = "domains", "domain"

    def list(self, name: str | None = None, enabled: bool | None = None) -> base.ListWithMeta:
        """Every domain, following pages: a :class:`~occli.base.ListWithMeta`
        (with the ``request_ids`` of its pages); :meth:`iter` yields them
        lazily."""
        return self._list_all(*self._list_request(name, enabled))

    def iter(
        self, name: str | None = None, enabled: bool | None = None
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: each page is asked for when the
        previous one was used."""
        return self._list(*self._list_request(name, enabled))

    def _list_request(
        self, name: str | None, enabled: bool | None
    ) -> tuple[str, str, dict[str, Any]]:
        """``(url, response key, params)`` of a domain list."""
        return self._url("domains"), "domains", {"name": name, "enabled": _enabled(enabled)}

    def create(
        self,
        name: str,
        description: str | None = None,
        enabled: bool = True,
        tags: Iterable[str] | None = None,
    ) -> base.Resource:
        body: dict[str, Any] = {"name": name, "enabled": enabled}
        if description is not None:
            body["description"] = description
        if tags is not None:
            body["tags"] = list(tags)
        return self._create_body(body)

    def update(
        self,
        domain: base.Resource | str,
        name: str | None = None,
        description: str | None = None,
        enabled: bool | None = None,
    ) -> base.Resource:
        return self._patch(domain, _given(name=name, description=description, enabled=enabled))


class _DomainLookup(base.Manager):
    """Name lookups of users and projects: names are unique within a
    domain (a mixin of their managers)."""

    def _domain_id(self, domain: base.Resource | str | None) -> str | None:
        if domain is None:
            return None
        if isinstance(domain, base.Resource):
            return domain.id
        return self.client.domains.find_resource(domain).id

    def _find_by_name(
        self, name: str, domain: base.Resource | str | None = None
    ) -> list[base.Resource]:
        domain_id = self._domain_id(domain)
        return [
            r
            for r in self.list(name=name, domain=domain_id)
            if getattr(r, "name", None) == name
            and domain_id in (None, getattr(r, "domain_id", None))
        ]


class ProjectManager(_DomainLookup, identity.IdentityManager):
    resource_class = Project
    collection, member = "projects", "project"

    def list(
        self,
        domain: base.Resource | str | None = None,
        name: str | None = None,
        enabled: bool | None = None,
        parent: base.Resource | str | None = None,
        tag_filters: dict[str, str] | None = None,
    ) -> base.ListWithMeta:
        """Every project (``domain``, ``parent``: resources or ids;
        ``tag_filters``: keystone's ``tags``, ``tags-any``, ``not-tags``,
        ``not-tags-any``, comma-separated), following pages: a
        :class:`~occli.base.ListWithMeta`; :meth:`iter` yields them lazily."""
        return self._list_all(*self._list_request(domain, name, enabled, parent, tag_filters))

    def iter(
        self,
        domain: base.Resource | str | None = None,
        name: str | None = None,
        enabled: bool | None = None,
        parent: base.Resource | str | None = None,
        tag_filters: dict[str, str] | None = None,
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: each page is asked for when the
        previous one was used."""
        return self._list(*self._list_request(domain, name, enabled, parent, tag_filters))

    def _list_request(
        self,
        domain: base.Resource | str | None,
        name: str | None,
        enabled: bool | None,
        parent: base.Resource | str | None,
        tag_filters: dict[str, str] | None = None,
    ) -> tuple[str, str, dict[str, Any]]:
        """``(url, response key, params)`` of a project list."""
        params = {
            "domain_id": _id_or_none(domain),
            "name": name,
            "enabled": _enabled(enabled),
            "parent_id": _id_or_none(parent),
        }
        params.update(tag_filters or {})
        return self._url("projects"), "projects", params

    def create(
        self,
        name: str,
        domain: base.Resource | str | None = None,
        description: str | None = None,
        enabled: bool = True,
        parent: base.Resource | str | None = None,
        tags: Iterable[str] | None = None,
        **extra: Any,
    ) -> base.Resource:
        """Create a project (``extra``: other attributes keystone keeps)."""
        body = dict(extra, name=name, enabled=enabled)
        for key, value in (
            ("domain_id", _id_or_none(domain)),
            ("parent_id", _id_or_none(parent)),
            ("description", description),
        ):
            if value is not None:
                body[key] = value
        if tags is not None:
            body["tags"] = list(tags)
        return self._create_body(body)

    def update(
        self,
        project: base.Resource | str,
        name: str | None = None,
        description: str | None = None,
        enabled: bool | None = None,
        **extra: Any,
    ) -> base.Resource:
        return self._patch(
            project, dict(extra, **_given(name=name, description=description, enabled=enabled))
        )


class UserManager(_DomainLookup, identity.IdentityManager):
    resource_class = User
    collection, member = "users", "user"

    def list(
        self,
        domain: base.Resource | str | None = None,
        name: str | None = None,
        enabled: bool | None = None,
    ) -> base.ListWithMeta:
        """Every user (``domain``: a resource or id), following pages: a
        :class:`~occli.base.ListWithMeta`; :meth:`iter` yields them lazily."""
        return self._list_all(*self._list_request(domain, name, enabled))

    def iter(
        self,
        domain: base.Resource | str | None = None,
        name: str | None = None,
        enabled: bool | None = None,
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: each page is asked for when the
        previous one was used."""
        return self._list(*self._list_request(domain, name, enabled))

    def _list_request(
        self, domain: base.Resource | str | None, name: str | None, enabled: bool | None
    ) -> tuple[str, str, dict[str, Any]]:
        """``(url, response key, params)`` of a user list."""
        params = {"domain_id": _id_or_none(domain), "name": name, "enabled": _enabled(enabled)}
        return self._url("users"), "users", params

    def create(
        self,
        name: str,
        domain: base.Resource | str | None = None,
        password: str | None = None,
        email: str | None = None,
        description: str | None = None,
        default_project: base.Resource | str | None = None,
        enabled: bool = True,
        **extra: Any,
    ) -> base.Resource:
        """Create a user (``extra``: other attributes keystone keeps)."""
        body = dict(extra, name=name, enabled=enabled)
        for key, value in (
            ("domain_id", _id_or_none(domain)),
            ("password", password),
            ("email", email),
            ("description", description),
            ("default_project_id", _id_or_none(default_project)),
        ):
            if value is not None:
                body[key] = value
        return self._create_body(body)

    def update(
        self,
        user: base.Resource | str,
        name: str | None = None,
        password: str | None = None,
        email: str | None = None,
        description: str | None = None,
        default_project: base.Resource | str | None = None,
        enabled: bool | None = None,
        **extra: Any,
    ) -> base.Resource:
        return self._patch(
            user,
            dict(
                extra,
                **_given(
                    name=name,
                    password=password,
                    email=email,
                    description=description,
                    default_project_id=_id_or_none(default_project),
                    enabled=enabled,
                ),
            ),
        )

    def change_password(
        self, user: base.Resource | str, original_password: str, password: str
    ) -> base.Result:
        """Change a user's own password (keystone checks the original one;
        the user's tokens, the one in use included, are revoked)."""
        response = self._request(
            "POST",
            self._member_url(user, "password"),
            body={"user": {"original_password": original_password, "password": password}},
        )
        return self._result(response)

    def projects(self, user: base.Resource | str) -> base.ListWithMeta:
        """The projects ``user`` has a role on, following pages: a
        :class:`~occli.base.ListWithMeta`; :meth:`iter_projects` yields
        them lazily (``iter_`` names the lazy form of a listing that is
        not the manager's own ``list``)."""
        return self._list_all(*self._projects_request(user))

    def iter_projects(self, user: base.Resource | str) -> Iterator[base.Resource]:
        """Like :meth:`projects`, lazily: each page is asked for when the
        previous one was used."""
        return self._list(*self._projects_request(user))

    def _projects_request(self, user: base.Resource | str) -> tuple[str, str]:
        """``(url, response key)`` of a user's project list."""
        return self._member_url(user, "projects"), "projects"


class RoleManager(identity.IdentityManager):
    resource_class = Role
    collection, member = "roles", "role"

    def list(self, name: str | None = None) -> base.ListWithMeta:
        """Every role, following pages: a :class:`~occli.base.ListWithMeta`;
        :meth:`iter` yields them lazily."""
        return self._list_all(*self._list_request(name))

    def iter(self, name: str | None = None) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: each page is asked for when the
        previous one was used."""
        return self._list(*self._list_request(name))

    def _list_request(self, name: str | None) -> tuple[str, str, dict[str, Any]]:
        """``(url, response key, params)`` of a role list."""
        return self._url("roles"), "roles", {"name": name}

    def create(self, name: str, description: str | None = None) -> base.Resource:
        body = {"name": name}
        if description is not None:
            body["description"] = description
        return self._create_body(body)

    def update(
        self, role: base.Resource | str, name: str | None = None, description: str | None = None
    ) -> base.Resource:
        return self._patch(role, _given(name=name, description=description))

    def check_grant(
        self,
        user: base.Resource | str | None = None,
        project: base.Resource | str | None = None,
        domain: base.Resource | str | None = None,
        group: base.Resource | str | None = None,
        system: str | None = None,
    ) -> None:
        """ValidationError unless exactly one of a user or a group and
        exactly one of a project, a domain or the system (``"all"``) are
        given (before any lookup)."""
        if user is None and group is None:
            raise exceptions.ValidationError(
                "Give either {user} or {group}.", params=("user", "group")
            )
        if user is not None and group is not None:
            raise exceptions.ValidationError(
                "Give {user} or {group}, not both.", params=("user", "group")
            )
        if [project, domain, system].count(None) != 2:
            if system is None:
                raise exceptions.ValidationError(
                    "Give either {project} or {domain}.", params=("project", "domain")
                )
            raise exceptions.ValidationError(
                "Give one of {project}, {domain} or {system}.",
                params=("project", "domain", "system"),
            )

    def _grant_url(
        self,
        role: base.Resource | str,
        user: base.Resource | str | None,
        project: base.Resource | str | None,
        domain: base.Resource | str | None,
        group: base.Resource | str | None = None,
        system: str | None = None,
    ) -> str:
        self.check_grant(user, project, domain, group, system)
        actor = ("groups", group) if group is not None else ("users", user)
        if system is not None:
            # keystone's /v3/system/{users,groups}/{id}/roles/{role_id}
            return self._url("system", actor[0], base.getid(actor[1]), "roles", base.getid(role))
        target = ("projects", project) if project is not None else ("domains", domain)
        return self._url(
            target[0],
            base.getid(target[1]),
            actor[0],
            base.getid(actor[1]),
            "roles",
            base.getid(role),
        )

    def grant(
        self,
        role: base.Resource | str,
        user: base.Resource | str | None = None,
        project: base.Resource | str | None = None,
        domain: base.Resource | str | None = None,
        group: base.Resource | str | None = None,
        system: str | None = None,
    ) -> base.Result:
        """Give ``user`` (or ``group``) the ``role`` on a project, a
        domain or the system (``system="all"``; 204 also when it already
        has it); a Result."""
        return self._result(
            self._request("PUT", self._grant_url(role, user, project, domain, group, system))
        )

    def revoke(
        self,
        role: base.Resource | str,
        user: base.Resource | str | None = None,
        project: base.Resource | str | None = None,
        domain: base.Resource | str | None = None,
        group: base.Resource | str | None = None,
        system: str | None = None,
    ) -> base.Result:
        """Take the role away (NotFound if the user or group has it not
        directly)."""
        return self._delete(self._grant_url(role, user, project, domain, group, system))

    def has_grant(
        self,
        role: base.Resource | str,
        user: base.Resource | str | None = None,
        project: base.Resource | str | None = None,
        domain: base.Resource | str | None = None,
        group: base.Resource | str | None = None,
        system: str | None = None,
    ) -> bool:
        """Whether ``user`` (or ``group``) has the ``role`` directly on the
        target."""
        try:
            self._request("HEAD", self._grant_url(role, user, project, domain, group, system))
        except exceptions.NotFound:
            return False
        return True


class RoleAssignmentManager(identity.IdentityManager):
    resource_class = RoleAssignment

    def check_list(
        self,
        project: base.Resource | str | None = None,
        domain: base.Resource | str | None = None,
        user: base.Resource | str | None = None,
        group: base.Resource | str | None = None,
        effective: bool = False,
        system: str | None = None,
    ) -> None:
        """ValidationError for filters keystone refuses together (a project,
        a domain, the system: one at most; a user and a group, a group with
        ``effective``), before any lookup."""
        if project is not None and domain is not None:
            raise exceptions.ValidationError(
                "Give {project} or {domain}, not both.", params=("project", "domain")
            )
        if system is not None and (project is not None or domain is not None):
            # keystone: "Specify system or project (domain), not both"
            raise exceptions.ValidationError(
                "Give {system} or {project}/{domain}, not both.",
                params=("system", "project", "domain"),
            )
        if user is not None and group is not None:
            raise exceptions.ValidationError(
                "Give {user} or {group}, not both.", params=("user", "group")
            )
        if group is not None and effective:
            # keystone: "Combining effective and group filter will always
            # result in an empty list."
            raise exceptions.ValidationError(
                "Give {group} or {effective}, not both: the effective assignments are the users'.",
                params=("group", "effective"),
            )

    def list(
        self,
        user: base.Resource | str | None = None,
        project: base.Resource | str | None = None,
        domain: base.Resource | str | None = None,
        role: base.Resource | str | None = None,
        effective: bool = False,
        include_names: bool = False,
        include_subtree: bool = False,
        group: base.Resource | str | None = None,
        system: str | None = None,
    ) -> base.ListWithMeta:
        """Every role assignment (``GET /v3/role_assignments``) filtered
        by user, project or domain, role (resources or ids), following
        pages: a :class:`~occli.base.ListWithMeta`; ``effective`` adds the
        implied roles; ``system="all"``: the system grants only.
        :meth:`iter` yields them lazily."""
        return self._list_all(
            *self._list_request(
                user,
                project,
                domain,
                role,
                effective,
                include_names,
                include_subtree,
                group,
                system,
            )
        )

    def iter(
        self,
        user: base.Resource | str | None = None,
        project: base.Resource | str | None = None,
        domain: base.Resource | str | None = None,
        role: base.Resource | str | None = None,
        effective: bool = False,
        include_names: bool = False,
        include_subtree: bool = False,
        group: base.Resource | str | None = None,
        system: str | None = None,
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily (the filters are checked at once):
        each page is asked for when the previous one was used."""
        return self._list(
            *self._list_request(
                user,
                project,
                domain,
                role,
                effective,
                include_names,
                include_subtree,
                group,
                system,
            )
        )

    def _list_request(
        self,
        user: base.Resource | str | None,
        project: base.Resource | str | None,
        domain: base.Resource | str | None,
        role: base.Resource | str | None,
        effective: bool,
        include_names: bool,
        include_subtree: bool,
        group: base.Resource | str | None = None,
        system: str | None = None,
    ) -> tuple[str, str, dict[str, Any]]:
        """``(url, response key, params)`` of a role assignment list
        (ValidationError for filters keystone refuses together)."""
        self.check_list(
            project=project,
            domain=domain,
            user=user,
            group=group,
            effective=effective,
            system=system,
        )
        params: dict[str, Any] = {
            "user.id": _id_or_none(user),
            "group.id": _id_or_none(group),
            "scope.project.id": _id_or_none(project),
            "scope.domain.id": _id_or_none(domain),
            "role.id": _id_or_none(role),
            "scope.system": system,
        }
        for flag, name in (
            (effective, "effective"),
            (include_names, "include_names"),
            (include_subtree, "include_subtree"),
        ):
            if flag:
                params[name] = "true"
        return self._url("role_assignments"), "role_assignments", params


class TokenManager(identity.IdentityManager):
    """``/v3/auth/tokens``: validate or revoke a token (the subject of the
    request)."""

    def revoke(self, token: str) -> base.Result:
        """Revoke ``token`` (``X-Subject-Token``): every service refuses it
        at once (401); NotFound if it is unknown, expired or revoked; a
        user may revoke only its own tokens, an admin any."""
        return self._delete(self._url("auth", "tokens"), headers={"X-Subject-Token": token})

    def validate(self, token: str) -> bool:
        """Whether Keystone still accepts ``token``: ``HEAD`` with it as both
        the caller's and the subject token, never re-authenticating. False
        for an expired or revoked token, or one of a deleted user."""
        headers = {"X-Auth-Token": token, "X-Subject-Token": token}
        try:
            self._request(
                "HEAD", self._url("auth", "tokens"), headers=headers, authenticated=False
            )
        except (exceptions.Unauthorized, exceptions.NotFound):
            return False
        return True


def _id_or_none(value: base.Resource | str | None) -> str | None:
    return None if value is None else base.getid(value)


def _given(**values: Any) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}
