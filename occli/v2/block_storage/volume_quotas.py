"""Cinder quotas (``client.volume_quotas``): a project's limits on
volumes, snapshots, gigabytes and backups (``/os-quota-sets/{project_id}``
of the block-storage service), with per volume type limits named
``<resource>_<type name>`` (``volumes___DEFAULT__``); -1 is unlimited.

Reading your own project's limits is open to members; another project's,
and every change, needs an admin (Cinder's ``volume_extension:quotas:*``
policies).
"""

from urllib.parse import quote

from occli import base
from occli import exceptions
from occli.v2.block_storage import base as cinder
from occli.v2.network import network_quotas

#: Cinder's project-wide limits
RESOURCES = (
    "volumes",
    "snapshots",
    "gigabytes",
    "backups",
    "backup_gigabytes",
    "per_volume_gigabytes",
    "groups",
)
#: the limits that also exist per volume type
PER_TYPE = ("volumes", "snapshots", "gigabytes")
#: the largest limit Cinder stores
MAX_LIMIT = 0x7FFFFFFF


class VolumeQuota(base.Resource):
    """A project's Cinder limits (``id`` is the project); from
    ``get(usage=True)`` each limit is ``{"limit", "in_use", "reserved"}``."""


class VolumeQuotaManager(cinder.CinderManager):
    """Show, set and revert a project's Cinder limits."""

    resource_class = VolumeQuota
    noun = "volume quota"

    def available(self) -> bool:
        """Whether the catalog has a block-storage service (quota commands
        skip Cinder's limits when it has none)."""
        return bool(self.client.service_root(self.service_type, "v3"))

    def _quota_url(self, project_id: str | None, *parts: str) -> str:
        project = project_id or self.client.session.get_project_id()
        return self._url("os-quota-sets", quote(str(project), safe=""), *parts)

    def get(  # type: ignore[override]
        self, project_id: str | None = None, usage: bool = False
    ) -> base.Resource:
        """The project's limits; with ``usage``, each with what it uses
        (``{"limit", "in_use", "reserved"}``)."""
        params = {"usage": "True"} if usage else None
        return self._get(self._quota_url(project_id), "quota_set", params=params)

    def defaults(self, project_id: str | None = None) -> base.Resource:
        """The limits a project gets unless some are set for it."""
        return self._get(self._quota_url(project_id, "defaults"), "quota_set")

    def limits(self, project_id: str | None = None) -> base.Resource:
        """Cinder's ``GET /limits``: ``absolute`` (``maxTotalVolumes``,
        ``totalVolumesUsed``, …) and ``rate``; ``project_id`` (another
        project's: an admin, volume API 3.39, cinder's
        ``LIMITS_ADMIN_FILTER``)."""
        if not project_id:
            return self._get(self._url("limits"), "limits")
        response = self._request(
            "GET", self._url("limits"), params={"project_id": project_id}, microversion="3.39"
        )
        return self._resource(self._member(response, self._body(response), "limits"), response)

    def check_update(self, volume_type: str | None = None, **limits: int) -> None:
        """The checks of :meth:`update`, before any request: known names
        (with ``volume_type`` only the per type ones), integers from -1."""
        known = PER_TYPE if volume_type else RESOURCES
        network_quotas.check_limits(limits, known, MAX_LIMIT)

    def update(
        self, project_id: str, volume_type: str | None = None, **limits: int
    ) -> base.Resource:
        """Set some of ``project_id``'s limits (admin); with
        ``volume_type`` (a type name) the limits of that type
        (``volumes_<type>``…). The answer holds them all."""
        self.check_update(volume_type=volume_type, **limits)
        if not project_id:
            raise exceptions.ValidationError("Name the project whose quotas to set.")
        if volume_type:
            limits = {"%s_%s" % (k, volume_type): v for k, v in limits.items()}
        return self._update(self._quota_url(project_id), {"quota_set": limits}, "quota_set")

    def delete(self, project_id: str) -> base.Result:
        """Revert ``project_id`` to Cinder's defaults (admin); a Result."""
        if not project_id:
            raise exceptions.ValidationError("Name the project whose quotas to revert.")
        return self._delete(self._quota_url(project_id))
