"""Keystone v3's trusts (``client.trusts``, ``/v3/OS-TRUST/trusts``),
credentials (``client.credentials``, ``/v3/credentials``) and a user's EC2
credentials (``client.ec2_credentials``,
``/v3/users/{user_id}/credentials/OS-EC2``).

A credential's ``blob`` and an EC2 credential's ``secret`` are secrets:
the debug log masks both (:mod:`occli.redaction`); nothing here keeps
them.
"""

import builtins
import datetime
from collections.abc import Iterator
from typing import Any

from occli import base
from occli.v2.identity import base as identity


class Trust(base.Resource):
    pass


class Credential(base.Resource):
    pass


class Ec2Credential(base.Resource):
    pass


class TrustManager(identity.IdentityManager):
    resource_class = Trust
    collection, member = "OS-TRUST/trusts", "trust"

    def list(
        self,
        trustor: base.Resource | str | None = None,
        trustee: base.Resource | str | None = None,
    ) -> base.ListWithMeta:
        """The trusts (of ``trustor`` or ``trustee``, a user or id: keystone
        lets a user list only its own), following pages; :meth:`iter`
        yields them lazily."""
        return self._list_all(self._url(self.collection), "trusts", _filters(trustor, trustee))

    def iter(
        self,
        trustor: base.Resource | str | None = None,
        trustee: base.Resource | str | None = None,
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily."""
        return self._list(self._url(self.collection), "trusts", _filters(trustor, trustee))

    def create(
        self,
        trustor: base.Resource | str,
        trustee: base.Resource | str,
        project: base.Resource | str,
        roles: builtins.list[dict[str, str]],
        impersonation: bool = False,
        expires_at: datetime.datetime | None = None,
    ) -> base.Resource:
        """A trust of ``trustor`` (the caller) for ``trustee`` on
        ``project`` with ``roles`` (``[{"id"}|{"name"}]``)."""
        body: dict[str, Any] = {
            "trustor_user_id": base.getid(trustor),
            "trustee_user_id": base.getid(trustee),
            "project_id": base.getid(project),
            "roles": roles,
            "impersonation": impersonation,
        }
        if expires_at is not None:
            body["expires_at"] = expires_at.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        return self._create_body(body)

    def _find_by_name(
        self, name: str, domain: base.Resource | str | None = None
    ) -> builtins.list[base.Resource]:
        return []  # a trust has no name: its id only


def _filters(trustor: base.Resource | str | None, trustee: base.Resource | str | None) -> dict:
    return {
        "trustor_user_id": base.getid(trustor) if trustor is not None else None,
        "trustee_user_id": base.getid(trustee) if trustee is not None else None,
    }


class CredentialManager(identity.IdentityManager):
    resource_class = Credential
    collection, member = "credentials", "credential"

    def list(
        self, user: base.Resource | str | None = None, type: str | None = None
    ) -> base.ListWithMeta:
        """The credentials the caller may read (``user``'s, of ``type``),
        following pages; :meth:`iter` yields them lazily."""
        return self._list_all(self._url(self.collection), self.collection, _owned(user, type))

    def iter(
        self, user: base.Resource | str | None = None, type: str | None = None
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily."""
        return self._list(self._url(self.collection), self.collection, _owned(user, type))

    def create(
        self,
        user: base.Resource | str,
        type: str,
        blob: str,
        project: base.Resource | str | None = None,
    ) -> base.Resource:
        """A credential of ``user``: ``blob`` its data (for ``ec2`` a JSON
        object with ``access`` and ``secret``, and ``project`` needed)."""
        body = {"user_id": base.getid(user), "type": type, "blob": blob}
        if project is not None:
            body["project_id"] = base.getid(project)
        return self._create_body(body)

    def update(
        self,
        credential: base.Resource | str,
        user: base.Resource | str | None = None,
        type: str | None = None,
        blob: str | None = None,
        project: base.Resource | str | None = None,
    ) -> base.Resource:
        """Change the given attributes (``PATCH``)."""
        body: dict[str, Any] = {}
        for key, value in (("user_id", user), ("project_id", project)):
            if value is not None:
                body[key] = base.getid(value)
        for key, text in (("type", type), ("blob", blob)):
            if text is not None:
                body[key] = text
        return self._patch(credential, body)

    def _find_by_name(
        self, name: str, domain: base.Resource | str | None = None
    ) -> builtins.list[base.Resource]:
        return []  # a credential has no name: its id only


def _owned(user: base.Resource | str | None, cred_type: str | None) -> dict:
    return {"user_id": base.getid(user) if user is not None else None, "type": cred_type}


class Ec2CredentialManager(identity.IdentityManager):
    resource_class = Ec2Credential
    collection, member = "credentials", "credential"

    def _owned_url(self, user: base.Resource | str, *parts: object) -> str:
        return self._url("users", base.getid(user), "credentials", "OS-EC2", *parts)

    def list(self, user: base.Resource | str) -> base.ListWithMeta:  # type: ignore[override]
        """The user's EC2 credentials, their secrets included."""
        return self._list_all(self._owned_url(user), self.collection)

    def create(self, user: base.Resource | str, project: base.Resource | str) -> base.Resource:
        """A new access key and secret of ``user`` on ``project``."""
        return self._create(self._owned_url(user), {"tenant_id": base.getid(project)}, self.member)

    def get(  # type: ignore[override]
        self, user: base.Resource | str, access: str
    ) -> base.Resource:
        return self._get(self._owned_url(user, access), self.member)

    def delete(  # type: ignore[override]
        self, user: base.Resource | str, access: str
    ) -> base.Result:
        return self._delete(self._owned_url(user, access))
