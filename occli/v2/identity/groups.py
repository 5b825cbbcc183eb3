"""Keystone v3's groups (``client.groups``): CRUD, membership and a user's
groups. Roles are given to a group with
:meth:`occli.v2.identity.identity.RoleManager.grant` (``group=``).

Names resolve as OpenStackClient resolves them: the id first, then the
exact name (in ``domain`` if given): group names are unique within a
domain.
"""

from collections.abc import Iterator
from typing import Any

from occli import base
from occli import exceptions
from occli.v2.identity import base as identity
from occli.v2.identity.identity import _DomainLookup
from occli.v2.identity.identity import _given
from occli.v2.identity.identity import _id_or_none


class Group(base.Resource):
    pass


class GroupManager(_DomainLookup, identity.IdentityManager):
    resource_class = Group
    collection, member = "groups", "group"

    def list(
        self,
        domain: base.Resource | str | None = None,
        name: str | None = None,
        user: base.Resource | str | None = None,
    ) -> base.ListWithMeta:
        """Every group (``domain``: a resource or id; ``user``: only the
        groups that user is a member of, ``GET /v3/users/{id}/groups``),
        following pages: a :class:`~occli.base.ListWithMeta`; :meth:`iter`
        yields them lazily."""
        return self._list_all(*self._list_request(domain, name, user))

    def iter(
        self,
        domain: base.Resource | str | None = None,
        name: str | None = None,
        user: base.Resource | str | None = None,
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: each page is asked for when the
        previous one was used."""
        return self._list(*self._list_request(domain, name, user))

    def _list_request(
        self,
        domain: base.Resource | str | None,
        name: str | None,
        user: base.Resource | str | None,
    ) -> tuple[str, str, dict[str, Any]]:
        """``(url, response key, params)`` of a group list."""
        if user is not None:
            # keystone filters a user's groups by name only
            url = self._url("users", base.getid(user), "groups")
            return url, "groups", {"name": name}
        return self._url("groups"), "groups", {"domain_id": _id_or_none(domain), "name": name}

    def create(
        self,
        name: str,
        domain: base.Resource | str | None = None,
        description: str | None = None,
        **extra: Any,
    ) -> base.Resource:
        """Create a group (``extra``: other attributes keystone keeps)."""
        body = dict(extra, name=name)
        for key, value in (("domain_id", _id_or_none(domain)), ("description", description)):
            if value is not None:
                body[key] = value
        return self._create_body(body)

    def update(
        self,
        group: base.Resource | str,
        name: str | None = None,
        description: str | None = None,
        **extra: Any,
    ) -> base.Resource:
        return self._patch(group, dict(extra, **_given(name=name, description=description)))

    def users(self, group: base.Resource | str) -> base.ListWithMeta:
        """The group's users, following pages: a
        :class:`~occli.base.ListWithMeta`; :meth:`iter_users` yields them
        lazily."""
        return self._list_all(self._member_url(group, "users"), "users")

    def iter_users(self, group: base.Resource | str) -> Iterator[base.Resource]:
        """Like :meth:`users`, lazily."""
        return self._list(self._member_url(group, "users"), "users")

    def _membership_url(self, group: base.Resource | str, user: base.Resource | str) -> str:
        return self._member_url(group, "users", base.getid(user))

    def add_user(self, group: base.Resource | str, user: base.Resource | str) -> base.Result:
        """Make ``user`` a member of ``group`` (204 also when it is one)."""
        return self._result(self._request("PUT", self._membership_url(group, user)))

    def remove_user(self, group: base.Resource | str, user: base.Resource | str) -> base.Result:
        """End a membership (NotFound if ``user`` is no member); keystone
        revokes the user's tokens."""
        return self._delete(self._membership_url(group, user))

    def has_user(self, group: base.Resource | str, user: base.Resource | str) -> bool:
        """Whether ``user`` is a member of ``group``."""
        try:
            self._request("HEAD", self._membership_url(group, user))
        except exceptions.NotFound:
            return False
        return True
