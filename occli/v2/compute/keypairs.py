"""Nova keypairs.

Key pairs belong to users. An admin names another user's with
``user_id`` (compute API 2.10 or later); listings are paged from 2.35
(``limit``, ``marker``); ``key_type`` (``ssh`` or ``x509``) needs 2.2.
"""

from collections.abc import Iterator

from occli import api_versions
from occli import base
from occli.v2.compute import base as compute

USER_VERSION = "2.10"
PAGING_VERSION = "2.35"
TYPE_VERSION = "2.2"
LAST_GENERATING_VERSION = "2.91"


class Keypair(base.Resource):
    @property
    def id(self) -> str | None:
        return self._info.get("name")


class KeypairManager(compute.ComputeManager):
    resource_class = Keypair

    def list(
        self, user_id: str | None = None, marker: str | None = None, limit: int | None = None
    ) -> base.ListWithMeta:
        """Key pairs (the caller's, or ``user_id``'s): a list with
        ``request_ids`` (:class:`occli.base.ListWithMeta`), in novaclient's
        positional order; ``marker`` needs 2.35, where the cloud pages
        (``limit`` caps the total at any version). :meth:`iter` yields
        them lazily."""
        self.check_list(user_id=user_id, marker=marker)
        params = {"marker": marker, "user_id": user_id}
        return self._list_all(
            "/os-keypairs", "keypairs", params=params, limit=limit, item_key="keypair"
        )

    def iter(
        self, user_id: str | None = None, marker: str | None = None, limit: int | None = None
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily."""
        self.check_list(user_id=user_id, marker=marker)
        params = {"marker": marker, "user_id": user_id}
        return self._list(
            "/os-keypairs", "keypairs", params=params, limit=limit, item_key="keypair"
        )

    list_iter = iter

    def check_list(self, user_id: str | None = None, marker: str | None = None) -> None:
        """UnsupportedVersion for ``user_id`` before 2.10 or ``marker``
        before 2.35."""
        self._check_user(user_id)
        if marker is not None:
            self._require(self.api_version, PAGING_VERSION, what="{marker}", params=("marker",))

    def _check_user(
        self, user_id: str | None, version: api_versions.APIVersion | None = None
    ) -> None:
        if user_id is not None:
            self._require(
                version or self.api_version, USER_VERSION, what="{user_id}", params=("user_id",)
            )

    def _user_params(self, user_id: str | None) -> dict[str, str] | None:
        self._check_user(user_id)
        return {"user_id": user_id} if user_id is not None else None

    def get(self, keypair: base.Resource | str, user_id: str | None = None) -> base.Resource:
        return self._get(
            "/os-keypairs/%s" % base.getid(keypair), "keypair", params=self._user_params(user_id)
        )

    def create(
        self,
        name: str,
        public_key: str | None = None,
        key_type: str | None = None,
        user_id: str | None = None,
    ) -> base.Resource:
        """Import ``public_key``, or let Nova generate a key pair (the
        answer then holds its ``private_key``, its only copy).

        Nova stopped generating keys at 2.92; without a public key the request
        uses 2.91 when the negotiated version is higher (unless pinned).
        """
        microversion = self.check_create(public_key=public_key, key_type=key_type, user_id=user_id)
        body = {"name": name}
        if public_key is not None:
            body["public_key"] = public_key
        if key_type is not None:
            body["type"] = key_type
        if user_id is not None:
            body["user_id"] = user_id
        return self._create(
            "/os-keypairs", {"keypair": body}, "keypair", microversion=microversion
        )

    def check_create(
        self,
        public_key: str | None = None,
        key_type: str | None = None,
        user_id: str | None = None,
    ) -> api_versions.APIVersion | None:
        """UnsupportedVersion for what the version lacks; the microversion
        :meth:`create` sends (None: the negotiated one)."""
        version = api_versions.APIVersion(self.api_version)
        microversion = None
        if public_key is None:
            microversion = self._capped_at(
                LAST_GENERATING_VERSION, what="generating a key pair on the server"
            )
        if key_type is not None:
            self._require(microversion or version, TYPE_VERSION, what="key type")
        self._check_user(user_id, microversion or version)
        return microversion

    def delete(self, keypair: base.Resource | str, user_id: str | None = None) -> base.Result:
        return self._delete(
            "/os-keypairs/%s" % base.getid(keypair), params=self._user_params(user_id)
        )
