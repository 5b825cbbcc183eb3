"""Base of the Nova managers: the compute service and its microversion gates."""

from collections.abc import Iterable
from typing import cast

from occli import api_versions
from occli import base


class ComputeManager(base.Manager):
    """A manager of the compute API.

    Its adapter sends the negotiated microversion on every request
    (:meth:`occli.client.Client.api_version`); a method may send another
    one with ``microversion=``.
    """

    service_type = "compute"

    @property
    def api_version(self) -> api_versions.APIVersion:
        """The compute microversion in use: pinned or negotiated, never None
        (:meth:`occli.client.Client.api_version` has one for compute)."""
        return cast(api_versions.APIVersion, super().api_version)

    def _require(
        self,
        version: str | api_versions.APIVersion,
        start: str | api_versions.APIVersion,
        end: str | api_versions.APIVersion | None = None,
        what: str = "this feature",
        params: Iterable[str] = (),
    ) -> None:
        """UnsupportedVersion unless ``start <= version <= end`` (see
        :func:`occli.api_versions.require`)."""
        api_versions.require(
            version,
            start,
            end,
            what=what,
            pinned=self.client.pinned_compute_version() is not None,
            params=params,
        )

    def _capped_at(
        self, last: str, what: str, params: Iterable[str] = ()
    ) -> api_versions.APIVersion | None:
        """The microversion of a request using what nova removed after
        ``last``: None (the negotiated one) up to ``last``, else ``last``;
        UnsupportedVersion when the user pinned the later version."""
        version = api_versions.APIVersion(self.api_version)
        if version <= last:
            return None
        if self.client.pinned_compute_version():
            self._require(version, api_versions.MIN_VERSION, last, what=what, params=params)
        return api_versions.APIVersion(last)
