"""Keystone v3's application credentials and access rules, a user's own
(``client.application_credentials``, ``client.access_rules``):
``/v3/users/{user_id}/application_credentials`` and
``/v3/users/{user_id}/access_rules``.

A credential's ``secret`` is in the answer to its creation only (Keystone
keeps a hash); nothing here stores it.
"""

import builtins
import datetime
from collections.abc import Iterator
from typing import Any

from occli import base
from occli import exceptions
from occli.v2.identity import base as identity


class ApplicationCredential(base.Resource):
    pass


class AccessRule(base.Resource):
    pass


class _UserOwned(identity.IdentityManager):
    """A collection under ``/v3/users/{user_id}``."""

    def _owned_url(self, user: base.Resource | str, *parts: object) -> str:
        return self._url("users", base.getid(user), self.collection, *parts)

    def get(  # type: ignore[override]
        self, user: base.Resource | str, resource: base.Resource | str
    ) -> base.Resource:
        return self._get(self._owned_url(user, base.getid(resource)), self.member)

    def delete(  # type: ignore[override]
        self, user: base.Resource | str, resource: base.Resource | str
    ) -> base.Result:
        return self._delete(self._owned_url(user, base.getid(resource)))


class ApplicationCredentialManager(_UserOwned):
    resource_class = ApplicationCredential
    collection, member = "application_credentials", "application_credential"

    def list(  # type: ignore[override]
        self, user: base.Resource | str, name: str | None = None
    ) -> base.ListWithMeta:
        """The user's credentials (only ``name``'s if given), following
        pages; :meth:`iter` yields them lazily."""
        return self._list_all(self._owned_url(user), self.collection, {"name": name})

    def iter(self, user: base.Resource | str, name: str | None = None) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily."""
        return self._list(self._owned_url(user), self.collection, {"name": name})

    def create(
        self,
        user: base.Resource | str,
        name: str,
        secret: str | None = None,
        roles: builtins.list[dict[str, str]] | None = None,
        expires_at: datetime.datetime | None = None,
        description: str | None = None,
        unrestricted: bool = False,
        access_rules: builtins.list[dict[str, str]] | None = None,
    ) -> base.Resource:
        """Create a credential of ``user`` (the caller) for the token's
        project: ``roles`` as ``[{"id"}|{"name"}]`` (default: the
        token's), ``access_rules`` as ``[{"service", "path", "method"}|
        {"id"}]`` (none: any request). Its ``secret`` (generated unless
        given) is in the answer only."""
        body: dict[str, Any] = {"name": name, "unrestricted": unrestricted}
        for key, value in (
            ("secret", secret),
            ("roles", roles),
            ("expires_at", expires_at.isoformat() if expires_at else None),
            ("description", description),
            ("access_rules", access_rules),
        ):
            if value is not None:
                body[key] = value
        return self._create(self._owned_url(user), {self.member: body}, self.member)

    def find_resource(  # type: ignore[override]
        self, user: base.Resource | str, name_or_id: base.Resource | str
    ) -> base.Resource:
        """A credential of ``user`` by id, else by exact name (unique per
        user)."""
        if isinstance(name_or_id, base.Resource):
            return name_or_id
        text = str(name_or_id)
        try:
            return self.get(user, text)
        except exceptions.NotFound:
            pass
        matches = [c for c in self.list(user, name=text) if getattr(c, "name", None) == text]
        return self._one_named(matches, text)


class AccessRuleManager(_UserOwned):
    resource_class = AccessRule
    collection, member = "access_rules", "access_rule"

    def list(  # type: ignore[override]
        self,
        user: base.Resource | str,
        service: str | None = None,
        path: str | None = None,
        method: str | None = None,
    ) -> base.ListWithMeta:
        """The user's access rules (filtered by ``service``, ``path``,
        ``method``), following pages; :meth:`iter` yields them lazily."""
        params = {"service": service, "path": path, "method": method}
        return self._list_all(self._owned_url(user), self.collection, params)

    def iter(self, user: base.Resource | str) -> Iterator[base.Resource]:
        """Every access rule of ``user``, lazily."""
        return self._list(self._owned_url(user), self.collection)
